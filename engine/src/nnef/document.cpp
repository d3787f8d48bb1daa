#include "nnef/document.h"

#include <algorithm>

namespace t2n::nnef {

Expr Expr::id(std::string name) {
    Expr e;
    e.kind = Kind::Identifier;
    e.text = std::move(name);
    return e;
}
Expr Expr::i(int64_t v) {
    Expr e;
    e.kind = Kind::Integer;
    e.integer = v;
    return e;
}
Expr Expr::f(double v) {
    Expr e;
    e.kind = Kind::Scalar;
    e.scalar = v;
    return e;
}
Expr Expr::b(bool v) {
    Expr e;
    e.kind = Kind::Logical;
    e.logical = v;
    return e;
}
Expr Expr::str(std::string v) {
    Expr e;
    e.kind = Kind::String;
    e.text = std::move(v);
    return e;
}
Expr Expr::array(std::vector<Expr> items) {
    Expr e;
    e.kind = Kind::Array;
    e.items = std::move(items);
    return e;
}
Expr Expr::tuple(std::vector<Expr> items) {
    Expr e;
    e.kind = Kind::Tuple;
    e.items = std::move(items);
    return e;
}
Expr Expr::ints(const std::vector<int64_t>& v) {
    std::vector<Expr> items;
    for (int64_t x : v)
        items.push_back(i(x));
    return array(std::move(items));
}

Expr Expr::binary(std::string op, Expr lhs, Expr rhs) {
    Expr e;
    e.kind = Kind::Binary;
    e.text = std::move(op);
    e.items = {std::move(lhs), std::move(rhs)};
    return e;
}

void Document::addExtension(const std::string& ext) {
    if (std::find(extensions.begin(), extensions.end(), ext) == extensions.end())
        extensions.push_back(ext);
}

} // namespace t2n::nnef
