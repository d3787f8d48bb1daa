#include "translate/scaled_symbols.h"

#include <fmt/format.h>

namespace t2n::translate {

int64_t floorDivide(int64_t a, int64_t b) {
    const int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

ScaledSymbols::ScaledSymbols(const ir::Graph& g, bool enabled) {
    if (!enabled)
        return;
    for (const ir::SymbolProbe& p : g.symbolProbes) {
        const int64_t m = p.multipleOf;
        if (m <= 1)
            continue;
        for (const ir::SymbolSize& s : g.symbolSizes) {
            if (s.name != p.name)
                continue;
            const bool multiples = s.example % m == 0 && s.probe % m == 0 && s.far % m == 0 &&
                                   s.example > 0 && s.probe > 0 && s.far > 0;
            if (!multiples || s.example == s.probe)
                continue;
            Scaled sc;
            sc.symbol = s.name;
            sc.multiple = m;
            sc.name = fmt::format("{}_{}", s.name, m);
            sc.example = s.example / m;
            sc.probe = s.probe / m;
            sc.far = s.far / m;
            scaled_.emplace(s.name, sc);
        }
    }
}

const ScaledSymbols::Scaled* ScaledSymbols::find(const std::string& symbol) const {
    auto it = scaled_.find(symbol);
    return it == scaled_.end() ? nullptr : &it->second;
}

nnef::Expr affineExpr(const AxisAffine& a) {
    using nnef::Expr;
    if (a.coef == 0)
        return Expr::i(a.constant);
    Expr base =
        a.coef == 1 ? Expr::id(a.symbol) : Expr::binary("*", Expr::i(a.coef), Expr::id(a.symbol));
    if (a.constant == 0)
        return base;
    return a.constant > 0 ? Expr::binary("+", std::move(base), Expr::i(a.constant))
                          : Expr::binary("-", std::move(base), Expr::i(-a.constant));
}

std::optional<AxisAffine> ScaledSymbols::fit(const ir::Value& v, size_t axis, const Scaled& s) {
    if (axis >= v.shape.size() || axis >= v.probeShape.size() || axis >= v.farShape.size() ||
        s.far == 0 || s.probe == s.example)
        return std::nullopt;
    const int64_t n0 = v.shape[axis], n1 = v.probeShape[axis], n2 = v.farShape[axis];
    const int64_t ds = s.probe - s.example;
    if ((n1 - n0) % ds != 0)
        return std::nullopt;
    AxisAffine a{s.name, (n1 - n0) / ds, 0};
    a.constant = n0 - a.coef * s.example;
    if (a.coef * s.far + a.constant != n2)
        return std::nullopt;
    return a;
}

} // namespace t2n::translate
