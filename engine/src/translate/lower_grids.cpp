// Tensors built from lists of vectors: meshgrid, cartesian_prod, block_diag,
// vander; and the bucket searches (searchsorted, bucketize) as counts of
// comparisons. Static sizes: the grids are tiles and pads of known extents.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

namespace t2n::translate {

namespace {

// The elements of a tensor-list argument, which must be built in the graph.
const std::vector<ir::ValueId>& listElements(Context& ctx, size_t i) {
    const ir::Value& l = ctx.in(i);
    if (l.elements.empty())
        ctx.unsupported(ctx.node().kind + " of a tensor list t2n cannot see built");
    for (ir::ValueId id : l.elements)
        for (const auto& s : ctx.graph().value(id).symbols)
            if (!s.empty())
                ctx.unsupported(ctx.node().kind + " of a tensor with a dynamic axis");
    return l.elements;
}

int64_t numel(const ir::Value& v) {
    int64_t n = 1;
    for (int64_t d : v.shape)
        n *= d;
    return n;
}

// Vector `id` (0-d: one element) laid along axis `axis` of a rank-`rank`
// grid of sizes `sizes`: reshaped to unit axes elsewhere, then tiled (as IR
// value `result` when given).
Expr gridAxis(Context& ctx, ir::ValueId id, int64_t axis, const std::vector<int64_t>& sizes,
              DType t, const std::string& tag, std::optional<ir::ValueId> result = {}) {
    const auto rank = static_cast<int64_t>(sizes.size());
    std::vector<int64_t> shape(static_cast<size_t>(rank), 1), repeats = sizes;
    shape[static_cast<size_t>(axis)] = sizes[static_cast<size_t>(axis)];
    repeats[static_cast<size_t>(axis)] = 1;
    Expr e = ctx.operand(id, rankOf(ctx.graph().value(id)), t);
    e = ctx.emitTemp("reshape", {e}, {{"shape", Expr::ints(shape)}}, tag + "_axis");
    Kwargs k{{"repeats", Expr::ints(repeats)}};
    return result ? ctx.emitFor(*result, "tile", {e}, k)
                  : ctx.emitTemp("tile", {e}, k, tag + "_grid");
}

// The grid sizes and, per input, its axis: 'ij' in order; 'xy' swaps the
// first two.
std::vector<int64_t> gridSizes(Context& ctx, const std::vector<ir::ValueId>& items, bool xy,
                               std::vector<int64_t>& axisOf) {
    std::vector<int64_t> sizes;
    for (ir::ValueId id : items) {
        const ir::Value& v = ctx.graph().value(id);
        if (rankOf(v) > 1)
            ctx.unsupported(ctx.node().kind + " of a tensor of rank > 1");
        sizes.push_back(numel(v));
    }
    axisOf.resize(items.size());
    for (size_t i = 0; i < items.size(); ++i)
        axisOf[i] = static_cast<int64_t>(i);
    if (xy && items.size() >= 2) {
        std::swap(sizes[0], sizes[1]);
        std::swap(axisOf[0], axisOf[1]);
    }
    return sizes;
}

bool anyDynamic(Context& ctx, const std::vector<ir::ValueId>& items) {
    for (ir::ValueId id : items)
        for (const auto& s : ctx.graph().value(id).symbols)
            if (!s.empty())
                return true;
    return false;
}

// meshgrid of vectors whose lengths follow dynamic axes (anchor grids of a
// detector from arange(H) and arange(W)): each vector unsqueezed to the
// grid's rank along its axis, then tract_core_broadcast to the symbolic
// grid shape.
void meshgridOfDynamicVectors(Context& ctx, const std::vector<ir::ValueId>& items, bool xy) {
    const ir::Value& out = ctx.out();
    const auto rank = static_cast<int64_t>(items.size());
    std::vector<int64_t> axisOf(items.size());
    std::vector<Expr> shape(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        if (rankOf(ctx.graph().value(items[i])) != 1)
            ctx.unsupported("meshgrid of a dynamic tensor that is not a vector");
        axisOf[i] = static_cast<int64_t>(i);
    }
    if (xy && items.size() >= 2)
        std::swap(axisOf[0], axisOf[1]);
    for (size_t i = 0; i < items.size(); ++i)
        shape[static_cast<size_t>(axisOf[i])] = ctx.dimExpr(items[i], 0);
    std::vector<Expr> grids;
    for (size_t i = 0; i < items.size(); ++i) {
        const ir::Value& y = ctx.graph().value(out.elements[i]);
        std::vector<int64_t> others;
        for (int64_t a = 0; a < rank; ++a)
            if (a != axisOf[i])
                others.push_back(a);
        Expr e = ctx.operand(items[i], 1, y.dtype);
        if (!others.empty())
            e = ctx.emitTemp("unsqueeze", {e}, {{"axes", Expr::ints(others)}},
                             fmt::format("mesh{}_axis", i));
        grids.push_back(ctx.emitFor(out.elements[i], "tract_core_broadcast", {e},
                                    {{"shape", Expr::array(shape)}}));
    }
    ctx.bindOut(Expr::array(std::move(grids)));
}

// meshgrid(tensors, indexing='ij'|'xy'): one grid per input vector.
void lowerMeshgrid(Context& ctx) {
    const ir::Value& out = ctx.out();
    const std::string indexing = ctx.numInputs() > 1 ? ctx.stringArg(1) : "ij";
    if (indexing != "ij" && indexing != "xy")
        ctx.unsupported(fmt::format("meshgrid with indexing '{}'", indexing));
    if (!ctx.in(0).elements.empty() && anyDynamic(ctx, ctx.in(0).elements)) {
        if (out.elements.size() != ctx.in(0).elements.size())
            ctx.unsupported("meshgrid whose results t2n cannot see unpacked");
        meshgridOfDynamicVectors(ctx, ctx.in(0).elements, indexing == "xy");
        return;
    }
    const auto& items = listElements(ctx, 0);
    if (out.elements.size() != items.size())
        ctx.unsupported("meshgrid whose results t2n cannot see unpacked");
    std::vector<int64_t> axisOf;
    const std::vector<int64_t> sizes = gridSizes(ctx, items, indexing == "xy", axisOf);
    std::vector<Expr> grids;
    for (size_t i = 0; i < items.size(); ++i) {
        const ir::Value& y = ctx.graph().value(out.elements[i]);
        grids.push_back(gridAxis(ctx, items[i], axisOf[i], sizes, y.dtype, fmt::format("mesh{}", i),
                                 out.elements[i]));
    }
    ctx.bindOut(Expr::array(std::move(grids)));
}

// cartesian_prod(tensors): the 'ij' grids flattened and stacked as columns.
void lowerCartesianProd(Context& ctx) {
    const auto& items = listElements(ctx, 0);
    const DType t = ctx.out().dtype;
    if (items.size() == 1) {
        ctx.emitOut("copy", {ctx.operand(items[0], rankOf(ctx.graph().value(items[0])), t)});
        return;
    }
    std::vector<int64_t> axisOf;
    const std::vector<int64_t> sizes = gridSizes(ctx, items, false, axisOf);
    std::vector<Expr> columns;
    for (size_t i = 0; i < items.size(); ++i) {
        Expr g = gridAxis(ctx, items[i], axisOf[i], sizes, t, fmt::format("factor{}", i));
        columns.push_back(ctx.emitTemp("reshape", {g}, {{"shape", Expr::ints({-1})}},
                                       fmt::format("column{}", i)));
    }
    ctx.emitOut("stack", {Expr::array(std::move(columns))}, {{"axis", Expr::i(1)}});
}

// block_diag(tensors): each block (0-d as [1, 1], 1-D as a row) padded with
// zeros to the total width at its column offset, the rows concatenated.
void lowerBlockDiag(Context& ctx) {
    const auto& items = listElements(ctx, 0);
    const DType t = ctx.out().dtype;
    const int64_t width = ctx.out().shape.at(1);
    std::vector<Expr> rows;
    int64_t offset = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        const ir::Value& v = ctx.graph().value(items[i]);
        if (rankOf(v) > 2)
            ctx.unsupported("block_diag of a tensor of rank > 2");
        const int64_t h = rankOf(v) == 2 ? v.shape[0] : 1;
        const int64_t w = rankOf(v) == 2 ? v.shape[1] : rankOf(v) == 1 ? v.shape[0] : 1;
        if (h == 0 || w == 0)
            ctx.unsupported("block_diag with an empty block");
        Expr e = ctx.operand(items[i], rankOf(v), t);
        if (rankOf(v) < 2)
            e = ctx.emitTemp("reshape", {e}, {{"shape", Expr::ints({h, w})}},
                             fmt::format("block{}", i));
        Expr padding = Expr::array({Expr::tuple({Expr::i(0), Expr::i(0)}),
                                    Expr::tuple({Expr::i(offset), Expr::i(width - offset - w)})});
        rows.push_back(ctx.emitTemp("pad", {e},
                                    {{"padding", padding},
                                     {"border", Expr::str("constant")},
                                     {"value", Context::scalarLiteral(0.0, t)}},
                                    fmt::format("rows{}", i)));
        offset += w;
    }
    if (rows.size() == 1)
        ctx.emitOut("copy", {rows[0]});
    else
        ctx.emitOut("concat", {Expr::array(std::move(rows))}, {{"axis", Expr::i(0)}});
}

// vander(x, N, increasing): columns 1, x, x x, (x x) x, ... as PyTorch's
// cumulative product computes them, reversed unless increasing.
void lowerVander(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const DType t = ctx.out().dtype;
    if (rankOf(x) != 1 || (!x.symbols.empty() && !x.symbols[0].empty()))
        ctx.unsupported("vander of other than a static vector");
    const int64_t n = x.shape[0];
    const int64_t columns = ctx.numInputs() > 1 && !ctx.isNone(1) ? ctx.intArg(1) : n;
    if (columns <= 0 || n == 0)
        ctx.unsupported("vander with no columns");
    const bool increasing = ctx.numInputs() > 2 && ctx.boolArg(2);
    std::vector<Expr> cols;
    if (t == DType::F32)
        cols.push_back(
            floatTable(ctx, std::vector<float>(static_cast<size_t>(n), 1.0f), {n, 1}, "ones"));
    else if (t == DType::I64)
        cols.push_back(
            indexTable(ctx, std::vector<int64_t>(static_cast<size_t>(n), 1), {n, 1}, "ones"));
    else
        ctx.unsupported(fmt::format("vander of {} values", dtypeName(t)));
    if (columns > 1) {
        Expr column = ctx.emitTemp("unsqueeze", {ctx.operand(ctx.node().inputs[0], 1, t)},
                                   {{"axes", Expr::ints({1})}}, "column");
        cols.push_back(column);
        for (int64_t k = 2; k < columns; ++k)
            cols.push_back(
                ctx.emitTemp("mul", {cols.back(), column}, {}, fmt::format("power{}", k)));
    }
    if (!increasing)
        std::reverse(cols.begin(), cols.end());
    if (cols.size() == 1)
        ctx.emitOut("copy", {cols[0]});
    else
        ctx.emitOut("concat", {Expr::array(std::move(cols))}, {{"axis", Expr::i(1)}});
}

// The index at which each value would be inserted into sorted boundaries:
// the count of boundaries below it (`right`: not above it). Boundaries are
// the last axis of `seq` (1-D for every value, or one row per leading index
// of the values), values any shape.
void emitBucketCount(Context& ctx, size_t valuesArg, size_t seqArg, bool right) {
    const ir::Value& v = ctx.in(valuesArg);
    const ir::Value& s = ctx.in(seqArg);
    if (v.kind != ir::ValueKind::Tensor)
        ctx.unsupported(ctx.node().kind + " of a Python number");
    for (const auto& sym : s.symbols)
        if (!sym.empty())
            ctx.unsupported(ctx.node().kind + " with boundaries of a dynamic size");
    const int64_t r = rankOf(v);
    const DType t = comparisonType(v, s);
    Expr values = ctx.operand(ctx.node().inputs[valuesArg], r, t);
    Expr bounds = ctx.operand(ctx.node().inputs[seqArg], rankOf(s), t);
    if (rankOf(s) == 1) {
        std::vector<int64_t> shape(static_cast<size_t>(r), 1);
        shape.push_back(s.shape[0]);
        bounds = ctx.emitTemp("reshape", {bounds}, {{"shape", Expr::ints(shape)}}, "boundaries");
    } else if (rankOf(s) == r && r > 0) {
        bounds = ctx.emitTemp("unsqueeze", {bounds}, {{"axes", Expr::ints({r - 1})}}, "rows");
    } else {
        ctx.unsupported(ctx.node().kind + " with boundaries of another rank than the values");
    }
    Expr column = ctx.emitTemp("unsqueeze", {values}, {{"axes", Expr::ints({r})}}, "values");
    Expr below = ctx.emitTemp(right ? "le" : "lt", {bounds, column}, {}, "below");
    const DType out = ctx.out().dtype;
    Expr counted = ctx.cast(below, DType::Bool, out, "counted");
    Expr sum = ctx.emitTemp("sum_reduce", {counted}, {{"axes", Expr::ints({r})}}, "count");
    ctx.emitOut("squeeze", {sum}, {{"axes", Expr::ints({r})}});
}

// searchsorted(sorted_sequence, values, out_int32, right, side, sorter)
void lowerSearchsorted(Context& ctx) {
    if (ctx.numInputs() > 5 && !ctx.isNone(5))
        ctx.unsupported("searchsorted with a sorter");
    bool right = ctx.numInputs() > 3 && ctx.boolArg(3);
    if (ctx.numInputs() > 4 && !ctx.isNone(4))
        right = ctx.stringArg(4) == "right";
    emitBucketCount(ctx, 1, 0, right);
}

// bucketize(values, boundaries, out_int32, right)
void lowerBucketize(Context& ctx) {
    if (rankOf(ctx.in(1)) != 1)
        ctx.unsupported("bucketize with boundaries that are not a vector");
    emitBucketCount(ctx, 0, 1, ctx.numInputs() > 3 && ctx.boolArg(3));
}

} // namespace

void registerGridOps(Registry& r) {
    r.beginFamily("shape");
    r.add("aten::meshgrid", lowerMeshgrid,
          "'ij' or 'xy'; vectors that follow dynamic axes: unsqueeze and tract_core_broadcast",
          "+reshape +tile +unsqueeze +tract_core_broadcast");
    r.add("aten::cartesian_prod", lowerCartesianProd, "static vectors: grids stacked",
          "+reshape +tile +stack +copy");
    r.add("aten::block_diag", lowerBlockDiag, "static blocks of rank <= 2: pads and concat",
          "pad +reshape +concat +copy");
    r.add("aten::vander", lowerVander, "a static f32 or i64 vector: products, concat",
          "+unsqueeze +mul +concat +copy");
    r.beginFamily("indexing");
    r.add("aten::searchsorted", lowerSearchsorted,
          "tensor values, no sorter, static boundaries: comparisons counted",
          "+reshape unsqueeze +lt +le sum_reduce squeeze");
    r.add("aten::bucketize", lowerBucketize,
          "tensor values, static vector of boundaries: comparisons counted",
          "reshape unsqueeze +lt +le sum_reduce squeeze");
}

} // namespace t2n::translate
