// Linear resampling (upsample_linear1d / bilinear2d / trilinear3d) whose
// sizes follow a symbol: F.interpolate(x, scale_factor=2, mode="linear") of a
// dynamic axis, or a size computed from x.shape.
//
// The static lowering (lower_layout.cpp) writes each output item's source
// index and weight as tables, which hold the example's size. Here the same
// numbers are computed in the graph from the sizes, one axis at a time, with
// PyTorch's formulas (ATen/native/UpSample.h: area_pixel_compute_scale,
// area_pixel_compute_source_index, compute_source_index_and_lambda):
//
//   scale = align ? (in - 1) / (out - 1) : 1 / factor, or else in / out (f32)
//   src   = align ? i * scale : max((i + 0.5) * scale - 0.5, 0),  i = 0 .. out - 1
//   lo    = floor(src), hi = min(lo + 1, in - 1), w = src - lo
//   y     = x[lo] * (1 - w) + x[hi] * w
//
// i is tract_core_range over the output size's expression, so the archive
// follows the symbol. PyTorch computes (i + 0.5) * scale - 0.5 in double and
// rounds once to f32; the graph rounds each step in f32, so src may differ by
// one f32 step (the static tables round the same way as the graph).
#include "translate/lower_resample_linear_symbolic.h"
#include "translate/lower_util.h"

#include <cmath>
#include <fmt/format.h>

namespace t2n::translate {

namespace {

int64_t probeSize(const ir::Value& v, size_t a) {
    return a < v.probeShape.size() ? v.probeShape[a] : v.shape[a];
}

// The output size of axis `a` from a scale factor: PyTorch's
// floor(in * factor) (upsample::compute_output_size) as the integer
// expression (in * p) / q, for a factor that is p / q exactly with q a power
// of two (2, 1.5, 0.5 ...); other factors have no exact integer form.
Expr sizeFromFactor(Context& ctx, Expr in, double factor, size_t a) {
    int64_t q = 1;
    while (q < 1024 &&
           factor * static_cast<double>(q) != std::floor(factor * static_cast<double>(q)))
        q *= 2;
    const double p = factor * static_cast<double>(q);
    if (factor <= 0 || p != std::floor(p))
        ctx.unsupported(
            fmt::format("linear resampling of axis {} by a scale factor of {} along a dynamic "
                        "axis: floor(size * {}) has no exact integer expression",
                        a, factor, factor),
            "give the output size as an expression of x.shape (size=...), or a scale factor "
            "that is a fraction with a power-of-two denominator (2, 1.5, 0.5)");
    Expr e = Expr::binary("*", std::move(in), Expr::i(static_cast<int64_t>(p)));
    return q == 1 ? e : Expr::binary("/", e, Expr::i(q));
}

// An integer size expression as an f32 scalar tensor (a literal when fixed).
Expr floatSize(Context& ctx, Expr size, const std::string& suffix) {
    if (size.kind == Expr::Kind::Integer)
        return Expr::f(static_cast<double>(size.integer));
    return ctx.emitTemp("tract_core_cast", {std::move(size)}, {{"to", Expr::str("f32")}}, suffix);
}

// size - 1, folded into a literal or a trailing "- c" (T * 2 - 1 - 1 reads
// as T * 2 - 2).
Expr minusOne(Expr e) {
    if (e.kind == Expr::Kind::Integer)
        return Expr::i(e.integer - 1);
    if (e.kind == Expr::Kind::Binary && e.text == "-" && e.items[1].kind == Expr::Kind::Integer)
        return Expr::binary("-", e.items[0], Expr::i(e.items[1].integer + 1));
    return Expr::binary("-", std::move(e), Expr::i(1));
}

// [n] -> [1, .., n, .., 1]: the item axis at `a` of a rank-r tensor.
Expr alongAxis(Context& ctx, Expr w, int64_t r, int64_t a, const std::string& suffix) {
    std::vector<int64_t> axes;
    for (int64_t i = 0; i < r; ++i)
        if (i != a)
            axes.push_back(i);
    return axes.empty()
               ? w
               : ctx.emitTemp("unsqueeze", {std::move(w)}, {{"axes", Expr::ints(axes)}}, suffix);
}

struct AxisSizes {
    int64_t axis = 0;
    Expr in, out;      ///< integer expressions
    double factor = 0; ///< the scale factor given, 0 when none
};

// One axis of `e` resampled from in to out items; the node's output when last.
Expr resampleAxis(Context& ctx, Expr e, const AxisSizes& s, bool align, bool last) {
    const int64_t r = rankOf(ctx.in(0));
    const std::string tag = fmt::format("axis{}", s.axis);
    auto temp = [&](const char* op, std::vector<Expr> args, const std::string& name) {
        return ctx.emitTemp(op, std::move(args), {}, name + "_" + tag);
    };
    // PyTorch's scale, in f32.
    Expr inLast = floatSize(ctx, minusOne(s.in), "in_last_" + tag);
    Expr scale;
    if (align) {
        Expr outLast =
            s.out.kind == Expr::Kind::Integer
                ? Expr::f(static_cast<double>(std::max<int64_t>(s.out.integer - 1, 1)))
                : temp("max", {floatSize(ctx, minusOne(s.out), "out_last_" + tag), Expr::f(1.0)},
                       "out_last_nonzero");
        // out == 1: PyTorch's scale is 0; (in - 1) / 1 reads item 0 the same.
        scale = temp("div", {inLast, outLast}, "scale");
    } else if (s.factor > 0) {
        scale = Expr::f(static_cast<double>(static_cast<float>(1.0 / s.factor)));
    } else {
        scale =
            temp("div",
                 {floatSize(ctx, s.in, "in_size_" + tag), floatSize(ctx, s.out, "out_size_" + tag)},
                 "scale");
    }
    Expr items =
        ctx.emitTemp("tract_core_range", {Expr::i(0), s.out, Expr::i(1)}, {}, "items_" + tag);
    // TDim items before tract 0.21.12 (lower_factories.cpp): made numbers.
    items = ctx.emitTemp("tract_core_cast", {items}, {{"to", Expr::str("f32")}}, "position_" + tag);
    Expr src;
    if (align) {
        src = temp("mul", {items, scale}, "source");
    } else {
        Expr centre = temp("add", {items, Expr::f(0.5)}, "centre");
        Expr scaled = temp("mul", {centre, scale}, "scaled");
        Expr shifted = temp("sub", {scaled, Expr::f(0.5)}, "shifted");
        src = temp("max", {shifted, Expr::f(0.0)}, "source");
    }
    // Indices in f32 (exact below 2^24 items), cast once: integer literals
    // would reach tract as TDim, which its i64 arithmetic does not take.
    Expr lo = temp("floor", {src}, "lo_position");
    Expr hi =
        temp("min", {temp("add", {lo, Expr::f(1.0)}, "next_position"), inLast}, "hi_position");
    Expr w1 = temp("sub", {src, lo}, "hi_weight_items");
    Expr w0 = temp("sub", {Expr::f(1.0), w1}, "lo_weight_items");
    auto index = [&](Expr p, const std::string& name) {
        return ctx.emitTemp("tract_core_cast", {std::move(p)}, {{"to", Expr::str("i64")}},
                            name + "_" + tag);
    };
    auto gather = [&](Expr idx, const std::string& name) {
        return ctx.emitTemp("tract_core_gather", {e, std::move(idx)}, {{"axis", Expr::i(s.axis)}},
                            name + "_" + tag);
    };
    Expr a0 = temp(
        "mul",
        {gather(index(lo, "lo_index"), "lo"), alongAxis(ctx, w0, r, s.axis, "lo_weight_" + tag)},
        "wlo");
    Expr a1 = temp(
        "mul",
        {gather(index(hi, "hi_index"), "hi"), alongAxis(ctx, w1, r, s.axis, "hi_weight_" + tag)},
        "whi");
    return emitStep(ctx, last, "add", {a0, a1}, {}, "lerp_" + tag);
}

} // namespace

bool linearResampleFollowingSymbols(Context& ctx, const std::vector<double>& factors) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& out = ctx.out();
    const int64_t r = rankOf(x);
    bool symbolic = false;
    for (int64_t a = 2; a < r; ++a)
        symbolic = symbolic || dynamicAxis(x, a) || dynamicAxis(out, a);
    if (!symbolic)
        return false;
    if (out.dtype != DType::F32)
        ctx.unsupported("linear resampling of a non-f32 tensor");
    const bool align = ctx.boolArg(2);
    std::vector<Expr> given;
    if (!ctx.isNone(1))
        given = ctx.sizesArg(1); // checked against the sizes at both probe sizes
    std::vector<AxisSizes> axes;
    for (int64_t a = 2; a < r; ++a) {
        const auto k = static_cast<size_t>(a);
        AxisSizes s;
        s.axis = a;
        s.in = ctx.dimExpr(ctx.node().inputs[0], a);
        s.factor = k - 2 < factors.size() ? factors[k - 2] : 0.0;
        if (k - 2 < given.size()) {
            s.out = given[k - 2];
        } else {
            s.out = sizeFromFactor(ctx, s.in, s.factor, k);
            // The expression must give the recorded sizes (PyTorch's rounding).
            const auto at = [&](int64_t in) {
                const double v = std::floor(static_cast<double>(in) * s.factor);
                return static_cast<int64_t>(v);
            };
            if (at(x.shape[k]) != out.shape[k] || at(probeSize(x, k)) != probeSize(out, k))
                ctx.unsupported(fmt::format("linear resampling of axis {}: the output sizes "
                                            "{} and {} are not floor(size * {})",
                                            a, out.shape[k], probeSize(out, k), s.factor));
        }
        // PyTorch copies an axis whose size does not change (without
        // align_corners); a size that changes at one probe size only has no
        // one graph.
        const bool same = x.shape[k] == out.shape[k];
        if (same != (probeSize(x, k) == probeSize(out, k)))
            ctx.unsupported(fmt::format("linear resampling of axis {}: its output size equals "
                                        "its input size at one of the two probe sizes only",
                                        a),
                            "keep this axis static, or give a size that always differs");
        if (align || !same)
            axes.push_back(std::move(s));
    }
    Expr e = ctx.input(0);
    for (size_t k = 0; k < axes.size(); ++k)
        e = resampleAxis(ctx, e, axes[k], align, k + 1 == axes.size());
    if (axes.empty())
        ctx.bindOut(e);
    return true;
}

} // namespace t2n::translate
