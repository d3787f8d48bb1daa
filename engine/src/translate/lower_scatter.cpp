// Writing into tensors: scatter, scatter_add, scatter_reduce, index_add,
// index_copy, index_fill and one_hot, on tract's tract_core_scatter_elements
// (whose `reduction` parameter, tract 0.23.0 and newer, gives the
// accumulating forms) and tract_core_one_hot. index_put is advanced indexing
// (lower_advanced_index.cpp).
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>

namespace t2n::translate {

namespace {

constexpr const char* kReductionGate = "tract_core_scatter_elements:reduction";

// Input i in the output's dtype, its own rank kept.
Expr asOut(Context& ctx, size_t i) {
    const ir::Value& v = ctx.in(i);
    return ctx.operand(ctx.node().inputs.at(i), rankOf(v), ctx.out().dtype);
}

// A tensor shaped like input `like` holding `value` (the output's dtype);
// its sizes follow the symbols (a tensor sized at run time).
Expr filled(Context& ctx, double value, size_t like, const std::string& suffix) {
    const ir::ValueId id = ctx.node().inputs.at(like);
    std::vector<Expr> shape;
    for (int64_t d = 0; d < rankOf(ctx.in(like)); ++d)
        shape.push_back(ctx.dimExpr(id, d));
    return ctx.emitTemp("tract_core_broadcast",
                        {unitTensorLiteral(Context::scalarLiteral(value, ctx.out().dtype),
                                           static_cast<int64_t>(shape.size()))},
                        {{"shape", Expr::array(std::move(shape))}}, suffix);
}

// Input i as the updates of a scatter shaped like `shape`: a tensor (sliced
// down to `shape` when larger, as PyTorch reads only that corner of src), or
// a number broadcast to `shape`.
Expr updatesOf(Context& ctx, size_t i, const std::vector<int64_t>& shape) {
    const ir::Value& v = ctx.in(i);
    if (v.kind != ir::ValueKind::Tensor || v.shape.empty())
        return ctx.emitTemp("tract_core_broadcast",
                            {ctx.operand(ctx.node().inputs.at(i), 0, ctx.out().dtype)},
                            {{"shape", Expr::ints(shape)}}, "updates");
    Expr e = asOut(ctx, i);
    if (v.shape == shape)
        return e;
    std::vector<int64_t> axes, begin, end;
    for (size_t a = 0; a < shape.size(); ++a)
        if (v.shape[a] != shape[a]) {
            axes.push_back(static_cast<int64_t>(a));
            begin.push_back(0);
            end.push_back(shape[a]);
        }
    return ctx.emitTemp(
        "slice", {e},
        {{"axes", Expr::ints(axes)}, {"begin", Expr::ints(begin)}, {"end", Expr::ints(end)}},
        "updates");
}

Kwargs scatterArgs(int64_t axis, const std::string& reduction) {
    Kwargs k{{"axis", Expr::i(axis)}};
    if (reduction != "none")
        k.emplace_back("reduction", Expr::str(reduction));
    return k;
}

// PyTorch's reduce names (scatter's 'add' / 'multiply', scatter_reduce's
// 'sum' / 'prod' / 'amax' / 'amin') as tract reductions.
std::string tractReduction(Context& ctx, const std::string& reduce) {
    if (reduce == "add" || reduce == "sum")
        return "add";
    if (reduce == "multiply" || reduce == "prod")
        return "mul";
    if (reduce == "amax")
        return "max";
    if (reduce == "amin")
        return "min";
    ctx.unsupported(fmt::format("scatter reduction '{}'", reduce));
}

// scatter(self, dim, index, src | value [, reduce])
void lowerScatter(Context& ctx) {
    const int64_t axis = ctx.axis(ctx.intArg(1), rankOf(ctx.in(0)));
    const auto& shape = ctx.in(2).shape;
    std::string reduction = "none";
    if (ctx.numInputs() > 4 && !ctx.isNone(4)) {
        reduction = tractReduction(ctx, ctx.stringArg(4));
        requireTract(ctx, kReductionGate, "scatter with reduce='" + ctx.stringArg(4) + "'");
    }
    ctx.emitOut("tract_core_scatter_elements",
                {asOut(ctx, 0), ctx.input(2), updatesOf(ctx, 3, shape)},
                scatterArgs(axis, reduction));
}

// scatter_add(self, dim, index, src)
void lowerScatterAdd(Context& ctx) {
    requireTract(ctx, kReductionGate, "scatter_add");
    const int64_t axis = ctx.axis(ctx.intArg(1), rankOf(ctx.in(0)));
    ctx.emitOut("tract_core_scatter_elements",
                {asOut(ctx, 0), ctx.input(2), updatesOf(ctx, 3, ctx.in(2).shape)},
                scatterArgs(axis, "add"));
}

// scatter_reduce(self, dim, index, src, reduce, include_self): when
// include_self is false, the positions the index hits start from the
// neutral element of sum and prod, or from one of their own src values for
// amax and amin (no infinity needed); 'mean' divides the sum by the number
// of contributions (plus one for self), positions no index hits keeping self.
void lowerScatterReduce(Context& ctx) {
    const std::string reduce = ctx.stringArg(4);
    const bool includeSelf = ctx.numInputs() <= 5 || ctx.isNone(5) || ctx.boolArg(5);
    requireTract(ctx, kReductionGate, "scatter_reduce");
    const int64_t axis = ctx.axis(ctx.intArg(1), rankOf(ctx.in(0)));
    const auto& idxShape = ctx.in(2).shape;
    const DType t = ctx.out().dtype;
    const bool mean = reduce == "mean";
    if (mean && !isFloat(t))
        ctx.unsupported("scatter_reduce 'mean' of an integer tensor (PyTorch floors the mean)");
    const std::string reduction = mean ? "add" : tractReduction(ctx, reduce);
    Expr index = ctx.input(2);
    Expr base = asOut(ctx, 0);
    Expr src = updatesOf(ctx, 3, idxShape);
    if (!includeSelf) {
        const bool extremum = reduction == "max" || reduction == "min";
        Expr start = extremum ? src : filled(ctx, reduction == "mul" ? 1.0 : 0.0, 2, "neutral");
        base = ctx.emitTemp("tract_core_scatter_elements", {base, index, start},
                            scatterArgs(axis, "none"), "cleared");
    }
    if (!mean) {
        ctx.emitOut("tract_core_scatter_elements", {base, index, src},
                    scatterArgs(axis, reduction));
        return;
    }
    Expr sum = ctx.emitTemp("tract_core_scatter_elements", {base, index, src},
                            scatterArgs(axis, "add"), "sum");
    Expr count = ctx.emitTemp(
        "tract_core_scatter_elements",
        {filled(ctx, includeSelf ? 1.0 : 0.0, 0, "count_init"), index, filled(ctx, 1.0, 2, "ones")},
        scatterArgs(axis, "add"), "count");
    Expr atLeastOne = ctx.emitTemp("max", {count, Context::scalarLiteral(1.0, t)}, {}, "divisor");
    ctx.emitOut("div", {sum, atLeastOne});
}

// An index along `axis` of a tensor shaped like `shape`, spread to every
// element (what scatter_elements reads): index[i] at position i of that axis.
Expr spreadIndex(Context& ctx, size_t input, int64_t axis, const std::vector<int64_t>& shape) {
    const ir::Value& idx = ctx.in(input);
    std::vector<int64_t> column(shape.size(), 1);
    column[static_cast<size_t>(axis)] = shape[static_cast<size_t>(axis)];
    if (idx.constant)
        if (auto* t = std::get_if<TensorData>(&*idx.constant)) {
            const int64_t n = t->numel();
            std::vector<int64_t> values;
            int64_t inner = 1;
            for (size_t a = static_cast<size_t>(axis) + 1; a < shape.size(); ++a)
                inner *= shape[a];
            int64_t total = 1;
            for (int64_t d : shape)
                total *= d;
            values.reserve(static_cast<size_t>(total));
            for (int64_t k = 0; k < total; ++k)
                values.push_back(static_cast<int64_t>(t->asDouble((k / inner) % n)));
            return indexTable(ctx, values, shape, "spread_index");
        }
    Expr r = ctx.emitTemp("reshape", {ctx.operand(ctx.node().inputs.at(input), 1, DType::I64)},
                          {{"shape", Expr::ints(column)}}, "index_column");
    return ctx.emitTemp("tract_core_broadcast", {r}, {{"shape", Expr::ints(shape)}},
                        "spread_index");
}

// index_add(self, dim, index, source, alpha), index_copy(self, dim, index,
// source), index_fill(self, dim, index, value): index selects slices along
// dim, which source (or value) replaces or adds to.
template <int Mode> // 0 add, 1 copy, 2 fill
void lowerIndexWrite(Context& ctx) {
    const int64_t axis = ctx.axis(ctx.intArg(1), rankOf(ctx.in(0)));
    std::vector<int64_t> shape = ctx.in(0).shape;
    shape[static_cast<size_t>(axis)] = ctx.in(2).shape.empty() ? 1 : ctx.in(2).shape[0];
    Expr updates;
    if (Mode == 2) {
        updates = updatesOf(ctx, 3, shape);
    } else {
        updates = asOut(ctx, 3);
        const double alpha = Mode == 0 && ctx.numInputs() > 4 ? ctx.floatArg(4) : 1.0;
        if (alpha != 1.0)
            updates = ctx.emitTemp("mul", {updates, Context::scalarLiteral(alpha, ctx.out().dtype)},
                                   {}, "scaled");
    }
    if (Mode == 0)
        requireTract(ctx, kReductionGate, "index_add");
    ctx.emitOut("tract_core_scatter_elements",
                {asOut(ctx, 0), spreadIndex(ctx, 2, axis, shape), updates},
                scatterArgs(axis, Mode == 0 ? "add" : "none"));
}

// one_hot(x, num_classes): tract_core_one_hot on a new last axis, in f32
// (tract's value_off / value_on are scalars), cast to int64.
void lowerOneHot(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const int64_t classes = ctx.out().shape.back();
    Kwargs k{{"axis", Expr::i(r)},
             {"dim", Expr::i(classes)},
             {"value_off", Expr::f(0.0)},
             {"value_on", Expr::f(1.0)}};
    if (ctx.out().dtype == DType::F32) {
        ctx.emitOut("tract_core_one_hot", {ctx.input(0)}, k);
        return;
    }
    Expr h = ctx.emitTemp("tract_core_one_hot", {ctx.input(0)}, k, "one_hot");
    ctx.emitOut("tract_core_cast", {h},
                {{"to", Expr::str(std::string(dtypeName(ctx.out().dtype)))}});
}

} // namespace

void registerScatterOps(Registry& r) {
    r.beginFamily("indexing");
    r.add("aten::scatter", lowerScatter,
          "tract_core_scatter_elements; reduce='add'/'multiply' needs tract >= 0.23.0",
          "tract_core_scatter_elements +tract_core_broadcast +slice +" +
              std::string(kReductionGate));
    r.add("aten::scatter_add", lowerScatterAdd,
          "tract_core_scatter_elements with reduction 'add' (tract >= 0.23.0)",
          "tract_core_scatter_elements +tract_core_broadcast +slice " +
              std::string(kReductionGate));
    r.add("aten::scatter_reduce", lowerScatterReduce,
          "sum, prod, amax, amin, mean (floats); include_self or not (tract >= 0.23.0)",
          "tract_core_scatter_elements +tract_core_broadcast +slice +max +div " +
              std::string(kReductionGate));
    r.add("aten::index_add", lowerIndexWrite<0>,
          "tract_core_scatter_elements with reduction 'add' (tract >= 0.23.0)",
          "tract_core_scatter_elements +tract_core_broadcast +reshape +mul " +
              std::string(kReductionGate));
    r.add("aten::index_copy", lowerIndexWrite<1>, "tract_core_scatter_elements",
          "tract_core_scatter_elements +tract_core_broadcast +reshape");
    r.add("aten::index_fill", lowerIndexWrite<2>, "tract_core_scatter_elements",
          "tract_core_scatter_elements tract_core_broadcast +reshape +slice");
    r.add("aten::one_hot", lowerOneHot, "tract_core_one_hot; static number of classes",
          "tract_core_one_hot");
}

} // namespace t2n::translate
