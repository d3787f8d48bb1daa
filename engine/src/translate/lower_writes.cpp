// Writes into tensors in functional form, as the hardening pass
// remove_view_mutation leaves `y[:, :2] = 0`, `y[:, 1] = v`, `y[mask] = 0` and
// `y[idx] = v`: slice_scatter and select_scatter are the source's parts
// around the written range and the new part, concatenated along the axis;
// index_put is a select on a boolean mask, or a gather over the source and
// the values (concatenated) for constant integer indices. tract's scatter
// operations would serve data-dependent indices, but have no lowering (nor
// reference kernel) yet: such writes are refused.
#include "translate/complex_util.h"
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace t2n::translate {

namespace {

// Input 0 with [begin, end) of `axis` replaced by `part` (already of the
// output's dtype and rank): [before | part | after] along the axis.
void emitReplaced(Context& ctx, int64_t axis, int64_t begin, int64_t end, Expr part) {
    const ir::Value& x = ctx.in(0);
    const int64_t n = x.shape[static_cast<size_t>(axis)];
    if (dynamicAxis(x, axis))
        ctx.unsupported("writing into a range of a dynamic axis",
                        "write along a static axis, or build the tensor with torch.cat");
    Expr whole = ctx.operand(ctx.node().inputs[0], rankOf(x), ctx.out().dtype);
    // A write into an empty tensor (Swin's attention mask filled through an
    // empty window slice) is the tensor itself; a concat of its empty pieces
    // would make tract 0.23.5 divide by zero (stack_tensors).
    if (std::find(x.shape.begin(), x.shape.end(), 0) != x.shape.end()) {
        ctx.bindOut(whole);
        return;
    }
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

} // namespace

// slice_scatter(x, src, dim, start, end, step), PyTorch's clamping. A complex
// x (its trailing 2 not an axis of PyTorch's) too: complex_util.h.
void lowerSliceScatter(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const int64_t axis = ctx.axis(ctx.numInputs() > 2 ? ctx.intArg(2) : 0, r - (x.complex ? 1 : 0));
    const int64_t n = x.shape[static_cast<size_t>(axis)];
    constexpr int64_t kOpenEnd = std::numeric_limits<int64_t>::max();
    int64_t start = ctx.numInputs() > 3 && !ctx.isNone(3) ? ctx.intArg(3) : 0;
    int64_t end = ctx.numInputs() > 4 && !ctx.isNone(4) ? ctx.intArg(4) : kOpenEnd;
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
    // The whole axis written (x[:, :2] = v leaves slice_scatter over axis 0
    // from 0 to PyTorch's open end): src, of x's shape, at any length.
    const bool openEnd = ctx.numInputs() <= 4 || ctx.isNone(4) || end == kOpenEnd;
    if (b == 0 && (dynamicAxis(x, axis) ? openEnd : e == n) && ctx.in(1).shape == x.shape &&
        ctx.in(1).symbols == x.symbols) {
        ctx.bindOut(ctx.operand(ctx.node().inputs[1], r, ctx.out().dtype));
        return;
    }
    emitReplaced(ctx, axis, b, e, ctx.operand(ctx.node().inputs[1], r, ctx.out().dtype));
}

namespace {

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

// `v` broadcast to the shape of input 0: select(x == x, v, v) has x's shape
// and holds v everywhere (NaN in x included), in standard operations and
// whatever the axes (dynamic ones too).
void emitBroadcastLike(Context& ctx, Expr v) {
    Expr x = ctx.input(0);
    Expr shapeOf = ctx.emitTemp("eq", {x, x}, {}, "shape_mask");
    ctx.emitOut("select", {shapeOf, v, v});
}

// zero(x) / zero_(x): zeros of x's shape and dtype.
void lowerZero(Context& ctx) {
    emitBroadcastLike(ctx, Context::scalarLiteral(0.0, ctx.out().dtype));
}

// fill(x, value): value a number or a 0-d tensor.
void lowerFill(Context& ctx) {
    const DType t = ctx.out().dtype;
    if (ctx.in(1).kind == ir::ValueKind::Tensor)
        emitBroadcastLike(ctx, ctx.operand(ctx.node().inputs[1], rankOf(ctx.out()), t));
    else
        emitBroadcastLike(ctx, Context::scalarLiteral(ctx.floatArg(1), t));
}

// copy(x, src, non_blocking) / copy_: src converted to x's dtype and
// broadcast to its shape.
void lowerCopy(Context& ctx) {
    Expr src = ctx.operand(ctx.node().inputs[1], rankOf(ctx.out()), ctx.out().dtype);
    if (ctx.in(1).shape == ctx.out().shape && ctx.in(1).symbols == ctx.out().symbols)
        ctx.bindOut(src);
    else
        emitBroadcastLike(ctx, src);
}

} // namespace

void registerWriteOps(Registry& r) {
    r.beginFamily("writes");
    r.add("aten::slice_scatter", lowerSliceScatter, "step 1, static axis: slices and concat",
          "slice concat");
    r.add("aten::select_scatter", lowerSelectScatter, "static axis: slices and concat",
          "slice concat");
    r.add("aten::zero", lowerZero, "x's shape (dynamic axes too)", "eq select");
    r.add("aten::fill", lowerFill, "number or 0-d tensor value", "eq select");
    r.add("aten::copy", lowerCopy, "source converted and broadcast to the target", "+eq +select");
}

} // namespace t2n::translate
