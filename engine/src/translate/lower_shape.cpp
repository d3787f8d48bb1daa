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
        if (in == 1 && dynamicOut && (asOther || !sizes.empty())) {
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
    for (const auto& s : y.symbols)
        if (!s.empty())
            ctx.unsupported("repeat_interleave of a tensor with a dynamic axis");
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
    ctx.emitOut("reshape", {t}, {{"shape", Expr::ints(y.shape)}});
}

} // namespace

void registerShapeOps(Registry& r) {
    r.beginFamily("shape");
    r.add("aten::view", lowerReshape, "sizes computed from a dynamic axis become expressions");
    r.add("aten::reshape", lowerReshape, "sizes computed from a dynamic axis become expressions");
    r.add("aten::flatten", lowerFlatten);
    r.add("aten::permute", lowerPermute);
    r.add("aten::transpose", lowerTranspose);
    r.add("aten::squeeze", lowerSqueeze);
    r.add("aten::unsqueeze", lowerUnsqueeze);
    r.add("aten::expand", lowerExpand, "as tile");
    r.add("aten::expand_as", lowerExpand, "as tile");
    r.add("aten::repeat", lowerRepeat, "as tile");
    r.add("aten::repeat_interleave", lowerRepeatInterleave,
          "one count for every item (int or constant tensor), static shape: unsqueeze, tile, "
          "reshape",
          "unsqueeze tile reshape");
    r.add("aten::contiguous", lowerIdentity, "identity");
    r.add("aten::clone", lowerIdentity, "identity");
    r.add("aten::detach", lowerIdentity, "identity");
    r.add("aten::alias", lowerIdentity, "identity");
    r.add("prim::unchecked_cast", lowerIdentity, "identity (an Optional refinement)");
    // The in-place forms (dropout_, ...) find these entries through the registry.
    for (const char* kind : {"aten::dropout", "aten::feature_dropout", "aten::alpha_dropout",
                             "aten::feature_alpha_dropout"})
        r.add(kind, lowerDropout, "identity in eval mode, or when p = 0");
    r.add("aten::to", lowerCast, "tract_core_cast when the dtype changes");
    r.add("aten::type_as", lowerCast, "tract_core_cast when the dtype changes");
    r.add("aten::_to_copy", lowerCast, "tract_core_cast when the dtype changes");
}

} // namespace t2n::translate
