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
    unsupported(
        fmt::format("argument {} (%{}) depends on {} and t2n cannot compute it in the "
                    "graph: {}{}",
                    i, v.debugName, symbolList(graph_), sizes_.reason(), where),
        "t2n follows size(), int(), +, -, *, //, %, min, max and clamp from a dynamic axis; "
        "keep this size static, or export without that --dynamic-axis");
}

std::optional<AxisAffine> Context::axisAffine(ir::ValueId id, int64_t axis) {
    const auto a = static_cast<size_t>(axis);
    for (int steps = 0; steps < 100000 && id >= 0; ++steps) {
        if (auto p = pinned_.find({id, axis}); p != pinned_.end())
            return p->second;
        const ir::Value& v = graph_.value(id);
        if (a >= v.symbols.size() || v.symbols[a].empty())
            return std::nullopt;
        if (v.symbols[a] != "?") {
            const ScaledSymbols::Scaled* sc = scaled_.find(v.symbols[a]);
            if (!sc)
                return std::nullopt;
            return AxisAffine{sc->name, sc->multiple, 0};
        }
        // An axis its producer keeps from its first input (an activation, a
        // normalization, a residual add): that input's axis.
        if (v.producer < 0)
            return std::nullopt;
        const ir::Node& n = graph_.node(v.producer);
        if (n.inputs.empty())
            return std::nullopt;
        const ir::Value& x = graph_.value(n.inputs[0]);
        const bool kept = x.shape.size() == v.shape.size() && a < x.probeShape.size() &&
                          a < x.farShape.size() && a < v.probeShape.size() &&
                          a < v.farShape.size() && x.shape[a] == v.shape[a] &&
                          x.probeShape[a] == v.probeShape[a] && x.farShape[a] == v.farShape[a];
        if (!kept)
            return std::nullopt;
        id = x.id;
    }
    return std::nullopt;
}

std::optional<AxisAffine> Context::affineOf(const SizePtr& e) {
    if (scaled_.empty())
        return std::nullopt;
    switch (e->op) {
    case SizeExpr::Op::Constant:
        return AxisAffine{"", 0, e->value};
    case SizeExpr::Op::Symbol: {
        const ScaledSymbols::Scaled* sc = scaled_.find(e->symbol);
        if (!sc)
            return std::nullopt;
        return AxisAffine{sc->name, sc->multiple, 0};
    }
    case SizeExpr::Op::Dim:
        return axisAffine(e->tensor, e->value);
    default:
        break;
    }
    auto a = affineOf(e->lhs);
    auto b = a ? affineOf(e->rhs) : std::nullopt;
    if (!a || !b)
        return std::nullopt;
    const std::string sym = a->coef != 0 ? a->symbol : b->symbol;
    switch (e->op) {
    case SizeExpr::Op::Add:
    case SizeExpr::Op::Sub: {
        if (a->coef != 0 && b->coef != 0 && a->symbol != b->symbol)
            return std::nullopt;
        const int64_t sign = e->op == SizeExpr::Op::Add ? 1 : -1;
        return AxisAffine{sym, a->coef + sign * b->coef, a->constant + sign * b->constant};
    }
    case SizeExpr::Op::Mul:
        if (a->coef != 0 && b->coef != 0)
            return std::nullopt;
        return AxisAffine{sym, a->coef * b->constant + b->coef * a->constant,
                          a->constant * b->constant};
    case SizeExpr::Op::Div: {
        // (c * S + k) / d = (c / d) * S + floor(k / d) when d divides c and
        // the numerator is never negative (S >= 1): truncation is floor then.
        const int64_t d = b->constant;
        if (b->coef != 0 || d <= 0 || a->coef < 0 || a->coef % d != 0 || a->coef + a->constant < 0)
            return std::nullopt;
        return AxisAffine{sym, a->coef / d, floorDivide(a->constant, d)};
    }
    default:
        return std::nullopt;
    }
}

int Context::pinStridedAxes() {
    if (scaled_.empty() || node_->inputs.empty() || node_->outputs.empty())
        return 0;
    const std::string& kind = node_->kind;
    const bool strided =
        (kind.find("conv") != std::string::npos && kind.find("transpose") == std::string::npos) ||
        (kind.find("pool") != std::string::npos && kind.find("adaptive") == std::string::npos);
    if (!strided)
        return 0;
    const ir::ValueId id = node_->outputs[0];
    const ir::Value& v = graph_.value(id);
    if (!isBound(id) || outputNameOf(id))
        return 0;
    std::vector<int64_t> axes, begins;
    std::vector<Expr> ends;
    for (size_t a = 2; a < v.symbols.size(); ++a) {
        if (v.symbols[a] != "?")
            continue;
        auto in = axisAffine(node_->inputs[0], static_cast<int64_t>(a));
        if (!in || in->coef <= 0)
            continue;
        const ScaledSymbols::Scaled* sc = nullptr;
        for (const auto& [_, s] : scaled_.all())
            if (s.name == in->symbol)
                sc = &s;
        auto out = sc ? ScaledSymbols::fit(v, a, *sc) : std::nullopt;
        // A whole stride: the output's multiple of S divides the input's.
        if (!out || out->coef <= 0 || out->coef >= in->coef || in->coef % out->coef != 0)
            continue;
        pinned_[{id, static_cast<int64_t>(a)}] = *out;
        ++pinnedBySymbol_[out->symbol];
        axes.push_back(static_cast<int64_t>(a));
        begins.push_back(0);
        ends.push_back(affineExpr(*out));
    }
    if (axes.empty())
        return 0;
    const size_t first = doc_.body.size();
    Expr pinned = emitTemp("slice", {tensor(id)},
                           {{"axes", Expr::ints(axes)},
                            {"begin", Expr::ints(begins)},
                            {"end", Expr::array(std::move(ends))}},
                           "pinned");
    for (size_t i = first; i < doc_.body.size(); ++i)
        sizeStatements_.insert(i);
    bound_[id] = std::move(pinned);
    return static_cast<int>(axes.size());
}

Expr Context::sizeExpr(const SizePtr& e, bool numbers) {
    if (auto a = affineOf(e))
        return affineExpr(*a);
    switch (e->op) {
    case SizeExpr::Op::Constant:
        return Expr::i(e->value);
    case SizeExpr::Op::Symbol:
        if (const ScaledSymbols::Scaled* sc = scaled_.find(e->symbol))
            return affineExpr({sc->name, sc->multiple, 0});
        return Expr::id(e->symbol);
    case SizeExpr::Op::Dim:
        return dimExpr(e->tensor, e->value);
    case SizeExpr::Op::Add:
        return Expr::binary("+", sizeExpr(e->lhs, numbers), sizeExpr(e->rhs, numbers));
    case SizeExpr::Op::Sub:
        return Expr::binary("-", sizeExpr(e->lhs, numbers), sizeExpr(e->rhs, numbers));
    case SizeExpr::Op::Mul:
        return Expr::binary("*", sizeExpr(e->lhs, numbers), sizeExpr(e->rhs, numbers));
    case SizeExpr::Op::Div:
        return Expr::binary("/", sizeExpr(e->lhs, numbers), sizeExpr(e->rhs, numbers));
    case SizeExpr::Op::Min:
    case SizeExpr::Op::Max: {
        // NNEF has no min in an expression: a statement, like a dimension,
        // whose result tract holds as a TDim (min(S, 4) stays symbolic:
        // reshape needs its shape constant). tract 0.23.5 folds a comparison
        // of ranges whose bounds hold such a TDim min to a wrong constant
        // (the sliding-window mask of the modern suite's sliding_window_step
        // came out all true): for a range bound (`numbers`) it is cast to
        // i64, a number of the running graph.
        if (auto it = extrema_.find({e, numbers}); it != extrema_.end())
            return it->second;
        const size_t first = doc_.body.size();
        const bool isMin = e->op == SizeExpr::Op::Min;
        Expr a = sizeExpr(e->lhs, numbers), b = sizeExpr(e->rhs, numbers);
        Expr m = emitTemp(isMin ? "min" : "max", {a, b}, {}, isMin ? "size_min" : "size_max");
        if (numbers)
            m = emitTemp("tract_core_cast", {m}, {{"to", Expr::str("i64")}},
                         isMin ? "size_min_i64" : "size_max_i64");
        for (size_t i = first; i < doc_.body.size(); ++i)
            sizeStatements_.insert(i);
        extrema_.emplace(std::make_pair(e, numbers), m);
        return m;
    }
    }
    return Expr::i(e->value);
}

Expr Context::sizeArg(size_t i, bool numbers) {
    if (!isSymbolic(i))
        return Expr::i(intArg(i));
    SizePtr e = sizes_.scalar(node_->inputs.at(i));
    if (!e)
        cannotFollow(i);
    markRederived(node_->inputs[i]);
    return sizeExpr(e, numbers);
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
    if (auto a = axisAffine(id, axis))
        return affineExpr(*a);
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
