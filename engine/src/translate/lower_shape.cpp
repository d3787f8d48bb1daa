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

// The target shape of a reshape. Axes whose size follows a dynamic axis
// (recorded as a symbol) keep it: 0 copies the input's axis at the same
// position, and one remaining dynamic axis can be inferred with -1.
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
        ctx.warn(fmt::format("reshape to [{}] depends on dynamic axes in a way t2n cannot express "
                             "yet; the sizes of the example were kept",
                             fmt::join(y.shape, ", ")));
    return shape;
}

void lowerReshape(Context& ctx) {
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

// expand / expand_as: pad the rank, then tile the unit axes that grow.
void lowerExpand(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& y = ctx.out();
    const int64_t r = rankOf(y);
    Expr e = ctx.operand(ctx.node().inputs[0], r, y.dtype);
    std::vector<int64_t> repeats;
    bool any = false;
    const int64_t offset = r - rankOf(x);
    for (int64_t d = 0; d < r; ++d) {
        int64_t in = d < offset ? 1 : x.shape[static_cast<size_t>(d - offset)];
        int64_t out = y.shape[static_cast<size_t>(d)];
        if (!y.symbols.empty() && !y.symbols[static_cast<size_t>(d)].empty() && in == 1 && out != 1)
            ctx.warn(fmt::format("expand along dynamic axis {} uses the example size {}", d, out));
        repeats.push_back(in == out ? 1 : out);
        any = any || in != out;
    }
    if (!any) {
        if (e.isIdentifier() && rankOf(x) == r)
            ctx.bindOut(e);
        else
            ctx.emitOut("copy", {e});
        return;
    }
    ctx.emitOut("tile", {e}, {{"repeats", Expr::ints(repeats)}});
}

// repeat(x, repeats): tile after padding the rank to len(repeats).
void lowerRepeat(Context& ctx) {
    std::vector<int64_t> repeats = ctx.intsArg(1);
    Expr e =
        ctx.operand(ctx.node().inputs[0], static_cast<int64_t>(repeats.size()), ctx.out().dtype);
    ctx.emitOut("tile", {e}, {{"repeats", Expr::ints(repeats)}});
}

} // namespace

void registerShapeOps(Registry& r) {
    r.beginFamily("shape");
    r.add("aten::view", lowerReshape, "dynamic axes kept when they map to the same position");
    r.add("aten::reshape", lowerReshape, "dynamic axes kept when they map to the same position");
    r.add("aten::flatten", lowerFlatten);
    r.add("aten::permute", lowerPermute);
    r.add("aten::transpose", lowerTranspose);
    r.add("aten::squeeze", lowerSqueeze);
    r.add("aten::unsqueeze", lowerUnsqueeze);
    r.add("aten::expand", lowerExpand, "as tile");
    r.add("aten::expand_as", lowerExpand, "as tile");
    r.add("aten::repeat", lowerRepeat, "as tile");
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
