// Gamma and Poisson samplers built from tract_onnx_random's uniform and
// normal draws (issue 39): aten::_standard_gamma (torch.distributions.Gamma,
// Beta, Chi2, NegativeBinomial's rate) and aten::poisson (Poisson,
// NegativeBinomial). PyTorch draws them with rejection loops
// (ATen/native/Distributions.h, sample_gamma and sample_poisson); a tract
// graph has no loop whose count depends on the data, so every element gets a
// FIXED number of candidates, drawn at once on an extra trailing axis, and
// keeps the first accepted one (the same law as a loop that tries them in
// turn). Exactness, measured and stated per method:
//
// - gamma(alpha): Marsaglia & Tsang (2000), PyTorch's own method; alpha < 1
//   is boosted as PyTorch does: Gamma(alpha + 1) * (1 - U)^(1 / alpha). A
//   candidate is accepted with probability >= 0.9517 (at alpha + 1 = 1, the
//   worst case; 0.973 at 1.5, 0.997 at 10), so all kGammaCandidates = 12 are
//   rejected with probability <= 0.0483^12 = 1.6e-16 per element; then the
//   last candidate's value is kept (a draw from the proposal, a positive
//   number near the gamma's bulk): the result's law is within total
//   variation 1.6e-16 of Gamma(alpha).
// - poisson(rate), rate < 10: inversion over kPoissonTerms = 48 terms,
//   X = #{k < 48 : F(k) <= U}, F the CDF summed in f64 from an exact table of
//   log k!: exact unless X would be >= 48, probability P(Poisson(10) >= 48)
//   = 4.6e-18 at most; then 48.
// - poisson(rate), rate >= 10: PTRS (Hoermann 1993), PyTorch's own method,
//   with kPoissonCandidates = 24. A candidate is accepted with probability
//   >= 0.752 (at rate 10; 0.853 at 100, 0.886 from 1e4 on: it grows with
//   the rate), so all are rejected with probability <= 0.248^24 = 2.9e-15;
//   then the last candidate's k (at least 0) is kept. No largest rate: the
//   test runs in f64 like PyTorch's, whose rounding (about rate ln(rate)
//   1.1e-16 in the log-density: 2e-6 at 1e9) is PyTorch's own; log k! comes
//   from Stirling's series at k + 9 (4 terms, error < 4e-12).
// Everything is computed in f64 (PyTorch's samplers compute in double too)
// and cast to the output's dtype once. Where PyTorch refuses or answers
// nonsense the archive answers NaN, visibly: a negative, NaN or infinite
// rate (PyTorch: "invalid Poisson rate" for the first two, -2^63 for an
// infinite one). A gamma of alpha <= 0 or NaN is the dtype's smallest normal
// number and of +inf is +inf, as PyTorch's.
#include "translate/lower_util.h"
#include "translate/random_draws.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numbers>
#include <numeric>

namespace t2n::translate {

namespace {

constexpr int64_t kGammaCandidates = 12;
constexpr int64_t kPoissonCandidates = 24;
constexpr int64_t kPoissonTerms = 48;
constexpr double kInversionBelow = 10; // PyTorch's switch to PTRS

constexpr DType kF64 = DType::F64;

// What every sampler works on: the node's first input in f64 with a trailing
// unit axis (rank `axis` + 1; a 0-d input counts as [1]), the dims of its
// draws, and f64 constants that select can take (tract's select wants both
// branches of one dtype, and tract reads a float literal as f32).
struct SamplerFrame {
    int64_t axis = 0;        ///< the candidates' axis
    bool scalar = false;     ///< the input is 0-d: squeeze the [1] at the end
    Expr param;              ///< [S..., 1] f64
    std::vector<Expr> shape; ///< S...
    Expr zero, one;          ///< f64 rank-0 constants
};

SamplerFrame frameOf(Context& ctx) {
    SamplerFrame f;
    const int64_t r = rankOf(ctx.in(0));
    f.scalar = r == 0;
    f.axis = std::max<int64_t>(r, 1);
    f.shape = f.scalar ? std::vector<Expr>{Expr::i(1)} : drawShapeOf(ctx, 0);
    Expr p = rankedOperand(ctx, ctx.node().inputs[0], f.axis, kF64);
    f.param = ctx.emitTemp("unsqueeze", {p}, {{"axes", Expr::ints({f.axis})}}, "param");
    f.zero = doubleTable(ctx, {0.0}, {}, "sampler_zero");
    f.one = doubleTable(ctx, {1.0}, {}, "sampler_one");
    return f;
}

// An f64 draw of the frame's shape with `n` candidates on the last axis.
Expr candidates(Context& ctx, const SamplerFrame& f, int64_t n, Dist dist, double p1, double p2,
                const std::string& tag) {
    std::vector<Expr> shape = f.shape;
    shape.push_back(Expr::i(n));
    return drawOf(ctx, std::move(shape), dist, p1, p2, kF64, false, tag);
}

Expr op(Context& ctx, const char* name, std::vector<Expr> args, const std::string& tag) {
    return ctx.emitTemp(name, std::move(args), {}, tag);
}

// [S..., 1]: the value of the first accepted of n candidates along the
// frame's axis, the last candidate's when none is.
Expr firstAccepted(Context& ctx, const SamplerFrame& f, int64_t n, Expr accepted, Expr values,
                   const std::string& tag) {
    std::vector<double> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0.0);
    std::vector<int64_t> shape(static_cast<size_t>(f.axis), 1);
    shape.push_back(n);
    Expr position = doubleTable(ctx, order, shape, tag + "_order");
    Expr last = doubleTable(ctx, {static_cast<double>(n - 1)}, {}, tag + "_last");
    Expr ranked = op(ctx, "select", {accepted, position, last}, tag + "_ranked");
    const Kwargs axes{{"axes", Expr::ints({f.axis})}};
    Expr first = ctx.emitTemp("min_reduce", {ranked}, axes, tag + "_first");
    Expr chosen = op(ctx, "eq", {position, first}, tag + "_chosen");
    Expr picked = op(ctx, "select", {chosen, values, f.zero}, tag + "_picked");
    return ctx.emitTemp("sum_reduce", {picked}, axes, tag);
}

// The frame's [S..., 1] result `v` (f64) as the node's output.
void finish(Context& ctx, const SamplerFrame& f, Expr v) {
    if (f.scalar)
        v = ctx.emitTemp("squeeze", {v}, {{"axes", Expr::ints({0, 1})}}, "sample");
    else
        v = ctx.emitTemp("squeeze", {v}, {{"axes", Expr::ints({f.axis})}}, "sample");
    bindAs(ctx, v, kF64);
}

double smallestNormal(DType t) {
    if (t == DType::F64)
        return std::numeric_limits<double>::min();
    if (t == DType::F16)
        return 6.103515625e-05;
    return static_cast<double>(std::numeric_limits<float>::min());
}

// _standard_gamma(alpha, generator): Gamma(alpha, 1), clamped below at the
// dtype's smallest normal number as PyTorch clamps it.
void lowerStandardGamma(Context& ctx) {
    requireDraw(ctx, {1});
    const SamplerFrame f = frameOf(ctx);
    const Expr& alpha = f.param;
    const int64_t n = kGammaCandidates;
    // alpha < 1: draw Gamma(alpha + 1) and scale it by (1 - U)^(1 / alpha).
    Expr boost = op(ctx, "lt", {alpha, lit(1.0, kF64)}, "boost");
    Expr shifted = op(ctx, "select", {boost, op(ctx, "add", {alpha, f.one}, "alpha_up"), alpha},
                      "alpha_shifted");
    Expr d = op(ctx, "sub", {shifted, lit(1.0 / 3.0, kF64)}, "d");
    Expr c =
        op(ctx, "div",
           {f.one, op(ctx, "sqrt", {op(ctx, "mul", {d, lit(9.0, kF64)}, "nine_d")}, "root")}, "c");
    Expr x = candidates(ctx, f, n, Dist::Normal, 0.0, 1.0, "gamma_normal");
    Expr u = op(ctx, "sub",
                {lit(1.0, kF64), candidates(ctx, f, n, Dist::Uniform, 0.0, 1.0, "gamma_uniform")},
                "gamma_u"); // (0, 1]
    Expr y = op(ctx, "add", {op(ctx, "mul", {c, x}, "cx"), lit(1.0, kF64)}, "y");
    Expr v = op(ctx, "mul", {op(ctx, "mul", {y, y}, "y2"), y}, "v");
    Expr xx = op(ctx, "mul", {x, x}, "xx");
    // The squeeze: u < 1 - 0.0331 x^4; else log u < x^2 / 2 + d (1 - v + log v)
    // (log v is NaN for v < 0, whose candidate y <= 0 rejects anyway).
    Expr squeezed =
        op(ctx, "lt",
           {u, op(ctx, "sub",
                  {lit(1.0, kF64),
                   op(ctx, "mul", {op(ctx, "mul", {xx, xx}, "x4"), lit(0.0331, kF64)}, "x4c")},
                  "squeeze_bound")},
           "squeeze_ok");
    Expr inner = op(
        ctx, "add",
        {op(ctx, "sub", {lit(1.0, kF64), v}, "one_minus_v"), op(ctx, "log", {v}, "logv")}, "inner");
    Expr bound =
        op(ctx, "add",
           {op(ctx, "mul", {xx, lit(0.5, kF64)}, "half_xx"), op(ctx, "mul", {d, inner}, "dv")},
           "log_bound");
    Expr full = op(ctx, "lt", {op(ctx, "log", {u}, "logu"), bound}, "log_ok");
    Expr accepted = op(ctx, "and",
                       {op(ctx, "gt", {y, lit(0.0, kF64)}, "y_positive"),
                        op(ctx, "or", {squeezed, full}, "either")},
                       "accepted");
    Expr g = firstAccepted(ctx, f, n, accepted, op(ctx, "mul", {d, v}, "dv_candidates"), "gamma");
    Expr u0 = drawOf(ctx, std::vector<Expr>(f.shape.begin(), f.shape.end()), Dist::Uniform, 0.0,
                     1.0, kF64, false, "boost_uniform");
    u0 = ctx.emitTemp("unsqueeze", {u0}, {{"axes", Expr::ints({f.axis})}}, "boost_u");
    Expr scale = op(ctx, "pow",
                    {op(ctx, "sub", {lit(1.0, kF64), u0}, "boost_base"),
                     op(ctx, "div", {f.one, alpha}, "inverse_alpha")},
                    "boost_scale");
    Expr boosted = op(ctx, "select", {boost, op(ctx, "mul", {g, scale}, "scaled"), g}, "boosted");
    Expr valid = op(ctx, "gt", {alpha, lit(0.0, kF64)}, "alpha_positive");
    Expr kept = op(ctx, "select", {valid, boosted, f.zero}, "kept");
    Expr tiny = doubleTable(ctx, {smallestNormal(ctx.out().dtype)}, {}, "smallest_normal");
    finish(ctx, f, op(ctx, "max", {kept, tiny}, "clamped"));
}

// log k! for k >= 0 (f64): Stirling's series at z = k + 9 (4 terms, error
// below 4e-12), less log((k+1) (k+2) ... (k+8)). Every literal is exact in f32
// or only shifts the result by less than 1e-7.
Expr logFactorial(Context& ctx, Expr k, const std::string& tag) {
    Expr z1 = op(ctx, "add", {k, lit(1.0, kF64)}, tag + "_z1");
    Expr product = z1;
    for (int i = 1; i < 8; ++i)
        product = op(ctx, "mul",
                     {product, op(ctx, "add", {z1, lit(i, kF64)}, fmt::format("{}_f{}", tag, i))},
                     fmt::format("{}_p{}", tag, i));
    Expr z = op(ctx, "add", {z1, lit(8.0, kF64)}, tag + "_z");
    Expr lz = op(ctx, "log", {z}, tag + "_logz");
    Expr lead = op(
        ctx, "sub",
        {op(ctx, "mul", {op(ctx, "sub", {z, lit(0.5, kF64)}, tag + "_zh"), lz}, tag + "_zlogz"), z},
        tag + "_lead");
    Expr inv = op(ctx, "div", {lit(1.0, kF64), z}, tag + "_inv");
    Expr inv2 = op(ctx, "mul", {inv, inv}, tag + "_inv2");
    // 1/(12z) - 1/(360z^3) + 1/(1260z^5) - 1/(1680z^7), by Horner in 1/z^2.
    Expr series = lit(-1.0 / 1680.0, kF64);
    for (double c : {1.0 / 1260.0, -1.0 / 360.0, 1.0 / 12.0})
        series =
            op(ctx, "add", {op(ctx, "mul", {series, inv2}, tag + "_h"), lit(c, kF64)}, tag + "_s");
    series = op(ctx, "mul", {series, inv}, tag + "_series");
    Expr stirling = op(ctx, "add",
                       {op(ctx, "add", {lead, series}, tag + "_ls"),
                        lit(0.5 * std::log(2.0 * std::numbers::pi), kF64)},
                       tag + "_stirling");
    return op(ctx, "sub", {stirling, op(ctx, "log", {product}, tag + "_logp")}, tag);
}

// Poisson(rate) for rate < 10 by inversion: [S..., 1].
Expr poissonInversion(Context& ctx, const SamplerFrame& f) {
    const int64_t n = kPoissonTerms;
    std::vector<double> ks(static_cast<size_t>(n)), logFactorials(static_cast<size_t>(n));
    std::vector<double> upper(static_cast<size_t>(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        ks[static_cast<size_t>(i)] = static_cast<double>(i);
        logFactorials[static_cast<size_t>(i)] = std::lgamma(static_cast<double>(i) + 1.0);
        for (int64_t j = i; j < n; ++j)
            upper[static_cast<size_t>(i * n + j)] = 1.0;
    }
    std::vector<int64_t> row(static_cast<size_t>(f.axis), 1);
    row.push_back(n);
    std::vector<int64_t> square(static_cast<size_t>(f.axis - 1), 1);
    square.push_back(n);
    square.push_back(n);
    // A rate of 0 counts as 1e-30 (then X = 0 but with odds 1e-30), one of 10
    // and above as 10 (that element takes the other method's value).
    Expr rate = op(ctx, "min",
                   {op(ctx, "max", {f.param, lit(1e-30, kF64)}, "small_floor"), lit(10.0, kF64)},
                   "small_rate");
    Expr logp = op(
        ctx, "sub",
        {op(ctx, "sub",
            {op(ctx, "mul",
                {doubleTable(ctx, ks, row, "poisson_k"), op(ctx, "log", {rate}, "small_log_rate")},
                "k_log_rate"),
             rate},
            "log_terms_lead"),
         doubleTable(ctx, logFactorials, row, "poisson_log_factorial")},
        "log_terms");
    Expr cdf = op(
        ctx, "matmul",
        {op(ctx, "exp", {logp}, "terms"), doubleTable(ctx, upper, square, "cdf_triangle")}, "cdf");
    Expr u = candidates(ctx, f, 1, Dist::Uniform, 0.0, 1.0, "inversion_uniform");
    Expr below =
        op(ctx, "select", {op(ctx, "le", {cdf, u}, "cdf_below"), f.one, f.zero}, "counted");
    return ctx.emitTemp("sum_reduce", {below}, {{"axes", Expr::ints({f.axis})}}, "inversion");
}

// Poisson(rate) for rate >= 10 by PTRS (sample_poisson's constants): [S..., 1].
Expr poissonPtrs(Context& ctx, const SamplerFrame& f) {
    const int64_t n = kPoissonCandidates;
    Expr rate = op(ctx, "max", {f.param, lit(kInversionBelow, kF64)}, "large_rate");
    Expr slam = op(ctx, "sqrt", {rate}, "slam");
    Expr loglam = op(ctx, "log", {rate}, "loglam");
    auto affine = [&](Expr e, double mul, double add, const std::string& tag) {
        return op(ctx, "add", {op(ctx, "mul", {e, lit(mul, kF64)}, tag + "_m"), lit(add, kF64)},
                  tag);
    };
    Expr b = affine(slam, 2.53, 0.931, "ptrs_b");
    Expr a = affine(b, 0.02483, -0.059, "ptrs_a");
    Expr invAlpha =
        op(ctx, "add",
           {op(ctx, "div", {lit(1.1328, kF64), op(ctx, "sub", {b, lit(3.4, kF64)}, "b34")}, "ia_q"),
            lit(1.1239, kF64)},
           "inv_alpha");
    Expr vr =
        op(ctx, "sub",
           {lit(0.9277, kF64),
            op(ctx, "div", {lit(3.6224, kF64), op(ctx, "sub", {b, lit(2.0, kF64)}, "b2")}, "vr_q")},
           "vr");
    Expr uc = candidates(ctx, f, n, Dist::Uniform, -0.5, 0.5, "ptrs_u");
    Expr vc = candidates(ctx, f, n, Dist::Uniform, 0.0, 1.0, "ptrs_v");
    Expr us = op(ctx, "sub", {lit(0.5, kF64), op(ctx, "abs", {uc}, "abs_u")}, "us");
    Expr spread = op(
        ctx, "add", {op(ctx, "div", {op(ctx, "mul", {a, lit(2.0, kF64)}, "two_a"), us}, "a_us"), b},
        "spread");
    Expr k = op(ctx, "floor",
                {op(ctx, "add",
                    {op(ctx, "add", {op(ctx, "mul", {spread, uc}, "spread_u"), rate}, "shifted"),
                     lit(0.43, kF64)},
                    "k_real")},
                "k");
    Expr quick =
        op(ctx, "and",
           {op(ctx, "ge", {us, lit(0.07, kF64)}, "us_wide"), op(ctx, "le", {vc, vr}, "v_low")},
           "quick");
    Expr rejected = op(
        ctx, "or",
        {op(ctx, "lt", {k, lit(0.0, kF64)}, "k_negative"),
         op(ctx, "and",
            {op(ctx, "lt", {us, lit(0.013, kF64)}, "us_narrow"), op(ctx, "gt", {vc, us}, "v_high")},
            "tail")},
        "rejected");
    Expr hat =
        op(ctx, "log",
           {op(ctx, "add", {op(ctx, "div", {a, op(ctx, "mul", {us, us}, "us2")}, "a_us2"), b},
               "hat_in")},
           "log_hat");
    Expr lhs =
        op(ctx, "sub",
           {op(ctx, "add", {op(ctx, "log", {vc}, "log_v"), op(ctx, "log", {invAlpha}, "log_ia")},
               "lhs_lead"),
            hat},
           "lhs");
    Expr kk = op(ctx, "max", {k, lit(0.0, kF64)}, "k_floor");
    Expr rhs = op(ctx, "sub",
                  {op(ctx, "sub", {op(ctx, "mul", {k, loglam}, "k_loglam"), rate}, "rhs_lead"),
                   logFactorial(ctx, kk, "log_k_factorial")},
                  "rhs");
    Expr accepted =
        op(ctx, "or",
           {quick,
            op(ctx, "and", {op(ctx, "not", {rejected}, "kept"), op(ctx, "le", {lhs, rhs}, "under")},
               "tested")},
           "accepted");
    return firstAccepted(ctx, f, n, accepted, kk, "ptrs");
}

// poisson(rate, generator).
void lowerPoisson(Context& ctx) {
    requireDraw(ctx, {1});
    const SamplerFrame f = frameOf(ctx);
    Expr small = poissonInversion(ctx, f);
    Expr large = poissonPtrs(ctx, f);
    Expr x = op(ctx, "select",
                {op(ctx, "lt", {f.param, lit(kInversionBelow, kF64)}, "is_small"), small, large},
                "count");
    // Finite and >= 0: rate - rate is 0 only for finite rates.
    Expr gap = op(ctx, "sub", {f.param, f.param}, "rate_gap");
    Expr valid = op(ctx, "and",
                    {op(ctx, "ge", {f.param, lit(0.0, kF64)}, "rate_nonnegative"),
                     op(ctx, "eq", {gap, lit(0.0, kF64)}, "rate_finite")},
                    "rate_valid");
    Expr nan = op(ctx, "div", {gap, gap}, "not_a_number"); // 0 / 0 or NaN / NaN
    finish(ctx, f, op(ctx, "select", {valid, x, nan}, "checked"));
}

} // namespace

void registerSamplerOps(Registry& r) {
    r.beginFamily("random");
    const std::string tract = "tract only (tract_onnx_random, tract_onnx registry); computed in "
                              "f64, a draw of its own at each run";
    r.add("aten::_standard_gamma", lowerStandardGamma,
          "Marsaglia-Tsang with 12 candidates per element (all rejected: odds <= 1.6e-16), "
          "alpha < 1 boosted; " +
              tract,
          "tract_onnx_random unsqueeze squeeze lt gt add sub mul div sqrt log pow and or select "
          "eq min_reduce sum_reduce max +tract_core_cast !khronos");
    r.add("aten::poisson", lowerPoisson,
          "rate < 10: inversion over 48 terms (truncated: odds <= 4.6e-18); rate >= 10: PTRS "
          "with 24 candidates (all rejected: odds <= 2.9e-15); NaN for a negative, NaN or "
          "infinite rate; " +
              tract,
          "tract_onnx_random unsqueeze squeeze lt gt le ge eq add sub mul div sqrt log exp floor "
          "abs matmul min max and or not select min_reduce sum_reduce +tract_core_cast !khronos");
}

} // namespace t2n::translate
