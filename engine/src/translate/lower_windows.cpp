// Factories whose values are a formula of the position: eye, linspace,
// logspace, the signal windows (hann, hamming, bartlett, blackman, kaiser)
// and the FFT sample frequencies. With fixed sizes the IR builder folds them
// to constants and no lowering runs; these lowerings serve the forms whose
// size follows a dynamic axis (torch.hann_window(x.size(-1))): positions from
// tract_core_range over the size expression, then PyTorch's formula
// (aten/src/ATen/native/TensorFactories.cpp, SpectralOps.cpp), the size
// itself read as a float where the formula needs it.
#include "translate/lower_util.h"
#include "translate/registry.h"
#include "translate/special_functions.h"

#include <cmath>
#include <fmt/format.h>
#include <numbers>

namespace t2n::translate {

namespace {

// The size argument i as a 0-d tensor of dtype t (its expression cast), or a
// literal when it is fixed.
Expr sizeAs(Context& ctx, size_t i, DType t) {
    if (!ctx.isSymbolic(i))
        return lit(static_cast<double>(ctx.intArg(i)), t);
    return ctx.sizeTensor(ctx.node().inputs[i], t);
}

// [start, start + step, ...) below `end` (integer size expressions) as dtype t.
Expr positions(Context& ctx, Expr start, Expr end, Expr step, DType t, const std::string& tag) {
    Expr range =
        ctx.emitTemp("tract_core_range", {std::move(start), std::move(end), std::move(step)}, {},
                     tag + "_range");
    return ctx.emitTemp("tract_core_cast", {range}, {{"to", Expr::str(std::string(dtypeName(t)))}},
                        tag);
}

// eye(n, dtype, ...) / eye(n, m, dtype, ...): row number == column number.
void lowerEye(Context& ctx) {
    const bool square = ctx.numInputs() < 6;
    Expr n = ctx.sizeArg(0), m = square ? n : ctx.sizeArg(1);
    Expr rows = ctx.emitTemp(
        "unsqueeze",
        {ctx.emitTemp("tract_core_range", {Expr::i(0), n, Expr::i(1)}, {}, "rows_range")},
        {{"axes", Expr::ints({1})}}, "rows");
    Expr cols = ctx.emitTemp(
        "unsqueeze",
        {ctx.emitTemp("tract_core_range", {Expr::i(0), m, Expr::i(1)}, {}, "cols_range")},
        {{"axes", Expr::ints({0})}}, "cols");
    // The ranges' items may be TDim (tract before 0.21.12): cast them first.
    Expr r = ctx.emitTemp("tract_core_cast", {rows}, {{"to", Expr::str("i64")}}, "rows_i64");
    Expr c = ctx.emitTemp("tract_core_cast", {cols}, {{"to", Expr::str("i64")}}, "cols_i64");
    Expr diagonal = ctx.emitTemp("eq", {r, c}, {}, "diagonal");
    ctx.emitOut("tract_core_cast", {diagonal},
                {{"to", Expr::str(std::string(dtypeName(ctx.out().dtype)))}});
}

// linspace(start, end, steps, ...): start + i step below steps / 2, end - (steps
// - 1 - i) step from there, step = (end - start) / (steps - 1); logspace(start,
// end, steps, base, ...) is base to those powers.
template <bool Log> void lowerLinspace(Context& ctx) {
    if (!isFloat(ctx.out().dtype))
        ctx.unsupported(
            fmt::format("{} with an integer dtype over a dynamic size", ctx.node().kind));
    const DType t = ctx.out().dtype;
    const double start = ctx.floatArg(0), end = ctx.floatArg(1);
    Expr n = sizeAs(ctx, 2, t);
    Expr i = positions(ctx, Expr::i(0), ctx.sizeArg(2), Expr::i(1), t, "positions");
    Expr step = ctx.emitTemp(
        "div", {lit(end - start, t), ctx.emitTemp("sub", {n, lit(1.0, t)}, {}, "intervals")}, {},
        "step");
    Expr low = ctx.emitTemp(
        "add", {lit(start, t), ctx.emitTemp("mul", {i, step}, {}, "from_start")}, {}, "low");
    Expr back =
        ctx.emitTemp("sub", {ctx.emitTemp("sub", {n, lit(1.0, t)}, {}, "last"), i}, {}, "to_end");
    Expr high = ctx.emitTemp(
        "sub", {lit(end, t), ctx.emitTemp("mul", {back, step}, {}, "from_end")}, {}, "high");
    Expr half = ctx.emitTemp("lt", {i, ctx.emitTemp("div", {n, lit(2.0, t)}, {}, "half")}, {},
                             "first_half");
    Expr v = ctx.emitTemp("select", {half, low, high}, {}, Log ? "exponents" : "values");
    // steps == 1 gives [start] (the step is not defined).
    Expr one = ctx.emitTemp("eq", {n, lit(1.0, t)}, {}, "single");
    v = ctx.emitTemp("select", {one, lit(start, t), v}, {},
                     Log ? "exponents_single" : "values_single");
    if (Log)
        v = ctx.emitTemp("pow", {lit(ctx.floatArg(3), t), v}, {}, "powers");
    bindAs(ctx, v, t);
}

enum class WindowFunction { Hann, Hamming, Bartlett, Blackman, Kaiser };

// hann / hamming / bartlett / blackman / kaiser_window(n[, periodic[, a[, b]]],
// dtype, layout, device, pin_memory): positions i < n over N = n (periodic) or
// n - 1 (symmetric); n == 1 gives [1].
template <WindowFunction W> void lowerWindow(Context& ctx) {
    if (!isFloat(ctx.out().dtype))
        ctx.unsupported(fmt::format("{} with an integer dtype", ctx.node().kind));
    const DType t = ctx.out().dtype;
    const size_t tail = 4;                           // dtype, layout, device, pin_memory
    const size_t extra = ctx.numInputs() - 1 - tail; // periodic, then the parameters
    const bool periodic = extra >= 1 ? ctx.boolArg(1) : true;
    Expr n = sizeAs(ctx, 0, t);
    Expr span = periodic ? n : ctx.emitTemp("sub", {n, lit(1.0, t)}, {}, "span");
    Expr i = positions(ctx, Expr::i(0), ctx.sizeArg(0), Expr::i(1), t, "positions");
    Expr w;
    auto cosOf = [&](double k, const std::string& tag) {
        // cos(i * (k pi / N))
        Expr f = ctx.emitTemp("div", {lit(k * std::numbers::pi, t), span}, {}, tag + "_factor");
        return ctx.emitTemp("cos", {ctx.emitTemp("mul", {i, f}, {}, tag + "_angle")}, {}, tag);
    };
    if (W == WindowFunction::Hann || W == WindowFunction::Hamming) {
        const double alpha = W == WindowFunction::Hann ? 0.5 : extra >= 2 ? ctx.floatArg(2) : 0.54;
        const double beta = W == WindowFunction::Hann ? 0.5 : extra >= 3 ? ctx.floatArg(3) : 0.46;
        w = ctx.emitTemp(
            "add",
            {ctx.emitTemp("mul", {cosOf(2.0, "cos"), lit(-beta, t)}, {}, "scaled"), lit(alpha, t)},
            {}, "window");
    } else if (W == WindowFunction::Blackman) {
        Expr c4 = ctx.emitTemp("mul", {cosOf(4.0, "cos4"), lit(0.08, t)}, {}, "term4");
        Expr c2 = ctx.emitTemp("mul", {cosOf(2.0, "cos2"), lit(0.5, t)}, {}, "term2");
        w = ctx.emitTemp("add", {ctx.emitTemp("sub", {c4, c2}, {}, "terms"), lit(0.42, t)}, {},
                         "window");
    } else if (W == WindowFunction::Bartlett) {
        // 2i / N up to the middle, 2 - 2i / N after it: the smaller of the two.
        Expr v = ctx.emitTemp("mul", {i, ctx.emitTemp("div", {lit(2.0, t), span}, {}, "slope")}, {},
                              "rising");
        w = ctx.emitTemp("min", {v, ctx.emitTemp("sub", {lit(2.0, t), v}, {}, "falling")}, {},
                         "window");
    } else {
        // I0(beta sqrt(1 - ((i - N/2) / (N/2))^2)) / I0(beta)
        const double beta = extra >= 2 ? ctx.floatArg(2) : 12.0;
        Expr mid = ctx.emitTemp("div", {span, lit(2.0, t)}, {}, "middle");
        Expr q =
            ctx.emitTemp("div", {ctx.emitTemp("sub", {i, mid}, {}, "offset"), mid}, {}, "relative");
        Expr root = ctx.emitTemp(
            "sqrt",
            {ctx.emitTemp("sub", {lit(1.0, t), ctx.emitTemp("mul", {q, q}, {}, "squared")}, {},
                          "one_minus")},
            {}, "root");
        Expr arg = ctx.emitTemp("mul", {root, lit(beta, t)}, {}, "argument");
        // I0(beta) itself from its power series, in double precision.
        double i0 = 0, term = 1;
        for (int k = 1; k < 200 && term > 1e-17 * i0; ++k) {
            i0 += term;
            term *= (beta / 2) * (beta / 2) / (static_cast<double>(k) * k);
        }
        w = ctx.emitTemp("div", {besselI0Of(ctx, arg, t, false, "bessel"), lit(i0, t)}, {},
                         "window");
    }
    Expr one = ctx.emitTemp("eq", {n, lit(1.0, t)}, {}, "single");
    ctx.emitOut("select", {one, lit(1.0, t), w});
}

// fft_fftfreq(n, d, ...): [0, 1, ..., (n - 1) / 2, -(n / 2), ..., -1] / (d n);
// fft_rfftfreq(n, d, ...): [0, 1, ..., n / 2] / (d n), its positions taken as
// range(0, n + 1, 2) / 2 (n / 2 + 1 items without integer division).
template <bool Real> void lowerFftFreq(Context& ctx) {
    if (!isFloat(ctx.out().dtype))
        ctx.unsupported(fmt::format("{} with an integer dtype", ctx.node().kind));
    const DType t = ctx.out().dtype;
    const double d = ctx.floatArg(1);
    Expr n = sizeAs(ctx, 0, t);
    Expr scale = ctx.emitTemp(
        "div", {lit(1.0, t), ctx.emitTemp("mul", {n, lit(d, t)}, {}, "extent")}, {}, "scale");
    Expr v;
    if (Real) {
        Expr evens = positions(ctx, Expr::i(0), Expr::binary("+", ctx.sizeArg(0), Expr::i(1)),
                               Expr::i(2), t, "evens");
        v = ctx.emitTemp("mul", {evens, lit(0.5, t)}, {}, "frequencies");
    } else {
        Expr i = positions(ctx, Expr::i(0), ctx.sizeArg(0), Expr::i(1), t, "positions");
        // i < (n + 1) / 2 (integer division) is 2 i < n for integers.
        Expr low = ctx.emitTemp("lt", {ctx.emitTemp("mul", {i, lit(2.0, t)}, {}, "doubled"), n}, {},
                                "nonnegative");
        v = ctx.emitTemp("select", {low, i, ctx.emitTemp("sub", {i, n}, {}, "wrapped")}, {},
                         "frequencies");
    }
    ctx.emitOut("mul", {v, scale});
}

} // namespace

void registerWindowOps(Registry& r) {
    r.beginFamily("factories");
    const std::string note = "folded; computed in the graph when the size follows a dynamic axis";
    r.add("aten::eye", lowerEye, note + " (tract_core_range)", "+tract_core_range unsqueeze eq");
    r.add("aten::linspace", lowerLinspace<false>, note + "; float dtypes",
          "+tract_core_range div sub add mul lt select eq");
    r.add("aten::logspace", lowerLinspace<true>, note + "; float dtypes",
          "+tract_core_range div sub add mul lt select eq pow");
    const char* cosine = "+tract_core_range sub div mul cos add select eq";
    r.add("aten::hann_window", lowerWindow<WindowFunction::Hann>, note, cosine);
    r.add("aten::hamming_window", lowerWindow<WindowFunction::Hamming>, note + "; any alpha, beta",
          cosine);
    r.add("aten::blackman_window", lowerWindow<WindowFunction::Blackman>, note, cosine);
    r.add("aten::bartlett_window", lowerWindow<WindowFunction::Bartlett>, note,
          "+tract_core_range sub div mul min select eq");
    r.add("aten::kaiser_window", lowerWindow<WindowFunction::Kaiser>,
          note + "; I0 by A&S 9.8.1-2 (relative error < 5e-7)",
          "+tract_core_range sub div mul sqrt abs le add neg exp max sign select eq");
    r.add("aten::fft_fftfreq", lowerFftFreq<false>, note,
          "+tract_core_range div mul lt select sub");
    r.add("aten::fft_rfftfreq", lowerFftFreq<true>, note, "+tract_core_range div mul");
}

} // namespace t2n::translate
