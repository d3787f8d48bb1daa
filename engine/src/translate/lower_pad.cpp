// Padding. PyTorch lists pads from the last axis backwards as (before,
// after) pairs; negative pads crop. tract calls the 'replicate' border
// 'replicated'; circular padding is spelled out with slices and concat.
#include "translate/lower_util.h"
#include "translate/registry.h"

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

// constant_pad_nd(x, pad, value)
void lowerConstantPad(Context& ctx) {
    emitPad(ctx, ctx.intsArg(1), "constant", ctx.numInputs() > 2 ? ctx.floatArg(2) : 0.0);
}

// pad(x, pad, mode, value)
void lowerPad(Context& ctx) {
    std::string mode = ctx.numInputs() > 2 ? ctx.stringArg(2) : "constant";
    double value = ctx.numInputs() > 3 && !ctx.isNone(3) ? ctx.floatArg(3) : 0.0;
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
    r.add("aten::constant_pad_nd", lowerConstantPad, "negative pads crop");
    r.add("aten::pad", lowerPad, "constant, reflect, replicate, circular");
    for (const char* k :
         {"aten::reflection_pad1d", "aten::reflection_pad2d", "aten::reflection_pad3d"})
        r.add(k, lowerReflectionPad);
    for (const char* k :
         {"aten::replication_pad1d", "aten::replication_pad2d", "aten::replication_pad3d"})
        r.add(k, lowerReplicationPad, "border 'replicated' (tract's spelling)");
}

} // namespace t2n::translate
