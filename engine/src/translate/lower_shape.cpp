// Shape, layout and identity operations.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>
#include <numeric>

namespace t2n::translate {

namespace {

void lowerIdentity(Context& ctx) {
    ctx.bindOut(ctx.input(0));
}

// dropout(x, p, train), feature_dropout, alpha_dropout, feature_alpha_dropout
// and their in-place forms: the identity when train is false, and also when p
// is 0 whatever train says (a library calling F.dropout(x, p=attention_dropout)
// without training= traces train=True). Only p > 0 in training mode draws
// random numbers, and only that is refused.
void lowerDropout(Context& ctx) {
    if (ctx.numInputs() > 2 && ctx.boolArg(2)) {
        const double p = ctx.floatArg(1);
        if (p > 0)
            ctx.unsupported(fmt::format("{} with p = {} in training mode zeroes random elements",
                                        ctx.node().kind, p),
                            "put the model in eval mode before saving (model.eval()), or pass "
                            "training=self.training or p=0.0 to the call");
    }
    ctx.bindOut(ctx.input(0));
}

// native_dropout(x, p, train?) -> (y, mask): the identity in eval mode (train
// false or None) or when p = 0; the mask output is refused.
void lowerNativeDropout(Context& ctx) {
    if (ctx.node().outputs.size() > 1 && ctx.isUsed(ctx.node().outputs[1]))
        ctx.unsupported("native_dropout with its mask used");
    if (ctx.numInputs() > 2 && !ctx.isNone(2) && ctx.boolArg(2) && ctx.floatArg(1) > 0)
        ctx.unsupported(fmt::format("native_dropout with p = {} in training mode zeroes random "
                                    "elements",
                                    ctx.floatArg(1)),
                        "put the model in eval mode before saving (model.eval())");
    ctx.bindOut(ctx.input(0));
}

// to / type_as / float / ...: a cast when the dtype changes, else nothing.
void lowerCast(Context& ctx) {
    DType from = ctx.in(0).dtype, to = ctx.out().dtype;
    if (from == to) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    ctx.emitOut("tract_core_cast", {ctx.input(0)}, {{"to", Expr::str(std::string(dtypeName(to)))}});
}

// The target shape of a reshape whose size list does not change with a
// symbolic axis. Axes whose size follows a dynamic axis (recorded as a symbol)
// keep it: 0 copies the input's axis at the same position, and one remaining
// dynamic axis can be inferred with -1.
std::vector<int64_t> reshapeTarget(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& y = ctx.out();
    std::vector<int64_t> shape = y.shape;
    std::vector<size_t> dynamic;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (y.symbols.empty() || y.symbols[d].empty())
            continue;
        if (d < x.symbols.size() && x.symbols[d] == y.symbols[d] && y.symbols[d] != "?")
            shape[d] = 0;
        else
            dynamic.push_back(d);
    }
    if (dynamic.size() == 1)
        shape[dynamic[0]] = -1;
    else if (dynamic.size() > 1)
        ctx.unsupported(fmt::format("reshape to [{}] depends on dynamic axes in a way t2n cannot "
                                    "express: its size list does not say how",
                                    fmt::join(y.shape, ", ")),
                        "reshape with sizes read from the input (x.size(1), -1) so that t2n can "
                        "follow them");
    return shape;
}

// view / reshape: a size list computed from a symbolic axis (view(b, S, h, d))
// is written as expressions over the symbols; PyTorch's -1 is NNEF's too.
void lowerReshape(Context& ctx) {
    if (ctx.numInputs() > 1 && ctx.isSymbolic(1) && ctx.in(1).kind != ir::ValueKind::Tensor) {
        ctx.emitOut("reshape", {ctx.input(0)}, {{"shape", Expr::array(ctx.sizesArg(1))}});
        return;
    }
    ctx.emitOut("reshape", {ctx.input(0)}, {{"shape", Expr::ints(reshapeTarget(ctx))}});
}

// view_copy(x, size): view's copy form; view_copy(x, dtype), which
// reinterprets the bytes, is refused.
void lowerViewCopy(Context& ctx) {
    if (ctx.numInputs() > 1 && ctx.in(1).kind == ir::ValueKind::Int)
        ctx.unsupported("view_copy to another dtype (the bytes reinterpreted)");
    lowerReshape(ctx);
}

// flatten(x, start, end) = reshape of the axis range [start, end] into one.
void lowerFlatten(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (r == 0) {
        ctx.emitOut("reshape", {ctx.input(0)}, {{"shape", Expr::ints({1})}});
        return;
    }
    int64_t s = ctx.axis(ctx.intArg(1), r), e = ctx.axis(ctx.intArg(2), r);
    if (s == e) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    ctx.emitOut("reshape", {ctx.input(0)},
                {{"shape", Expr::ints({-1})},
                 {"axis_start", Expr::i(s)},
                 {"axis_count", Expr::i(e - s + 1)}});
}

// unflatten(x, dim, sizes): axis `dim` split into `sizes` (one may be -1) by
// a reshape of that axis alone, so the other axes keep their symbols.
void lowerUnflatten(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const int64_t d = ctx.axis(ctx.intArg(1), r);
    std::vector<Expr> sizes = ctx.sizesArg(2);
    ctx.emitOut("reshape", {ctx.input(0)},
                {{"shape", Expr::array(std::move(sizes))},
                 {"axis_start", Expr::i(d)},
                 {"axis_count", Expr::i(1)}});
}

void lowerPermute(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> perm;
    for (int64_t a : ctx.intsArg(1))
        perm.push_back(ctx.axis(a, r));
    ctx.emitOut("transpose", {ctx.input(0)}, {{"axes", Expr::ints(perm)}});
}

void lowerTranspose(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (r < 2) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    std::vector<int64_t> perm(static_cast<size_t>(r));
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[static_cast<size_t>(ctx.axis(ctx.intArg(1), r))],
              perm[static_cast<size_t>(ctx.axis(ctx.intArg(2), r))]);
    ctx.emitOut("transpose", {ctx.input(0)}, {{"axes", Expr::ints(perm)}});
}

// squeeze(x) drops every unit axis; squeeze(x, d) only d, and only if unit.
void lowerSqueeze(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    std::vector<int64_t> axes;
    if (ctx.numInputs() > 1) {
        for (int64_t a : ctx.intsArg(1)) {
            int64_t d = ctx.axis(a, r);
            if (r > 0 && x.shape[static_cast<size_t>(d)] == 1)
                axes.push_back(d);
        }
    } else {
        for (int64_t d = 0; d < r; ++d)
            if (x.shape[static_cast<size_t>(d)] == 1)
                axes.push_back(d);
    }
    if (axes.empty()) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    ctx.emitOut("squeeze", {ctx.input(0)}, {{"axes", Expr::ints(axes)}});
}

void lowerUnsqueeze(Context& ctx) {
    int64_t d = ctx.axis(ctx.intArg(1), rankOf(ctx.in(0)) + 1);
    ctx.emitOut("unsqueeze", {ctx.input(0)}, {{"axes", Expr::ints({d})}});
}

// The target size of axis d of an expand: a size-list entry (-1 keeps the
// input's), or for expand_as the other tensor's axis.
Expr expandSize(Context& ctx, const std::vector<Expr>& sizes, int64_t d) {
    if (ctx.node().kind == "aten::expand_as")
        return ctx.dimExpr(ctx.node().inputs[1], d);
    return sizes.at(static_cast<size_t>(d));
}

// Whether axis `xd` of the expanded tensor has the size of the output's axis
// `yd` at every size, not only at the example's: the probe run (a second size
// of every dynamic axis) shows it, or, without one, the same symbol.
bool followsAxis(const ir::Value& x, size_t xd, const ir::Value& y, size_t yd) {
    if (x.shape.size() <= xd || y.shape.size() <= yd || x.shape[xd] != y.shape[yd])
        return false;
    if (x.probeShape.size() == x.shape.size() && y.probeShape.size() == y.shape.size())
        return x.probeShape[xd] == y.probeShape[yd] && x.probeShape[xd] != x.shape[xd];
    return x.symbols.size() > xd && y.symbols.size() > yd && !x.symbols[xd].empty() &&
           x.symbols[xd] == y.symbols[yd];
}

// expand / expand_as: pad the rank, then tile the unit axes that grow. A size
// that follows a symbolic axis (expand(b, S, c), expand_as a dynamic tensor)
// becomes a symbolic repeat count.
void lowerExpand(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& y = ctx.out();
    const int64_t r = rankOf(y);
    Expr e = rankedOperand(ctx, ctx.node().inputs[0], r, y.dtype);
    const bool asOther = ctx.node().kind == "aten::expand_as";
    std::vector<Expr> sizes;
    if (!asOther && ctx.isSymbolic(1))
        sizes = ctx.sizesArg(1);
    std::vector<Expr> repeats;
    bool any = false;
    const int64_t offset = r - rankOf(x);
    for (int64_t d = 0; d < r; ++d) {
        const auto ud = static_cast<size_t>(d);
        int64_t in = d < offset ? 1 : x.shape[static_cast<size_t>(d - offset)];
        int64_t out = y.shape[ud];
        const bool dynamicOut = !y.symbols.empty() && !y.symbols[ud].empty();
        Expr rep = Expr::i(in == out ? 1 : out);
        if (d >= offset && followsAxis(x, static_cast<size_t>(d - offset), y, ud)) {
            // A dynamic axis whose example size is 1 (B=1) is not a unit
            // axis to broadcast: it has the output's size at every size.
            rep = Expr::i(1);
        } else if (in == 1 && dynamicOut && (asOther || !sizes.empty())) {
            rep = expandSize(ctx, sizes, d);
        } else if (in == 1 && dynamicOut) {
            ctx.unsupported(fmt::format("expand along dynamic axis {} to a size t2n cannot read "
                                        "from the graph (the example's {})",
                                        d, out));
        }
        any = any || !(rep.kind == Expr::Kind::Integer && rep.integer == 1);
        repeats.push_back(std::move(rep));
    }
    if (!any) {
        if (e.isIdentifier() && rankOf(x) == r)
            ctx.bindOut(e);
        else
            ctx.emitOut("copy", {e});
        return;
    }
    ctx.emitOut("tile", {e}, {{"repeats", Expr::array(std::move(repeats))}});
}

// repeat(x, repeats): tile after padding the rank to len(repeats); counts
// computed from a symbolic axis stay expressions.
void lowerRepeat(Context& ctx) {
    std::vector<Expr> repeats = ctx.sizesArg(1);
    Expr e =
        ctx.operand(ctx.node().inputs[0], static_cast<int64_t>(repeats.size()), ctx.out().dtype);
    ctx.emitOut("tile", {e}, {{"repeats", Expr::array(std::move(repeats))}});
}

// repeat_interleave(x, repeats, dim): each item along `dim` repeated in
// place, as unsqueeze after dim, tile by `repeats` there, and a reshape that
// merges the two axes (WaveRNN stretches spectrograms so). One count for all
// items (an int, or a constant tensor of one value); no dim: flattened first.
void lowerRepeatInterleave(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    if (ctx.numInputs() < 2 || x.kind != ir::ValueKind::Tensor)
        ctx.unsupported("repeat_interleave(repeats) building an index (its values vary)");
    int64_t repeats = 0;
    const ir::Value& r = ctx.in(1);
    if (r.kind == ir::ValueKind::Int) {
        repeats = ctx.intArg(1);
    } else {
        const auto* t = r.constant ? std::get_if<TensorData>(&*r.constant) : nullptr;
        if (!t || t->numel() < 1)
            ctx.unsupported("repeat_interleave with repeats the model computes");
        repeats = t->asInt(0);
        for (int64_t i = 1; i < t->numel(); ++i)
            if (t->asInt(i) != repeats)
                ctx.unsupported("repeat_interleave with different counts per item",
                                "repeat each item the same number of times");
    }
    const ir::Value& y = ctx.out();
    Expr e = ctx.operand(ctx.node().inputs[0], rankOf(x), y.dtype);
    int64_t axis = 0, rank = 1;
    if (ctx.numInputs() > 2 && !ctx.isNone(2)) {
        rank = rankOf(x);
        axis = ctx.axis(ctx.intArg(2), rank);
    } else if (rankOf(x) != 1) {
        e = ctx.emitTemp("reshape", {e}, {{"shape", Expr::ints({-1})}}, "flat");
    }
    Expr u = ctx.emitTemp("unsqueeze", {e}, {{"axes", Expr::ints({axis + 1})}}, "items");
    std::vector<int64_t> tiles(static_cast<size_t>(rank + 1), 1);
    tiles[static_cast<size_t>(axis + 1)] = repeats;
    Expr t = ctx.emitTemp("tile", {u}, {{"repeats", Expr::ints(tiles)}}, "repeated");
    // Only the item axis and its copies are merged: every other axis, and the
    // item axis itself, may be a symbol (grouped-query attention repeats the
    // K/V heads of a tensor whose sequence is dynamic).
    ctx.emitOut(
        "reshape", {t},
        {{"shape", Expr::ints({-1})}, {"axis_start", Expr::i(axis)}, {"axis_count", Expr::i(2)}});
}

// numpy_T (x.T): every axis reversed; mT / mH (real tensors) and matrix_H
// (x.H, matrices only): the last two swapped. t2n has no complex dtype, so
// the conjugate of mH and matrix_H is the identity.
void lowerReverseAxes(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (r < 2) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    std::vector<int64_t> perm(static_cast<size_t>(r));
    for (int64_t a = 0; a < r; ++a)
        perm[static_cast<size_t>(a)] = r - 1 - a;
    ctx.emitOut("transpose", {ctx.input(0)}, {{"axes", Expr::ints(perm)}});
}

void lowerMatrixTranspose(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (r < 2 || (ctx.node().kind == "aten::matrix_H" && r != 2))
        ctx.unsupported(fmt::format("{} of a rank-{} tensor", ctx.node().kind, r));
    std::vector<int64_t> perm(static_cast<size_t>(r));
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[static_cast<size_t>(r - 2)], perm[static_cast<size_t>(r - 1)]);
    ctx.emitOut("transpose", {ctx.input(0)}, {{"axes", Expr::ints(perm)}});
}

// ravel(x): the flattened tensor (reshape to [-1], which follows a dynamic axis).
void lowerRavel(Context& ctx) {
    if (rankOf(ctx.in(0)) == 1) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    ctx.emitOut("reshape", {ctx.input(0)}, {{"shape", Expr::ints({-1})}});
}

// numpy's atleast_{1,2,3}d: the unit axes inserted into a rank-r tensor, as
// output positions (NNEF unsqueeze): [n] becomes [1, n] and [1, n, 1], [a, b]
// becomes [a, b, 1]. A scalar gets `want` entries; callers reshape it to ones.
std::vector<int64_t> atLeastUnitAxes(int64_t want, int64_t r) {
    if (r >= want)
        return {};
    if (r == 0)
        return std::vector<int64_t>(static_cast<size_t>(want), 0);
    if (want == 2)
        return {0};
    return r == 1 ? std::vector<int64_t>{0, 2} : std::vector<int64_t>{2};
}

// Element `id` of atleast_Nd with its unit axes, produced for IR value `out`
// (the node's output, or an element of its output list).
Expr atLeast(Context& ctx, int64_t want, ir::ValueId id, ir::ValueId out, bool single) {
    const ir::Value& v = ctx.graph().value(id);
    std::vector<int64_t> axes = atLeastUnitAxes(want, rankOf(v));
    Expr e = ctx.tensor(id);
    if (axes.empty()) {
        if (single)
            ctx.bindOut(e);
        return e;
    }
    if (rankOf(v) == 0) { // a scalar: reshape, since unsqueeze of a 0-d literal is not portable
        std::vector<int64_t> ones(static_cast<size_t>(want), 1);
        Kwargs k{{"shape", Expr::ints(ones)}};
        return single ? ctx.emitOut("reshape", {e}, k) : ctx.emitFor(out, "reshape", {e}, k);
    }
    Kwargs k{{"axes", Expr::ints(axes)}};
    return single ? ctx.emitOut("unsqueeze", {e}, k) : ctx.emitFor(out, "unsqueeze", {e}, k);
}

// atleast_1d / 2d / 3d of a tensor, or of a tensor list (one result each).
template <int64_t Want> void lowerAtLeast(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    if (x.kind == ir::ValueKind::Tensor) {
        atLeast(ctx, Want, ctx.node().inputs[0], ctx.node().outputs[0], true);
        return;
    }
    const ir::Value& out = ctx.out();
    if (x.elements.empty() || out.elements.size() != x.elements.size())
        ctx.unsupported(fmt::format("{} of a tensor list t2n cannot see built", ctx.node().kind));
    std::vector<Expr> items;
    for (size_t i = 0; i < x.elements.size(); ++i)
        items.push_back(atLeast(ctx, Want, x.elements[i], out.elements[i], false));
    ctx.bindOut(Expr::array(std::move(items)));
}

// broadcast_tensors(tensors): each tensor tiled to the common shape. Only
// static axes grow (a dynamic axis that some operand broadcasts is refused).
void lowerBroadcastTensors(Context& ctx) {
    const ir::Value& list = ctx.in(0);
    const ir::Value& out = ctx.out();
    if (list.elements.empty() || out.elements.size() != list.elements.size())
        ctx.unsupported("broadcast_tensors of a tensor list t2n cannot see built");
    std::vector<Expr> items;
    for (size_t i = 0; i < list.elements.size(); ++i) {
        const ir::Value& v = ctx.graph().value(list.elements[i]);
        const ir::Value& y = ctx.graph().value(out.elements[i]);
        const int64_t r = rankOf(y), offset = r - rankOf(v);
        Expr e = rankedOperand(ctx, list.elements[i], r, y.dtype);
        std::vector<int64_t> repeats;
        bool any = false;
        for (int64_t d = 0; d < r; ++d) {
            const auto ud = static_cast<size_t>(d);
            const int64_t in = d < offset ? 1 : v.shape[static_cast<size_t>(d - offset)];
            const int64_t rep = in == y.shape[ud] ? 1 : y.shape[ud];
            if (rep != 1 && !y.symbols.empty() && !y.symbols[ud].empty())
                ctx.unsupported(fmt::format("broadcast_tensors along dynamic axis {}", d));
            any = any || rep != 1;
            repeats.push_back(rep);
        }
        if (!any && rankOf(v) == r) {
            items.push_back(e);
            continue;
        }
        items.push_back(ctx.emitFor(out.elements[i], any ? "tile" : "copy", {e},
                                    any ? Kwargs{{"repeats", Expr::ints(repeats)}} : Kwargs{}));
    }
    ctx.bindOut(Expr::array(std::move(items)));
}

// hstack / vstack / dstack / column_stack: each tensor given unit axes by
// `axesFor(rank)` (output positions, as NNEF's unsqueeze), then concatenated
// along `axis`.
template <typename AxesFor> void stackAlong(Context& ctx, int64_t axis, AxesFor axesFor) {
    const ir::Value& list = ctx.in(0);
    if (list.elements.empty())
        ctx.unsupported(ctx.node().kind + " of a tensor list t2n cannot see built");
    std::vector<Expr> items;
    for (ir::ValueId id : list.elements) {
        const ir::Value& v = ctx.graph().value(id);
        std::vector<int64_t> axes = axesFor(rankOf(v));
        Expr e = ctx.operand(id, rankOf(v), ctx.out().dtype);
        if (!axes.empty() && rankOf(v) == 0)
            e = ctx.emitTemp("reshape", {e},
                             {{"shape", Expr::ints(std::vector<int64_t>(axes.size(), 1))}}, "item");
        else if (!axes.empty())
            e = ctx.emitTemp("unsqueeze", {e}, {{"axes", Expr::ints(axes)}}, "item");
        items.push_back(e);
    }
    if (items.size() == 1)
        ctx.emitOut("copy", {items[0]});
    else
        ctx.emitOut("concat", {Expr::array(items)}, {{"axis", Expr::i(axis)}});
}

void lowerHstack(Context& ctx) {
    // Vectors (and scalars, made vectors) join along axis 0, the rest along 1.
    stackAlong(ctx, rankOf(ctx.out()) == 1 ? 0 : 1,
               [](int64_t r) { return atLeastUnitAxes(1, r); });
}

void lowerVstack(Context& ctx) {
    stackAlong(ctx, 0, [](int64_t r) { return atLeastUnitAxes(2, r); });
}

void lowerDstack(Context& ctx) {
    stackAlong(ctx, 2, [](int64_t r) { return atLeastUnitAxes(3, r); });
}

// column_stack: scalars and vectors become columns [n, 1], then hstack.
void lowerColumnStack(Context& ctx) {
    stackAlong(ctx, 1, [](int64_t r) {
        return r == 0   ? std::vector<int64_t>{0, 0}
               : r == 1 ? std::vector<int64_t>{1}
                        : std::vector<int64_t>{};
    });
}

} // namespace

void registerShapeOps(Registry& r) {
    r.beginFamily("shape");
    r.add("aten::view", lowerReshape, "sizes computed from a dynamic axis become expressions");
    r.add("aten::reshape", lowerReshape, "sizes computed from a dynamic axis become expressions");
    r.add("aten::flatten", lowerFlatten);
    r.add("aten::unflatten", lowerUnflatten, "one axis reshaped; sizes may follow a dynamic axis",
          "reshape");
    r.add("aten::permute", lowerPermute);
    r.add("aten::transpose", lowerTranspose);
    r.add("aten::squeeze", lowerSqueeze);
    r.add("aten::unsqueeze", lowerUnsqueeze);
    r.add("aten::expand", lowerExpand, "as tile");
    r.add("aten::expand_as", lowerExpand, "as tile");
    r.add("aten::repeat", lowerRepeat, "as tile");
    r.add("aten::repeat_interleave", lowerRepeatInterleave,
          "one count for every item (int or constant tensor), any axis dynamic: unsqueeze, tile, "
          "reshape of the two axes",
          "unsqueeze tile reshape");
    r.add("aten::numpy_T", lowerReverseAxes, "x.T: every axis reversed", "+transpose");
    r.add("aten::mT", lowerMatrixTranspose, "real tensors: the last two axes swapped", "transpose");
    r.add("aten::mH", lowerMatrixTranspose, "real tensors: the last two axes swapped", "transpose");
    r.add("aten::matrix_H", lowerMatrixTranspose, "real matrices: transposed", "transpose");
    r.add("aten::ravel", lowerRavel, "reshape to [-1]", "+reshape");
    r.add("aten::atleast_1d", lowerAtLeast<1>, "a tensor or a list", "+reshape");
    r.add("aten::atleast_2d", lowerAtLeast<2>, "a tensor or a list", "+reshape +unsqueeze");
    r.add("aten::atleast_3d", lowerAtLeast<3>, "a tensor or a list", "+reshape +unsqueeze");
    r.add("aten::broadcast_to", lowerExpand, "as tile", "tile");
    r.add("aten::broadcast_tensors", lowerBroadcastTensors, "static broadcast axes; as tile",
          "+tile +copy");
    r.add("aten::hstack", lowerHstack, "tensors made at least 1-D, then concat",
          "+concat +copy +unsqueeze +reshape");
    r.add("aten::vstack", lowerVstack, "tensors made at least 2-D, then concat",
          "+concat +copy +unsqueeze +reshape");
    r.add("aten::dstack", lowerDstack, "tensors made at least 3-D, then concat",
          "+concat +copy +unsqueeze +reshape");
    r.add("aten::column_stack", lowerColumnStack, "vectors as columns, then concat",
          "+concat +copy +unsqueeze +reshape");
    // The *_copy forms (functionalized graphs) compute what their views do.
    r.add("aten::view_copy", lowerViewCopy, "as view; not the dtype form", "reshape");
    r.add("aten::permute_copy", lowerPermute, "as permute", "transpose");
    r.add("aten::transpose_copy", lowerTranspose, "as transpose", "+transpose");
    r.add("aten::squeeze_copy", lowerSqueeze, "as squeeze", "+squeeze");
    r.add("aten::unsqueeze_copy", lowerUnsqueeze, "as unsqueeze", "unsqueeze");
    r.add("aten::expand_copy", lowerExpand, "as expand", "+tile");
    r.add("aten::alias_copy", lowerIdentity, "identity", "-");
    r.add("aten::detach_copy", lowerIdentity, "identity", "-");
    r.add("aten::contiguous", lowerIdentity, "identity");
    r.add("aten::clone", lowerIdentity, "identity");
    r.add("aten::detach", lowerIdentity, "identity");
    r.add("aten::alias", lowerIdentity, "identity");
    r.add("prim::unchecked_cast", lowerIdentity, "identity (an Optional refinement)");
    // The in-place forms (dropout_, ...) find these entries through the registry.
    for (const char* kind : {"aten::dropout", "aten::feature_dropout", "aten::alpha_dropout",
                             "aten::feature_alpha_dropout"})
        r.add(kind, lowerDropout, "identity in eval mode, or when p = 0");
    r.add("aten::native_dropout", lowerNativeDropout,
          "identity in eval mode, or when p = 0; mask unused", "-");
    r.add("aten::to", lowerCast, "tract_core_cast when the dtype changes");
    r.add("aten::as_tensor", lowerCast, "of a tensor: tract_core_cast when the dtype changes",
          "+tract_core_cast");
    r.add("aten::cpu", lowerIdentity, "identity (every tensor is on the CPU)", "-");
    r.add("aten::type_as", lowerCast, "tract_core_cast when the dtype changes");
    r.add("aten::_to_copy", lowerCast, "tract_core_cast when the dtype changes");
}

} // namespace t2n::translate
