// Context: sizes that follow the symbols of a dynamic export (see
// symbolic_sizes.h for how they are derived and checked).
#include "translate/context.h"
#include "translate/lower_util.h"
#include "translate/symbolic_sizes.h"

#include <fmt/format.h>

namespace t2n::translate {

namespace {

std::string symbolList(const ir::Graph& g) {
    std::vector<std::string> names;
    for (const auto& s : g.symbolSizes)
        names.push_back(s.name);
    return names.empty() ? std::string("the dynamic axes")
                         : fmt::format("the dynamic axes ({})", fmt::join(names, ", "));
}

std::string exampleValue(const ir::Value& v) {
    const std::string text = v.constant ? describeConstant(*v.constant) : std::string();
    return text.empty() ? "its example value" : "the example's " + text;
}

} // namespace

void Context::frozenArgument(size_t i) const {
    const ir::Value& v = in(i);
    frozenReads_.push_back({node_->inputs.at(i), node_->id, FrozenRead::Why::NeededFixed});
    unsupported(fmt::format("argument {} (%{}) changes with {}, but {} needs it fixed at export "
                            "time: the archive would hold {} and fail at other sizes",
                            i, v.debugName, symbolList(graph_), node_->kind, exampleValue(v)),
                fmt::format("t2n computes sizes from a symbol for {}; keep this size static, or "
                            "export without that --dynamic-axis",
                            kSymbolicSizeOps));
}

void Context::cannotFollow(size_t i) const {
    const ir::Value& v = in(i);
    frozenReads_.push_back({node_->inputs.at(i), node_->id, FrozenRead::Why::CannotCompute});
    std::string where;
    if (const ir::Node* b = sizes_.blocker())
        where = fmt::format(" at {}", b->where.describe());
    unsupported(fmt::format("argument {} (%{}) depends on {} and t2n cannot compute it in the "
                            "graph: {}{}",
                            i, v.debugName, symbolList(graph_), sizes_.reason(), where),
                "t2n follows size(), int(), +, -, *, // and % from a dynamic axis; keep this size "
                "static, or export without that --dynamic-axis");
}

Expr Context::sizeExpr(const SizePtr& e) {
    switch (e->op) {
    case SizeExpr::Op::Constant:
        return Expr::i(e->value);
    case SizeExpr::Op::Symbol:
        return Expr::id(e->symbol);
    case SizeExpr::Op::Dim:
        return dimExpr(e->tensor, e->value);
    case SizeExpr::Op::Add:
        return Expr::binary("+", sizeExpr(e->lhs), sizeExpr(e->rhs));
    case SizeExpr::Op::Sub:
        return Expr::binary("-", sizeExpr(e->lhs), sizeExpr(e->rhs));
    case SizeExpr::Op::Mul:
        return Expr::binary("*", sizeExpr(e->lhs), sizeExpr(e->rhs));
    case SizeExpr::Op::Div:
        return Expr::binary("/", sizeExpr(e->lhs), sizeExpr(e->rhs));
    }
    return Expr::i(e->value);
}

Expr Context::sizeArg(size_t i) {
    if (!isSymbolic(i))
        return Expr::i(intArg(i));
    SizePtr e = sizes_.scalar(node_->inputs.at(i));
    if (!e)
        cannotFollow(i);
    markRederived(node_->inputs[i]);
    return sizeExpr(e);
}

std::vector<Expr> Context::sizesArg(size_t i) {
    const ir::Value& v = in(i);
    auto constants = [&] {
        std::vector<Expr> out;
        for (int64_t x : intsArg(i))
            out.push_back(Expr::i(x));
        return out;
    };
    if (!isSymbolic(i))
        return constants();
    if (v.kind == ir::ValueKind::Int)
        return {sizeArg(i)};
    auto items = sizes_.list(node_->inputs.at(i));
    if (!items)
        cannotFollow(i);
    markRederived(v.id);
    for (ir::ValueId e : v.elements)
        markRederived(e);
    std::vector<Expr> out;
    for (const auto& e : *items)
        out.push_back(sizeExpr(e));
    return out;
}

// tract wires tract_core_shape_of as a constant of symbolic sizes
// (ops/core/shape_of.rs), and slice and squeeze of it fold at load time, so
// the dimension can stand wherever an integer attribute goes: the chain
// torch_to_nnef writes for a dynamic size() (reference/torch-to-nnef-upstream.md).
Expr Context::dimExpr(ir::ValueId id, int64_t axis) {
    SizePtr e = sizes_.dim(id, axis);
    if (e->op != SizeExpr::Op::Dim)
        return sizeExpr(e);
    auto key = std::make_pair(id, axis);
    if (auto it = dims_.find(key); it != dims_.end())
        return it->second;
    const size_t first = doc_.body.size();
    auto shape = shapes_.find(id);
    if (shape == shapes_.end())
        shape =
            shapes_.emplace(id, emitTemp("tract_core_shape_of", {tensor(id)}, {}, "shape")).first;
    Expr s = emitTemp("slice", {shape->second}, sliceArgs(0, axis, axis + 1),
                      fmt::format("dim{}_slice", axis));
    Expr d = emitTemp("squeeze", {s}, {{"axes", Expr::ints({0})}}, fmt::format("dim{}", axis));
    dims_.emplace(key, d);
    for (size_t i = first; i < doc_.body.size(); ++i)
        sizeStatements_.insert(i);
    return d;
}

Expr Context::sizeTensor(ir::ValueId id, DType dtype) {
    SizePtr e = sizes_.scalar(id);
    if (!e) {
        // Name the argument of the current node that reads it, if any.
        for (size_t i = 0; i < numInputs(); ++i)
            if (node_->inputs[i] == id)
                cannotFollow(i);
        unsupported(fmt::format("%{} depends on {} and t2n cannot compute it in the graph: {}",
                                graph_.value(id).debugName, symbolList(graph_), sizes_.reason()));
    }
    markRederived(id);
    const size_t first = doc_.body.size();
    Expr size = sizeExpr(e);
    Expr out = emitTemp("tract_core_cast", {size},
                        {{"to", Expr::str(std::string(dtypeName(dtype)))}}, "size");
    for (size_t i = first; i < doc_.body.size(); ++i)
        sizeStatements_.insert(i);
    return out;
}

} // namespace t2n::translate
