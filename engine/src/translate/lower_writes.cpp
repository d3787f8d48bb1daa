// Writes into tensors in functional form, as the hardening pass
// remove_view_mutation leaves `y[:, :2] = 0`, `y[:, 1] = v`, `y[mask] = 0` and
// `y[idx] = v`: slice_scatter and select_scatter are the source's parts
// around the written range and the new part, concatenated along the axis;
// along a dynamic axis the bounds are size expressions, and a uniform source
// a select on a range mask; index_put is a select on a boolean mask, or a gather over the source
// and the values (concatenated) for constant integer indices. tract's scatter operations would
// serve data-dependent indices, but have no lowering (nor reference kernel) yet: such writes are
// refused.
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

// The one value every element of `id` holds, when the graph says so: a
// number filled or broadcast (x[a:b] = 3 leaves fill or expand_as of a
// one-element constant), or a constant whose elements are all equal.
std::optional<Expr> uniformValue(Context& ctx, ir::ValueId id, DType dtype) {
    const ir::Graph& g = ctx.graph();
    for (int hops = 0; hops < 8; ++hops) {
        const ir::Value& v = g.value(id);
        if (const auto* t = v.constant ? std::get_if<TensorData>(&*v.constant) : nullptr) {
            if (t->numel() < 1)
                return std::nullopt;
            for (int64_t i = 1; i < t->numel(); ++i)
                if (t->asDouble(i) != t->asDouble(0))
                    return std::nullopt;
            return Context::scalarLiteral(t->asDouble(0), dtype);
        }
        if (v.producer < 0)
            return std::nullopt;
        const ir::Node& n = g.node(v.producer);
        if (n.kind == "aten::fill" || n.kind == "aten::fill_") {
            const ir::Value& f = g.value(n.inputs.at(1));
            if (f.kind == ir::ValueKind::Tensor) {
                id = n.inputs[1];
                continue;
            }
            const auto* c = f.constant ? std::get_if<double>(&*f.constant) : nullptr;
            const auto* i = f.constant ? std::get_if<int64_t>(&*f.constant) : nullptr;
            if (!c && !i)
                return std::nullopt;
            return Context::scalarLiteral(c ? *c : static_cast<double>(*i), dtype);
        }
        if (n.kind == "aten::expand" || n.kind == "aten::expand_as" ||
            n.kind == "aten::broadcast_to" || n.kind == "aten::clone" ||
            n.kind == "aten::contiguous") {
            id = n.inputs.at(0);
            continue;
        }
        return std::nullopt;
    }
    return std::nullopt;
}

// Whether position i of a range of `n` lies in [begin, end): two i64 ranges
// compared (tract compares numbers, not its TDim literals, with i64).
Expr rangeMask(Context& ctx, const Expr& n, const Expr& begin, const Expr& end) {
    const Kwargs toI64{{"to", Expr::str("i64")}};
    auto numbers = [&](Expr from, Expr to, const std::string& hint) {
        Expr r = ctx.emitTemp("tract_core_range", {std::move(from), std::move(to), Expr::i(1)}, {},
                              hint);
        return ctx.emitTemp("tract_core_cast", {r}, toI64, hint + "_i64");
    };
    auto plusOne = [](const Expr& e) {
        return e.kind == Expr::Kind::Integer ? Expr::i(e.integer + 1)
                                             : Expr::binary("+", e, Expr::i(1));
    };
    Expr pos = numbers(Expr::i(0), n, "positions");
    Expr lo = numbers(begin, plusOne(begin), "range_begin");
    Expr hi = numbers(end, plusOne(end), "range_end");
    Expr above = ctx.emitTemp("ge", {pos, lo}, {}, "from_begin");
    Expr below = ctx.emitTemp("lt", {pos, hi}, {}, "before_end");
    return ctx.emitTemp("and", {above, below}, {}, "in_range");
}

// slice_scatter along a dynamic axis, or with bounds computed from one:
// bounds as size expressions. A uniform source (Swin's shifted-window mask,
// `mask[h0:h1, w0:w1] = n`) is a select on a range mask: no concat, so no
// piece that is empty at some size (tract 0.23.5 divides by zero
// concatenating pieces empty before the axis). Other sources are
// concatenated between the parts of x before and after the range.
void emitDynamicSliceScatter(Context& ctx, int64_t axis) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const DType dt = ctx.out().dtype;
    const ir::ValueId xid = ctx.node().inputs[0];
    constexpr int64_t kOpenEnd = std::numeric_limits<int64_t>::max();
    Expr begin = ctx.numInputs() > 3 ? dynamicIndex(ctx, 3, axis, 0) : Expr::i(0);
    const bool toEnd =
        ctx.numInputs() <= 4 || ctx.isNone(4) || (!ctx.isSymbolic(4) && ctx.intArg(4) == kOpenEnd);
    Expr n = ctx.dimExpr(xid, axis);
    Expr end = toEnd ? n : dynamicIndex(ctx, 4, axis, 0);
    Expr whole = ctx.operand(xid, r, dt);
    if (auto value = uniformValue(ctx, ctx.node().inputs[1], dt)) {
        Expr mask = rangeMask(ctx, n, begin, end);
        std::vector<int64_t> others;
        for (int64_t d = 0; d < r; ++d)
            if (d != axis)
                others.push_back(d);
        if (!others.empty())
            mask = ctx.emitTemp("unsqueeze", {mask}, {{"axes", Expr::ints(others)}}, "in_range_at");
        ctx.emitOut("select", {mask, *value, whole});
        return;
    }
    std::vector<Expr> parts;
    if (!(begin.kind == Expr::Kind::Integer && begin.integer == 0))
        parts.push_back(
            ctx.emitTemp("slice", {whole}, sliceExprs(ctx, axis, Expr::i(0), begin, 1), "before"));
    parts.push_back(ctx.operand(ctx.node().inputs[1], r, dt));
    if (!toEnd)
        parts.push_back(ctx.emitTemp("slice", {whole}, sliceExprs(ctx, axis, end, n, 1), "after"));
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
    const int64_t step = ctx.numInputs() > 5 ? ctx.intArg(5) : 1;
    if (step != 1)
        ctx.unsupported(fmt::format("writing into a slice with step {}", step),
                        "write into a contiguous range, or build the tensor with torch.stack");
    const bool symbolicBounds =
        (ctx.numInputs() > 3 && ctx.isSymbolic(3)) || (ctx.numInputs() > 4 && ctx.isSymbolic(4));
    if (symbolicBounds && x.complex)
        ctx.unsupported("writing into a range of a complex tensor whose bounds follow a dynamic "
                        "axis");
    const bool wholeAxis =
        !symbolicBounds && (ctx.numInputs() <= 3 || ctx.isNone(3) || ctx.intArg(3) == 0);
    const bool openEnd =
        ctx.numInputs() <= 4 || ctx.isNone(4) || (!ctx.isSymbolic(4) && ctx.intArg(4) == kOpenEnd);
    if (!x.complex && (dynamicAxis(x, axis) || symbolicBounds)) {
        // The whole axis written (x[:, :2] = v leaves slice_scatter over
        // axis 0 from 0 to PyTorch's open end): src, at any length.
        if (wholeAxis && openEnd && ctx.in(1).shape == x.shape && ctx.in(1).symbols == x.symbols) {
            ctx.bindOut(ctx.operand(ctx.node().inputs[1], r, ctx.out().dtype));
            return;
        }
        emitDynamicSliceScatter(ctx, axis);
        return;
    }
    const int64_t start = ctx.numInputs() > 3 && !ctx.isNone(3) ? ctx.intArg(3) : 0;
    const int64_t end = ctx.numInputs() > 4 && !ctx.isNone(4) ? ctx.intArg(4) : kOpenEnd;
    auto clamp = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
    int64_t b = clamp(start), e = end >= n ? n : clamp(end);
    e = std::max(b, e);
    if (b == e) {
        ctx.bindOut(ctx.operand(ctx.node().inputs[0], r, ctx.out().dtype));
        return;
    }
    // The whole axis written: src, of x's shape (a complex x's dynamic axis
    // too, at any length).
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
    r.add("aten::slice_scatter", lowerSliceScatter,
          "step 1; along a dynamic axis or with bounds from one: a uniform source as select on a "
          "range mask, others as slices and concat",
          "slice concat +tract_core_range +tract_core_cast +ge +lt +and +unsqueeze +select");
    r.add("aten::select_scatter", lowerSelectScatter, "static axis: slices and concat",
          "slice concat");
    r.add("aten::zero", lowerZero, "x's shape (dynamic axes too)", "eq select");
    r.add("aten::fill", lowerFill, "number or 0-d tensor value", "eq select");
    r.add("aten::copy", lowerCopy, "source converted and broadcast to the target", "+eq +select");
}

} // namespace t2n::translate
