// Linear and cubic resampling (upsample_linear1d / bilinear2d / trilinear3d,
// upsample_bicubic2d) whose sizes follow a symbol:
// F.interpolate(x, scale_factor=2, mode="bilinear") of a dynamic axis, or a
// size computed from x.shape.
//
// The static lowerings (lower_layout.cpp) write each output item's source
// indices and weights as tables, which hold the example's size. Here the same
// numbers are computed in the graph from the sizes, one axis at a time, with
// PyTorch's formulas (ATen/native/UpSample.h: area_pixel_compute_scale,
// area_pixel_compute_source_index, compute_source_index_and_lambda,
// get_cubic_upsample_coefficients):
//
//   scale = align ? (in - 1) / (out - 1) : 1 / factor, or else in / out (f32)
//   src   = align ? i * scale : (i + 0.5) * scale - 0.5,  i = 0 .. out - 1
//           (without a factor: (i + 0.5) * in / out - 0.5, see sourcePositions)
//   linear: src = max(src, 0), lo = floor(src), hi = min(lo + 1, in - 1),
//           w = src - lo, y = x[lo] * (1 - w) + x[hi] * w
//   cubic:  b = floor(src), t = src - b, taps b-1 .. b+2 clamped to [0, in-1],
//           weights far(t+1), near(t), near(1-t), far(2-t) (A = -0.75)
//
// i is tract_core_range over the output size's expression, so the archive
// follows the symbol. PyTorch computes (i + 0.5) * scale - 0.5 in double and
// rounds once to f32; the graph rounds each step in f32, so src may differ by
// one f32 step (the static tables round the same way as the graph).
#include "translate/lower_resample_symbolic.h"
#include "translate/lower_util.h"

#include <array>
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
Expr sizeFromFactor(Context& ctx, Expr in, double factor, size_t a, const char* what) {
    int64_t q = 1;
    while (q < 1024 &&
           factor * static_cast<double>(q) != std::floor(factor * static_cast<double>(q)))
        q *= 2;
    const double p = factor * static_cast<double>(q);
    if (factor <= 0 || p != std::floor(p))
        ctx.unsupported(
            fmt::format("{} resampling of axis {} by a scale factor of {} along a dynamic "
                        "axis: floor(size * {}) has no exact integer expression",
                        what, a, factor, factor),
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

const char* kernelName(ResampleKernel k) {
    return k == ResampleKernel::Cubic ? "bicubic" : "linear";
}

// One axis's tap arithmetic, in f32 temporaries named after the axis.
class AxisGraph {
public:
    AxisGraph(Context& ctx, Expr e, const AxisSizes& s)
        : ctx_(ctx), e_(std::move(e)), s_(s), r_(rankOf(ctx.in(0))),
          tag_(fmt::format("axis{}", s.axis)),
          inLast_(floatSize(ctx, minusOne(s.in), "in_last_" + tag_)) {}

    Expr op(const char* name, std::vector<Expr> args, const std::string& what) {
        return ctx_.emitTemp(name, std::move(args), {}, what + "_" + tag_);
    }
    Expr mul(Expr a, Expr b, const std::string& what) { return op("mul", {a, b}, what); }
    Expr add(Expr a, Expr b, const std::string& what) { return op("add", {a, b}, what); }
    Expr sub(Expr a, Expr b, const std::string& what) { return op("sub", {a, b}, what); }

    /// in - 1, the last item's position, as an f32 scalar.
    const Expr& inLast() const { return inLast_; }

    // PyTorch's source position of every output item, before the kernel's
    // clamping: align ? i * scale : (i + 0.5) * scale - 0.5.
    Expr sourcePositions(bool align) {
        Expr scale;
        if (align) {
            Expr outLast =
                s_.out.kind == Expr::Kind::Integer
                    ? Expr::f(static_cast<double>(std::max<int64_t>(s_.out.integer - 1, 1)))
                    : op("max",
                         {floatSize(ctx_, minusOne(s_.out), "out_last_" + tag_), Expr::f(1.0)},
                         "out_last_nonzero");
            // out == 1: PyTorch's scale is 0; (in - 1) / 1 reads item 0 the same.
            scale = op("div", {inLast(), outLast}, "scale");
        } else if (s_.factor > 0) {
            scale = Expr::f(static_cast<double>(static_cast<float>(1.0 / s_.factor)));
        }
        Expr items = ctx_.emitTemp("tract_core_range", {Expr::i(0), s_.out, Expr::i(1)}, {},
                                   "items_" + tag_);
        // TDim items before tract 0.21.12 (lower_factories.cpp): made numbers.
        items = ctx_.emitTemp("tract_core_cast", {items}, {{"to", Expr::str("f32")}},
                              "position_" + tag_);
        if (align)
            return mul(items, scale, "source");
        Expr centre = add(items, Expr::f(0.5), "centre");
        Expr scaled;
        if (s_.factor > 0) {
            scaled = mul(centre, scale, "scaled");
        } else {
            // (i + 0.5) * in / out, not (i + 0.5) * (in / out): tract 0.23.5
            // carries each cast size's expression beside its value
            // (TypedFact::uniform_tdim) and combines two of them in TDim's
            // integer arithmetic, so in / out of out = 2 * in became the
            // constant 0 and its declutter replaced the product by zeros
            // (declutter_absorbing). The centres are no size, so neither
            // product nor quotient has an expression to fold.
            scaled = op("div",
                        {mul(centre, floatSize(ctx_, s_.in, "in_size_" + tag_), "stretched"),
                         floatSize(ctx_, s_.out, "out_size_" + tag_)},
                        "scaled");
        }
        return sub(scaled, Expr::f(0.5), "shifted");
    }

    // x gathered at the f32 positions `p` along the axis, times the weights
    // `w` (one per output item). Positions stay f32 (exact below 2^24 items)
    // until one cast: integer literals would reach tract as TDim, which its
    // i64 arithmetic does not take.
    Expr weightedTap(Expr p, Expr w, const std::string& what) {
        Expr index = ctx_.emitTemp("tract_core_cast", {std::move(p)}, {{"to", Expr::str("i64")}},
                                   what + "_index_" + tag_);
        Expr tap = ctx_.emitTemp("tract_core_gather", {e_, std::move(index)},
                                 {{"axis", Expr::i(s_.axis)}}, what + "_" + tag_);
        return mul(tap, alongAxis(ctx_, std::move(w), r_, s_.axis, what + "_weight_" + tag_),
                   "w" + what);
    }

    const std::string& tag() const { return tag_; }

private:
    Context& ctx_;
    Expr e_;
    const AxisSizes& s_;
    int64_t r_;
    std::string tag_;
    Expr inLast_;
};

// One axis of `e` resampled linearly; the node's output when last.
Expr linearAxis(Context& ctx, Expr e, const AxisSizes& s, bool align, bool last) {
    AxisGraph g(ctx, std::move(e), s);
    Expr src = g.sourcePositions(align);
    if (!align)
        src = g.op("max", {src, Expr::f(0.0)}, "source");
    Expr lo = g.op("floor", {src}, "lo_position");
    Expr hi = g.op("min", {g.add(lo, Expr::f(1.0), "next_position"), g.inLast()}, "hi_position");
    Expr w1 = g.sub(src, lo, "hi_weight_items");
    Expr w0 = g.sub(Expr::f(1.0), w1, "lo_weight_items");
    Expr a0 = g.weightedTap(lo, w0, "lo");
    Expr a1 = g.weightedTap(hi, w1, "hi");
    return emitStep(ctx, last, "add", {a0, a1}, {}, "lerp_" + g.tag());
}

// One axis of `e` resampled by cubic convolution; the node's output when last.
Expr cubicAxis(Context& ctx, Expr e, const AxisSizes& s, bool align, bool last) {
    AxisGraph g(ctx, std::move(e), s);
    Expr src = g.sourcePositions(align); // not clamped at 0 for cubic
    Expr base = g.op("floor", {src}, "base_position");
    Expr t = g.sub(src, base, "fraction");
    // get_cubic_upsample_coefficients with A = -0.75, in the static
    // lowering's order of operations (cubicWeights, lower_layout.cpp).
    const double a = -0.75;
    auto nearW = [&](Expr x, const std::string& what) { // ((A+2)x - (A+3)) x x + 1
        Expr p = g.sub(g.mul(Expr::f(a + 2), x, what + "_a"), Expr::f(a + 3), what + "_b");
        return g.add(g.mul(g.mul(p, x, what + "_c"), x, what + "_d"), Expr::f(1.0), what);
    };
    auto farW = [&](Expr x, const std::string& what) { // ((Ax - 5A) x + 8A) x - 4A
        Expr p = g.sub(g.mul(Expr::f(a), x, what + "_a"), Expr::f(5 * a), what + "_b");
        Expr q = g.add(g.mul(p, x, what + "_c"), Expr::f(8 * a), what + "_d");
        return g.sub(g.mul(q, x, what + "_e"), Expr::f(4 * a), what);
    };
    const std::array<Expr, 4> weights = {
        farW(g.add(t, Expr::f(1.0), "t_plus_1"), "tap0_weight_items"),
        nearW(t, "tap1_weight_items"),
        nearW(g.sub(Expr::f(1.0), t, "one_minus_t"), "tap2_weight_items"),
        farW(g.sub(Expr::f(2.0), t, "two_minus_t"), "tap3_weight_items")};
    Expr sum;
    for (size_t j = 0; j < 4; ++j) {
        const std::string tap = fmt::format("tap{}", j);
        // PyTorch reads taps outside the axis at its edges
        // (upsample_get_value_bounded).
        Expr p = j == 1 ? base : g.add(base, Expr::f(static_cast<double>(j) - 1.0), tap + "_at");
        p = g.op("min", {g.op("max", {p, Expr::f(0.0)}, tap + "_from_start"), g.inLast()},
                 tap + "_position");
        Expr term = g.weightedTap(p, weights[j], tap);
        sum = j == 0 ? term
                     : emitStep(ctx, j == 3 && last, "add", {sum, term}, {},
                                fmt::format("cubic{}_{}", j, g.tag()));
    }
    return sum;
}

} // namespace

bool resampleFollowingSymbols(Context& ctx, const std::vector<double>& factors,
                              ResampleKernel kernel) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& out = ctx.out();
    const int64_t r = rankOf(x);
    const char* what = kernelName(kernel);
    bool symbolic = false;
    for (int64_t a = 2; a < r; ++a)
        symbolic = symbolic || dynamicAxis(x, a) || dynamicAxis(out, a);
    if (!symbolic)
        return false;
    if (out.dtype != DType::F32)
        ctx.unsupported(fmt::format("{} resampling of a non-f32 tensor", what));
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
            s.out = sizeFromFactor(ctx, s.in, s.factor, k, what);
            // The expression must give the recorded sizes (PyTorch's rounding).
            const auto at = [&](int64_t in) {
                const double v = std::floor(static_cast<double>(in) * s.factor);
                return static_cast<int64_t>(v);
            };
            if (at(x.shape[k]) != out.shape[k] || at(probeSize(x, k)) != probeSize(out, k))
                ctx.unsupported(fmt::format("{} resampling of axis {}: the output sizes "
                                            "{} and {} are not floor(size * {})",
                                            what, a, out.shape[k], probeSize(out, k), s.factor));
        }
        // PyTorch copies an axis whose size does not change (without
        // align_corners; the cubic weights are then exactly 0, 1, 0, 0); a
        // size that changes at one probe size only has no one graph.
        const bool same = x.shape[k] == out.shape[k];
        if (same != (probeSize(x, k) == probeSize(out, k)))
            ctx.unsupported(fmt::format("{} resampling of axis {}: its output size equals "
                                        "its input size at one of the two probe sizes only",
                                        what, a),
                            "keep this axis static, or give a size that always differs");
        if (align || !same)
            axes.push_back(std::move(s));
    }
    Expr e = ctx.input(0);
    for (size_t k = 0; k < axes.size(); ++k) {
        const bool last = k + 1 == axes.size();
        e = kernel == ResampleKernel::Cubic ? cubicAxis(ctx, e, axes[k], align, last)
                                            : linearAxis(ctx, e, axes[k], align, last);
    }
    if (axes.empty())
        ctx.bindOut(e);
    return true;
}

} // namespace t2n::translate
