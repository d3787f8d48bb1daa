// Tensor lists (construct/unpack plumbing, cat, stack, chunk, split, unbind)
// and slicing (slice, select, narrow). tract has no `split`: pieces are
// slices. Lists are bound to arrays of NNEF expressions.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace t2n::translate {

namespace {

// prim::ListConstruct / TupleConstruct of tensors: nothing to emit, the
// consumers read the elements (Context::list), each in the form it needs.
void lowerConstruct(Context&) {}

void lowerUnpack(Context& ctx) {
    std::vector<Expr> items = ctx.list(ctx.node().inputs[0]);
    if (items.size() != ctx.node().outputs.size())
        ctx.unsupported(fmt::format("unpacking {} values from a list of {}",
                                    ctx.node().outputs.size(), items.size()));
    for (size_t i = 0; i < items.size(); ++i)
        if (!ctx.isBound(ctx.node().outputs[i]))
            ctx.bindOut(items[i], i);
}

// Operands of cat/stack with the output dtype; empty 1-D tensors, which
// PyTorch's cat skips, are dropped.
std::vector<Expr> listOperands(Context& ctx, ir::ValueId list, int64_t rank) {
    const ir::Value& l = ctx.graph().value(list);
    std::vector<Expr> out;
    if (!l.elements.empty()) {
        for (ir::ValueId e : l.elements) {
            const ir::Value& v = ctx.graph().value(e);
            if (v.shape.size() == 1 && v.shape[0] == 0 && rank != 1)
                continue;
            out.push_back(ctx.operand(e, rankOf(v), ctx.out().dtype));
        }
        return out;
    }
    return ctx.list(list);
}

void lowerCat(Context& ctx) {
    const int64_t r = rankOf(ctx.out());
    int64_t axis = ctx.axis(ctx.intArg(1), r);
    auto items = listOperands(ctx, ctx.node().inputs[0], r);
    if (items.size() == 1) {
        ctx.bindOut(items[0]);
        return;
    }
    ctx.emitOut("concat", {Expr::array(items)}, {{"axis", Expr::i(axis)}});
}

void lowerStack(Context& ctx) {
    int64_t axis = ctx.axis(ctx.intArg(1), rankOf(ctx.out()));
    auto items = listOperands(ctx, ctx.node().inputs[0], rankOf(ctx.out()) - 1);
    ctx.emitOut("stack", {Expr::array(items)}, {{"axis", Expr::i(axis)}});
}

// Emits one slice per piece; pieces are named after the values a later
// prim::ListUnpack hands out when there is one. The bounds are the running
// sums of the sizes: integers, or expressions over the symbols when a size
// follows a dynamic axis (torch.split(x, [S - 2, 2], 1)).
void emitPieces(Context& ctx, int64_t axis, const std::vector<Expr>& sizes, bool squeeze) {
    const ir::Value& list = ctx.out();
    std::vector<Expr> pieces;
    Expr begin = Expr::i(0);
    for (size_t i = 0; i < sizes.size(); ++i) {
        Expr end = Expr::binary("+", begin, sizes[i]);
        if (begin.kind == Expr::Kind::Integer && sizes[i].kind == Expr::Kind::Integer)
            end = Expr::i(begin.integer + sizes[i].integer);
        else if (begin.kind == Expr::Kind::Integer && begin.integer == 0)
            end = sizes[i];
        Kwargs k = sliceExprs(ctx, axis, begin, end, 1);
        begin = end;
        bool named = i < list.elements.size();
        if (squeeze) {
            Expr s = ctx.emitTemp("slice", {ctx.input(0)}, k, fmt::format("piece{}", i));
            Kwargs q{{"axes", Expr::ints({axis})}};
            pieces.push_back(named ? ctx.emitFor(list.elements[i], "squeeze", {s}, q)
                                   : ctx.emitTemp("squeeze", {s}, q, fmt::format("item{}", i)));
        } else {
            pieces.push_back(
                named ? ctx.emitFor(list.elements[i], "slice", {ctx.input(0)}, k)
                      : ctx.emitTemp("slice", {ctx.input(0)}, k, fmt::format("piece{}", i)));
        }
    }
    ctx.bindOut(Expr::array(std::move(pieces)));
}

void emitPieces(Context& ctx, int64_t axis, const std::vector<int64_t>& sizes, bool squeeze) {
    std::vector<Expr> exprs;
    for (int64_t n : sizes)
        exprs.push_back(Expr::i(n));
    emitPieces(ctx, axis, exprs, squeeze);
}

int64_t dimSize(Context& ctx, int64_t axis) {
    const ir::Value& x = ctx.in(0);
    if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(axis)].empty())
        ctx.unsupported("splitting along a dynamic axis");
    return x.shape[static_cast<size_t>(axis)];
}

// Pieces of `step` along an axis of size n, the last one shorter.
std::vector<int64_t> evenPieces(int64_t n, int64_t step) {
    std::vector<int64_t> sizes;
    for (int64_t b = 0; b < n; b += step)
        sizes.push_back(std::min(step, n - b));
    return sizes;
}

// chunk(x, chunks, dim): pieces of ceil(n / chunks).
void lowerChunk(Context& ctx) {
    int64_t axis = ctx.axis(ctx.intArg(2), rankOf(ctx.in(0)));
    int64_t n = dimSize(ctx, axis), chunks = ctx.intArg(1);
    emitPieces(ctx, axis, evenPieces(n, (n + chunks - 1) / chunks), false);
}

// split(x, size_or_sizes, dim) and split_with_sizes(x, sizes, dim)
void lowerSplit(Context& ctx) {
    int64_t axis = ctx.axis(ctx.intArg(2), rankOf(ctx.in(0)));
    const ir::Value& arg = ctx.in(1);
    if (arg.kind != ir::ValueKind::Int && (dynamicAxis(ctx.in(0), axis) || ctx.isSymbolic(1))) {
        emitPieces(ctx, axis, ctx.sizesArg(1), false);
        return;
    }
    int64_t n = dimSize(ctx, axis);
    emitPieces(ctx, axis,
               arg.kind == ir::ValueKind::Int ? evenPieces(n, ctx.intArg(1)) : ctx.intsArg(1),
               false);
}

// tensor_split(x, sections, dim): `sections` pieces, the first (n % sections)
// one longer; tensor_split(x, indices, dim): cut before each index (Python
// slice bounds: negative from the end, clamped to the axis). hsplit, vsplit
// and dsplit are tensor_split along a fixed axis.
void splitSections(Context& ctx, int64_t axis) {
    const int64_t n = dimSize(ctx, axis);
    std::vector<int64_t> sizes;
    if (ctx.in(1).kind == ir::ValueKind::Int) {
        const int64_t sections = ctx.intArg(1);
        if (sections <= 0)
            ctx.unsupported(fmt::format("{} into {} sections", ctx.node().kind, sections));
        for (int64_t i = 0; i < sections; ++i)
            sizes.push_back(n / sections + (i < n % sections ? 1 : 0));
    } else if (ctx.in(1).kind == ir::ValueKind::IntList) {
        int64_t begin = 0;
        for (int64_t cut : ctx.intsArg(1)) {
            cut = std::clamp(cut < 0 ? cut + n : cut, int64_t{0}, n);
            sizes.push_back(std::max<int64_t>(0, cut - begin));
            begin = std::max(begin, cut);
        }
        sizes.push_back(n - begin);
    } else {
        ctx.unsupported(ctx.node().kind + " by a tensor of indices",
                        "pass the sections or indices as Python ints");
    }
    if (std::find(sizes.begin(), sizes.end(), 0) != sizes.end())
        ctx.unsupported(ctx.node().kind + " with an empty piece");
    emitPieces(ctx, axis, sizes, false);
}

void lowerTensorSplit(Context& ctx) {
    splitSections(ctx, ctx.axis(ctx.numInputs() > 2 ? ctx.intArg(2) : 0, rankOf(ctx.in(0))));
}

// hsplit (axis 1, or 0 for vectors), vsplit (axis 0 of a rank >= 2 tensor),
// dsplit (axis 2 of a rank >= 3 tensor).
template <int64_t Axis> void lowerFixedSplit(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const int64_t axis = Axis == 1 && r == 1 ? 0 : Axis;
    if (r <= axis || (Axis == 0 && r < 2))
        ctx.unsupported(fmt::format("{} of a rank-{} tensor", ctx.node().kind, r));
    splitSections(ctx, axis);
}

void lowerUnbind(Context& ctx) {
    int64_t axis = ctx.axis(ctx.numInputs() > 1 ? ctx.intArg(1) : 0, rankOf(ctx.in(0)));
    emitPieces(ctx, axis, std::vector<int64_t>(static_cast<size_t>(dimSize(ctx, axis)), 1), true);
}

// Whether axis `axis` of `x` is a multiple of `k` at the example size and at
// every probe size that ran.
bool multipleAtEverySize(const ir::Value& x, int64_t axis, int64_t k) {
    const auto a = static_cast<size_t>(axis);
    for (const auto* shape : {&x.shape, &x.probeShape, &x.farShape})
        if (shape->size() > a && (*shape)[a] % k != 0)
            return false;
    return x.probeShape.size() > a;
}

// slice(x, dim, start, end, step) with PyTorch's clamping, as static indices;
// along a dynamic axis, or with bounds computed from one, as expressions over
// the symbols (x[:, -1:], table[:S], x[:, :S - 1]).
void lowerSlice(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    int64_t axis = ctx.axis(ctx.numInputs() > 1 ? ctx.intArg(1) : 0, r);
    const int64_t n = x.shape[static_cast<size_t>(axis)];
    constexpr int64_t kNoEnd = std::numeric_limits<int64_t>::max();
    int64_t step = ctx.numInputs() > 4 ? ctx.intArg(4) : 1;
    if (step < 1)
        ctx.unsupported("slice with a step below 1");
    const bool hasStart = ctx.numInputs() > 2, hasEnd = ctx.numInputs() > 3;
    if (dynamicAxis(x, axis) || (hasStart && ctx.isSymbolic(2)) || (hasEnd && ctx.isSymbolic(3))) {
        Expr begin = hasStart ? dynamicIndex(ctx, 2, axis, 0) : Expr::i(0);
        // An end past a dynamic axis' example size is only "to the end" when
        // it is PyTorch's open end: x[:, :10] keeps 10 steps at any length.
        const bool toEnd = !hasEnd || ctx.isNone(3) ||
                           (!ctx.isSymbolic(3) && (ctx.intArg(3) == kNoEnd ||
                                                   (!dynamicAxis(x, axis) && ctx.intArg(3) >= n)));
        Expr end = toEnd ? ctx.dimExpr(ctx.node().inputs[0], axis) : dynamicIndex(ctx, 3, axis, 0);
        if (toEnd && begin.kind == Expr::Kind::Integer && begin.integer == 0 && step == 1) {
            ctx.bindOut(ctx.input(0));
            return;
        }
        // x[..., b::s] of an axis that is a multiple of s (Swin's patch
        // merging): tract counts (n - b + s - 1) / s items, which for b = 0
        // it cannot prove equal to the n / s of b = 1 at a later concat.
        // Ending at n + b - s + 1 takes the same items and counts n / s.
        if (toEnd && step > 1 && begin.kind == Expr::Kind::Integer && begin.integer < step &&
            multipleAtEverySize(x, axis, step) && step - 1 - begin.integer > 0)
            end = Expr::binary("-", end, Expr::i(step - 1 - begin.integer));
        ctx.emitOut("slice", {ctx.input(0)}, sliceExprs(ctx, axis, begin, end, step));
        return;
    }
    int64_t start = hasStart && !ctx.isNone(2) ? ctx.intArg(2) : 0;
    int64_t end = hasEnd && !ctx.isNone(3) ? ctx.intArg(3) : kNoEnd;
    auto clamp = [n](int64_t v) {
        if (v < 0)
            v += n;
        return std::clamp<int64_t>(v, 0, n);
    };
    int64_t b = clamp(start), e = end >= n ? n : clamp(end);
    if (e < b)
        e = b;
    if (b == 0 && e == n && step == 1) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    ctx.emitOut("slice", {ctx.input(0)}, sliceArgs(axis, b, e, step));
}

// select(x, dim, index) and narrow(x, dim, start, length): a slice from a
// possibly negative index; select then drops the axis. Along a dynamic axis a
// negative index counts from the symbolic end (x[:, -1] is the last step at
// every length).
void lowerSelectOrNarrow(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const bool select = ctx.node().kind == "aten::select" || ctx.node().kind == "aten::select_copy";
    int64_t axis = ctx.axis(ctx.intArg(1), rankOf(x));
    Kwargs k;
    if (dynamicAxis(x, axis) || ctx.isSymbolic(2) || (!select && ctx.isSymbolic(3))) {
        Expr begin = dynamicIndex(ctx, 2, axis, 0);
        Expr length = select ? Expr::i(1) : ctx.sizeArg(3);
        Expr end = begin.kind == Expr::Kind::Binary && begin.text == "-" &&
                           begin.items[1].kind == Expr::Kind::Integer && select &&
                           begin.items[1].integer == 1
                       ? begin.items[0] // x[:, -1]: up to the end
                       : Expr::binary("+", begin, length);
        if (begin.kind == Expr::Kind::Integer && length.kind == Expr::Kind::Integer)
            end = Expr::i(begin.integer + length.integer);
        k = sliceExprs(ctx, axis, begin, end, 1);
    } else {
        int64_t n = x.shape[static_cast<size_t>(axis)];
        int64_t i = ctx.intArg(2) < 0 ? ctx.intArg(2) + n : ctx.intArg(2);
        int64_t length = select ? 1 : ctx.intArg(3);
        if (i < 0 || i + length > n)
            ctx.unsupported(fmt::format("index {} (length {}) out of range for size {}",
                                        ctx.intArg(2), length, n));
        k = sliceArgs(axis, i, i + length);
    }
    if (!select) {
        ctx.emitOut("slice", {ctx.input(0)}, k);
        return;
    }
    Expr s = ctx.emitTemp("slice", {ctx.input(0)}, k, "slice");
    ctx.emitOut("squeeze", {s}, {{"axes", Expr::ints({axis})}});
}

} // namespace

void registerListOps(Registry& r) {
    r.beginFamily("lists");
    r.add("prim::ListConstruct", lowerConstruct, "tensor lists");
    r.add("prim::TupleConstruct", lowerConstruct, "tensor tuples");
    r.add("prim::DictConstruct", lowerConstruct,
          "a dict forward() returns: its values are the outputs, in insertion order");
    r.add("prim::ListUnpack", lowerUnpack);
    r.add("prim::TupleUnpack", lowerUnpack);
    r.add("aten::cat", lowerCat);
    r.add("aten::stack", lowerStack);
    r.add("aten::chunk", lowerChunk, "static axis");
    r.add("aten::unsafe_chunk", lowerChunk, "static axis");
    r.add("aten::split", lowerSplit,
          "static axis; a list of sizes may follow a dynamic axis (bounds as expressions)");
    r.add("aten::split_with_sizes", lowerSplit,
          "a dynamic axis or sizes from one: the bounds as expressions");
    r.add("aten::unsafe_split", lowerSplit, "static axis", "slice");
    r.add("aten::unsafe_split_with_sizes", lowerSplit, "static axis", "slice");
    r.add("aten::hsplit", lowerFixedSplit<1>, "static axis; sections or int indices", "slice");
    r.add("aten::vsplit", lowerFixedSplit<0>, "static axis; sections or int indices", "slice");
    r.add("aten::dsplit", lowerFixedSplit<2>, "static axis; sections or int indices", "slice");
    r.add("aten::unbind", lowerUnbind, "static axis");
    r.add("aten::tensor_split", lowerTensorSplit,
          "static axis; sections or int indices, no empty piece", "slice");
    r.add("aten::slice", lowerSlice, "bounds from a dynamic axis become expressions");
    r.add("aten::select", lowerSelectOrNarrow);
    r.add("aten::select_copy", lowerSelectOrNarrow, "as select", "slice squeeze");
    r.add("aten::narrow_copy", lowerSelectOrNarrow, "as narrow", "slice");
    r.add("aten::slice_copy", lowerSlice, "as slice", "+slice");
    r.add("aten::unbind_copy", lowerUnbind, "as unbind; static axis", "slice squeeze");
    r.add("aten::split_copy", lowerSplit, "as split; static axis", "slice");
    r.add("aten::split_with_sizes_copy", lowerSplit, "as split_with_sizes; static axis", "slice");
    r.add("aten::narrow", lowerSelectOrNarrow);
}

} // namespace t2n::translate
