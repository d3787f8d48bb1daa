// Padding. PyTorch lists pads from the last axis backwards as (before,
// after) pairs; negative pads crop. tract calls the 'replicate' border
// 'replicated'; circular padding is spelled out with slices and concat.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>

namespace t2n::translate {

namespace {

struct Pads {
    std::vector<std::pair<int64_t, int64_t>> perAxis; // all axes, leading ones (0, 0)
};

Pads torchPads(Context& ctx, const std::vector<int64_t>& flat, int64_t rank) {
    if (flat.size() % 2 || static_cast<int64_t>(flat.size() / 2) > rank)
        ctx.unsupported(fmt::format("{} pad values for a rank-{} tensor", flat.size(), rank));
    Pads p;
    p.perAxis.assign(static_cast<size_t>(rank), {0, 0});
    for (size_t i = 0; i < flat.size() / 2; ++i)
        p.perAxis[static_cast<size_t>(rank) - 1 - i] = {flat[2 * i], flat[2 * i + 1]};
    return p;
}

Expr padArray(const Pads& p) {
    std::vector<Expr> items;
    for (auto [b, a] : p.perAxis)
        items.push_back(Expr::tuple({Expr::i(b), Expr::i(a)}));
    return Expr::array(std::move(items));
}

// Crops the negative pads with slices and zeroes them in `p`.
Expr cropNegative(Context& ctx, Expr x, Pads& p) {
    const ir::Value& v = ctx.in(0);
    for (size_t d = 0; d < p.perAxis.size(); ++d) {
        auto& [b, a] = p.perAxis[d];
        if (b >= 0 && a >= 0)
            continue;
        int64_t n = v.shape[d];
        int64_t begin = b < 0 ? -b : 0, end = a < 0 ? n + a : n;
        x = ctx.emitTemp("slice", {x}, sliceArgs(static_cast<int64_t>(d), begin, end), "crop");
        b = std::max<int64_t>(b, 0);
        a = std::max<int64_t>(a, 0);
    }
    return x;
}

// Wraps each axis: concat(x[n-b:], x, x[:a]).
void emitCircular(Context& ctx, Expr x, const Pads& p) {
    const ir::Value& v = ctx.in(0);
    std::vector<size_t> axes;
    for (size_t d = 0; d < p.perAxis.size(); ++d)
        if (p.perAxis[d].first || p.perAxis[d].second)
            axes.push_back(d);
    if (axes.empty()) {
        ctx.bindOut(x);
        return;
    }
    for (size_t k = 0; k < axes.size(); ++k) {
        size_t d = axes[k];
        auto [b, a] = p.perAxis[d];
        int64_t n = v.shape[d];
        if (b > n || a > n)
            ctx.unsupported("circular padding larger than the axis");
        std::vector<Expr> parts;
        auto axis = static_cast<int64_t>(d);
        if (b > 0)
            parts.push_back(ctx.emitTemp("slice", {x}, sliceArgs(axis, n - b, n), "wrap_before"));
        parts.push_back(x);
        if (a > 0)
            parts.push_back(ctx.emitTemp("slice", {x}, sliceArgs(axis, 0, a), "wrap_after"));
        x = emitStep(ctx, k + 1 == axes.size(), "concat", {Expr::array(parts)},
                     {{"axis", Expr::i(axis)}}, "wrapped");
    }
}

void emitPad(Context& ctx, std::vector<int64_t> flat, const std::string& mode, double value) {
    const int64_t rank = rankOf(ctx.in(0));
    Pads p = torchPads(ctx, flat, rank);
    Expr x = cropNegative(ctx, ctx.input(0), p);
    if (mode == "circular") {
        emitCircular(ctx, x, p);
        return;
    }
    bool any = false;
    for (auto [b, a] : p.perAxis)
        any = any || b || a;
    if (!any) { // nothing to pad (perhaps only cropped)
        ctx.bindOut(x);
        return;
    }
    std::string border = mode == "constant"    ? "constant"
                         : mode == "reflect"   ? "reflect"
                         : mode == "replicate" ? std::string(ctx.target().replicateBorder())
                                               : "";
    if (border.empty())
        ctx.unsupported(fmt::format("padding mode '{}'", mode));
    Kwargs k{{"padding", padArray(p)}, {"border", Expr::str(border)}};
    if (border == "constant")
        k.emplace_back("value", Context::scalarLiteral(value, ctx.out().dtype));
    ctx.emitOut("pad", {x}, std::move(k));
}

bool isZero(const Expr& e) {
    return e.kind == Expr::Kind::Integer && e.integer == 0;
}

// A constant pad by amounts that follow a dynamic axis (pad to a multiple of
// the window, (ws - H % ws) % ws, in Swin-like and chunked models). tract's
// pad takes integers only, so each padded side is a block of the fill value
// broadcast to the symbolic shape (tract_core_broadcast) and concatenated;
// an amount that is 0 at run time gives an empty block.
void emitComputedConstantPad(Context& ctx, const std::vector<Expr>& flat, double value) {
    const ir::ValueId xid = ctx.node().inputs[0];
    const int64_t rank = rankOf(ctx.in(0));
    if (flat.size() % 2 || static_cast<int64_t>(flat.size() / 2) > rank)
        ctx.unsupported(fmt::format("{} pad values for a rank-{} tensor", flat.size(), rank));
    if (!std::isfinite(value))
        ctx.unsupported("a non-finite pad value with amounts computed from a dynamic axis");
    for (const Expr& e : flat)
        if (e.kind == Expr::Kind::Integer && e.integer < 0)
            ctx.unsupported("a negative pad with amounts computed from a dynamic axis");
    const DType dt = ctx.out().dtype;
    const Expr fill = Context::scalarLiteral(value, dt);
    const bool exact = dt == DType::F32 && fill.kind == Expr::Kind::Scalar;
    std::vector<Expr> dims;
    for (int64_t d = 0; d < rank; ++d)
        dims.push_back(ctx.dimExpr(xid, d));
    Expr x = ctx.input(0);
    for (size_t i = 0; i < flat.size() / 2; ++i) {
        const auto axis = static_cast<size_t>(rank) - 1 - i;
        const Expr &before = flat[2 * i], &after = flat[2 * i + 1];
        if (isZero(before) && isZero(after))
            continue;
        auto block = [&](const Expr& amount, const char* suffix) {
            std::vector<Expr> shape = dims;
            shape[axis] = amount;
            Expr b = ctx.emitTemp("tract_core_broadcast", {unitTensorLiteral(fill, rank)},
                                  {{"shape", Expr::array(std::move(shape))}}, suffix);
            if (!exact)
                b = ctx.emitTemp("tract_core_cast", {b},
                                 {{"to", Expr::str(std::string(dtypeName(dt)))}}, suffix);
            return b;
        };
        std::vector<Expr> parts;
        if (!isZero(before))
            parts.push_back(block(before, "pad_before"));
        parts.push_back(x);
        if (!isZero(after))
            parts.push_back(block(after, "pad_after"));
        x = ctx.emitTemp("concat", {Expr::array(std::move(parts))},
                         {{"axis", Expr::i(static_cast<int64_t>(axis))}}, "padded");
        if (!isZero(before))
            dims[axis] = Expr::binary("+", dims[axis], before);
        if (!isZero(after))
            dims[axis] = Expr::binary("+", dims[axis], after);
    }
    ctx.bindOut(x);
}

// constant_pad_nd(x, pad, value)
void lowerConstantPad(Context& ctx) {
    const double value = ctx.numInputs() > 2 ? ctx.floatArg(2) : 0.0;
    if (ctx.isSymbolic(1)) {
        emitComputedConstantPad(ctx, ctx.sizesArg(1), value);
        return;
    }
    emitPad(ctx, ctx.intsArg(1), "constant", value);
}

// pad(x, pad, mode, value)
void lowerPad(Context& ctx) {
    std::string mode = ctx.numInputs() > 2 ? ctx.stringArg(2) : "constant";
    double value = ctx.numInputs() > 3 && !ctx.isNone(3) ? ctx.floatArg(3) : 0.0;
    if (ctx.isSymbolic(1)) {
        if (mode != "constant")
            ctx.unsupported(
                fmt::format("'{}' padding by amounts computed from a dynamic axis", mode),
                "constant padding follows computed amounts");
        emitComputedConstantPad(ctx, ctx.sizesArg(1), value);
        return;
    }
    emitPad(ctx, ctx.intsArg(1), mode, value);
}

void lowerReflectionPad(Context& ctx) {
    emitPad(ctx, ctx.intsArg(1), "reflect", 0);
}
void lowerReplicationPad(Context& ctx) {
    emitPad(ctx, ctx.intsArg(1), "replicate", 0);
}

} // namespace

void registerPadOps(Registry& r) {
    r.beginFamily("pad");
    r.add("aten::constant_pad_nd", lowerConstantPad,
          "negative pads crop; amounts computed from a dynamic axis: blocks of the value "
          "(tract_core_broadcast) concatenated");
    r.add("aten::pad", lowerPad,
          "constant, reflect, replicate, circular; constant amounts computed from a dynamic "
          "axis: blocks of the value (tract_core_broadcast) concatenated");
    for (const char* k :
         {"aten::reflection_pad1d", "aten::reflection_pad2d", "aten::reflection_pad3d"})
        r.add(k, lowerReflectionPad);
    for (const char* k :
         {"aten::replication_pad1d", "aten::replication_pad2d", "aten::replication_pad3d"})
        r.add(k, lowerReplicationPad, "border 'replicated' (tract's spelling)");
}

} // namespace t2n::translate
