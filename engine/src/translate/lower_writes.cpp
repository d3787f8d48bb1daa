// Writes into tensors in functional form, as the hardening pass
// remove_view_mutation leaves `y[:, :2] = 0`, `y[:, 1] = v`, `y[mask] = 0` and
// `y[idx] = v`: slice_scatter and select_scatter are the source's parts
// around the written range and the new part, concatenated along the axis;
// index_put is a select on a boolean mask, or a gather over the source and
// the values (concatenated) for constant integer indices. tract's scatter
// operations would serve data-dependent indices, but have no lowering (nor
// reference kernel) yet: such writes are refused.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace t2n::translate {

namespace {

bool dynamicAxis(const ir::Value& v, int64_t axis) {
    return !v.symbols.empty() && !v.symbols[static_cast<size_t>(axis)].empty();
}

// Input 0 with [begin, end) of `axis` replaced by `part` (already of the
// output's dtype and rank): [before | part | after] along the axis.
void emitReplaced(Context& ctx, int64_t axis, int64_t begin, int64_t end, Expr part) {
    const ir::Value& x = ctx.in(0);
    const int64_t n = x.shape[static_cast<size_t>(axis)];
    if (dynamicAxis(x, axis))
        ctx.unsupported("writing into a range of a dynamic axis",
                        "write along a static axis, or build the tensor with torch.cat");
    Expr whole = ctx.operand(ctx.node().inputs[0], rankOf(x), ctx.out().dtype);
    std::vector<Expr> parts;
    if (begin > 0)
        parts.push_back(ctx.emitTemp("slice", {whole}, sliceArgs(axis, 0, begin), "before"));
    parts.push_back(std::move(part));
    if (end < n)
        parts.push_back(ctx.emitTemp("slice", {whole}, sliceArgs(axis, end, n), "after"));
    if (parts.size() == 1) {
        ctx.emitOut("copy", {parts[0]});
        return;
    }
    ctx.emitOut("concat", {Expr::array(parts)}, {{"axis", Expr::i(axis)}});
}

// slice_scatter(x, src, dim, start, end, step), PyTorch's clamping.
void lowerSliceScatter(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const int64_t axis = ctx.axis(ctx.numInputs() > 2 ? ctx.intArg(2) : 0, r);
    const int64_t n = x.shape[static_cast<size_t>(axis)];
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    int64_t start = ctx.numInputs() > 3 && !ctx.isNone(3) ? ctx.intArg(3) : 0;
    int64_t end = ctx.numInputs() > 4 && !ctx.isNone(4) ? ctx.intArg(4) : kMax;
    int64_t step = ctx.numInputs() > 5 ? ctx.intArg(5) : 1;
    if (step != 1)
        ctx.unsupported(fmt::format("writing into a slice with step {}", step),
                        "write into a contiguous range, or build the tensor with torch.stack");
    auto clamp = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
    int64_t b = clamp(start), e = end >= n ? n : clamp(end);
    e = std::max(b, e);
    if (b == e) {
        ctx.bindOut(ctx.operand(ctx.node().inputs[0], r, ctx.out().dtype));
        return;
    }
    emitReplaced(ctx, axis, b, e, ctx.operand(ctx.node().inputs[1], r, ctx.out().dtype));
}

// select_scatter(x, src, dim, index): src gains the axis back.
void lowerSelectScatter(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const int64_t axis = ctx.axis(ctx.intArg(2), r);
    const int64_t n = x.shape[static_cast<size_t>(axis)];
    int64_t i = ctx.intArg(3) < 0 ? ctx.intArg(3) + n : ctx.intArg(3);
    if (i < 0 || i >= n)
        ctx.unsupported(fmt::format("index {} out of range for size {}", ctx.intArg(3), n));
    Expr src = ctx.operand(ctx.node().inputs[1], r - 1, ctx.out().dtype);
    Expr part = ctx.emitTemp("unsqueeze", {src}, {{"axes", Expr::ints({axis})}}, "part");
    emitReplaced(ctx, axis, i, i + 1, part);
}

// `values` broadcast to `shape` (PyTorch's leading-axis rule), as a tile.
Expr broadcastTo(Context& ctx, ir::ValueId values, const std::vector<int64_t>& shape) {
    const ir::Value& v = ctx.graph().value(values);
    const auto r = static_cast<int64_t>(shape.size());
    Expr e = rankedOperand(ctx, values, r, ctx.out().dtype);
    std::vector<int64_t> repeats;
    bool any = false;
    for (int64_t d = 0; d < r; ++d) {
        int64_t off = d - (r - rankOf(v));
        int64_t have = off < 0 ? 1 : v.shape[static_cast<size_t>(off)];
        repeats.push_back(have == shape[static_cast<size_t>(d)] ? 1
                                                                : shape[static_cast<size_t>(d)]);
        any = any || repeats.back() != 1;
    }
    return any ? ctx.emitTemp("tile", {e}, {{"repeats", Expr::ints(repeats)}}, "values") : e;
}

// index_put(x, [None, ..., mask]) = v: a select where the mask is set.
void emitMaskedPut(Context& ctx, int64_t axis, ir::ValueId mask) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& m = ctx.graph().value(mask);
    const ir::Value& v = ctx.in(2);
    const int64_t r = rankOf(x);
    int64_t numel = 1;
    for (int64_t s : v.shape)
        numel *= s;
    if (numel != 1)
        ctx.unsupported("assigning several values through a boolean mask (where they go depends "
                        "on the mask's values)",
                        "assign one value, or use torch.where(mask, values, x)");
    std::vector<int64_t> unitAxes;
    for (int64_t d = 0; d < r; ++d)
        if (d < axis || d >= axis + rankOf(m))
            unitAxes.push_back(d);
    Expr cond = ctx.tensor(mask);
    if (!unitAxes.empty())
        cond = ctx.emitTemp("unsqueeze", {cond}, {{"axes", Expr::ints(unitAxes)}}, "mask");
    Expr whole = ctx.operand(ctx.node().inputs[0], r, ctx.out().dtype);
    ctx.emitOut("select", {cond, ctx.operand(ctx.node().inputs[2], r, ctx.out().dtype), whole});
}

// index_put(x, [None, ..., idx]) = v with constant indices: row j of the
// result is row j of x, or the row of v last written to j.
void emitIndexedPut(Context& ctx, int64_t axis, ir::ValueId index) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& idx = ctx.graph().value(index);
    const auto* data = idx.constant ? std::get_if<TensorData>(&*idx.constant) : nullptr;
    if (!data || idx.dataDependent)
        ctx.unsupported("index_put with indices the model computes (a scatter)",
                        "index with constant indices, or build the tensor with torch.cat");
    if (data->rank() != 1)
        ctx.unsupported(fmt::format("index_put with a rank-{} index tensor", data->rank()));
    if (dynamicAxis(x, axis))
        ctx.unsupported("index_put along a dynamic axis");
    const int64_t n = x.shape[static_cast<size_t>(axis)];
    const int64_t k = data->numel();
    std::vector<int64_t> rows(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j)
        rows[static_cast<size_t>(j)] = j;
    for (int64_t p = 0; p < k; ++p) {
        int64_t j = data->asInt(p) < 0 ? data->asInt(p) + n : data->asInt(p);
        if (j < 0 || j >= n)
            ctx.unsupported(fmt::format("index {} out of range for size {}", data->asInt(p), n));
        rows[static_cast<size_t>(j)] = n + p;
    }
    std::vector<int64_t> region = x.shape;
    region[static_cast<size_t>(axis)] = k;
    Expr values = broadcastTo(ctx, ctx.node().inputs[2], region);
    Expr whole = ctx.operand(ctx.node().inputs[0], rankOf(x), ctx.out().dtype);
    Expr both = ctx.emitTemp("concat", {Expr::array({whole, values})}, {{"axis", Expr::i(axis)}},
                             "with_values");
    ctx.emitOut("tract_core_gather", {both, indexTable(ctx, rows, {n}, "rows")},
                {{"axis", Expr::i(axis)}});
}

// index_put(x, indices, values, accumulate): one index tensor, after axes
// taken whole (None).
void lowerIndexPut(Context& ctx) {
    if (ctx.numInputs() > 3 && ctx.boolArg(3))
        ctx.unsupported("index_put with accumulate=True (index_add)");
    const auto& elems = ctx.graph().value(ctx.node().inputs[1]).elements;
    int64_t axis = -1;
    for (size_t i = 0; i < elems.size(); ++i) {
        if (ctx.graph().value(elems[i]).kind == ir::ValueKind::None)
            continue;
        if (axis >= 0)
            ctx.unsupported("index_put with several index tensors");
        axis = static_cast<int64_t>(i);
    }
    if (axis < 0)
        ctx.unsupported("index_put without an index tensor");
    ir::ValueId index = elems[static_cast<size_t>(axis)];
    if (ctx.graph().value(index).dtype == DType::Bool)
        emitMaskedPut(ctx, axis, index);
    else
        emitIndexedPut(ctx, axis, index);
}

} // namespace

void registerWriteOps(Registry& r) {
    r.beginFamily("writes");
    r.add("aten::slice_scatter", lowerSliceScatter, "step 1, static axis: slices and concat");
    r.add("aten::select_scatter", lowerSelectScatter, "static axis: slices and concat");
    r.add("aten::index_put", lowerIndexPut,
          "one index tensor: a boolean mask with one value (select), or constant indices "
          "(gather); no accumulate");
}

} // namespace t2n::translate
