// Special functions of float tensors, written with standard operations (tract
// and NNEF have none of them): the modified Bessel functions I0 / I1 and
// their exponentially scaled forms from Abramowitz & Stegun's polynomials
// 9.8.1-9.8.4 (relative error below 5e-7), lgamma from Lanczos' series (g = 7,
// 9 terms) with the reflection formula below 1/2, digamma from its asymptotic
// series after shifting x up by 6 (reflection below 0), mvlgamma as a sum of
// lgamma, and frexp from log2 with an exact correction step. Poles and
// infinities give what PyTorch gives. Each is far inside the check's
// default "approximate" tolerance, not bit-exact: a check at "close" or
// "exact" may report them.
#include "translate/lower_util.h"
#include "translate/registry.h"
#include "translate/special_functions.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numbers>
#include <vector>

namespace t2n::translate {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// c[0] + u (c[1] + u (c[2] + ...)), Horner's scheme.
Expr polynomial(Context& ctx, Expr u, const std::vector<double>& c, DType t,
                const std::string& tag) {
    Expr acc = lit(c.back(), t);
    for (size_t i = c.size() - 1; i-- > 0;) {
        Expr m = ctx.emitTemp("mul", {acc, u}, {}, fmt::format("{}_m{}", tag, i));
        acc = ctx.emitTemp("add", {m, lit(c[i], t)}, {}, fmt::format("{}_p{}", tag, i));
    }
    return acc;
}

// A&S 9.8.1-9.8.4: I0(x) and I1(x) / x for |x| <= 3.75 in powers of (x/3.75)^2;
// sqrt(x) exp(-x) I0(x) and I1(x) for x >= 3.75 in powers of 3.75 / x.
const std::vector<double> kI0Small{1.0,       3.5156229, 3.0899424, 1.2067492,
                                   0.2659732, 0.0360768, 0.0045813};
const std::vector<double> kI0Large{0.39894228,  0.01328592, 0.00225319,  -0.00157565, 0.00916281,
                                   -0.02057706, 0.02635537, -0.01647633, 0.00392377};
const std::vector<double> kI1Small{0.5,        0.87890594, 0.51498869, 0.15084934,
                                   0.02658733, 0.00301532, 0.00032411};
const std::vector<double> kI1Large{0.39894228, -0.03988024, -0.00362018, 0.00163801, -0.01031555,
                                   0.02282967, -0.02895312, 0.01787654,  -0.00420059};

// I0 (Order 0) or I1 (Order 1) of x, exp(-|x|) times it when scaled.
template <int Order>
Expr besselOf(Context& ctx, Expr x, DType t, bool scaled, const std::string& tag) {
    Expr ax = ctx.emitTemp("abs", {x}, {}, tag + "_abs");
    Expr small = ctx.emitTemp("le", {ax, lit(3.75, t)}, {}, tag + "_small");
    // |x| <= 3.75
    Expr q = ctx.emitTemp("div", {x, lit(3.75, t)}, {}, tag + "_q");
    Expr u = ctx.emitTemp("mul", {q, q}, {}, tag + "_u");
    Expr near = polynomial(ctx, u, Order == 0 ? kI0Small : kI1Small, t, tag + "_near");
    if (Order == 1)
        near = ctx.emitTemp("mul", {near, x}, {}, tag + "_near_x");
    if (scaled)
        near =
            ctx.emitTemp("mul",
                         {near, ctx.emitTemp("exp", {ctx.emitTemp("neg", {ax}, {}, tag + "_neg")},
                                             {}, tag + "_decay")},
                         {}, tag + "_near_scaled");
    // |x| >= 3.75, evaluated at max(|x|, 3.75) so that no infinity arises
    // where the other branch is taken.
    Expr big = ctx.emitTemp("max", {ax, lit(3.75, t)}, {}, tag + "_big");
    Expr v = ctx.emitTemp("div", {lit(3.75, t), big}, {}, tag + "_v");
    Expr far = ctx.emitTemp("div",
                            {polynomial(ctx, v, Order == 0 ? kI0Large : kI1Large, t, tag + "_far"),
                             ctx.emitTemp("sqrt", {big}, {}, tag + "_sqrt")},
                            {}, tag + "_far_value");
    if (!scaled)
        far = ctx.emitTemp("mul", {far, ctx.emitTemp("exp", {big}, {}, tag + "_growth")}, {},
                           tag + "_far_grown");
    if (Order == 1) // I1 is odd
        far = ctx.emitTemp("mul", {far, ctx.emitTemp("sign", {x}, {}, tag + "_sign")}, {},
                           tag + "_far_signed");
    return ctx.emitTemp("select", {small, near, far}, {}, tag);
}

// The input as a float tensor at the output's rank, and the dtype computed in.
Expr floatInput(Context& ctx, DType& t) {
    t = floatComputeType(ctx);
    return outOperand(ctx, 0, t);
}

template <int Order, bool Scaled> void lowerBessel(Context& ctx) {
    DType t;
    Expr x = floatInput(ctx, t);
    bindAs(ctx, besselOf<Order>(ctx, x, t, Scaled, "bessel"), t);
}

// Lanczos' coefficients for g = 7 (9 terms).
const std::vector<double> kLanczos{
    0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
    771.32342877765313,   -176.61502916214059,   12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};

// lgamma(z) for z >= 1/2: 0.5 log(2 pi) + (z - 0.5) log(w) - w + log(a(z)),
// w = z + 6.5, a(z) = c0 + sum c_i / (z - 1 + i).
Expr lanczosOf(Context& ctx, Expr z, DType t, const std::string& tag) {
    Expr zm1 = ctx.emitTemp("sub", {z, lit(1.0, t)}, {}, tag + "_zm1");
    Expr a = lit(kLanczos[0], t);
    for (size_t i = 1; i < kLanczos.size(); ++i) {
        Expr d = ctx.emitTemp("add", {zm1, lit(static_cast<double>(i), t)}, {},
                              fmt::format("{}_d{}", tag, i));
        Expr q = ctx.emitTemp("div", {lit(kLanczos[i], t), d}, {}, fmt::format("{}_q{}", tag, i));
        a = ctx.emitTemp("add", {a, q}, {}, fmt::format("{}_a{}", tag, i));
    }
    Expr w = ctx.emitTemp("add", {zm1, lit(7.5, t)}, {}, tag + "_w");
    Expr pw = ctx.emitTemp("mul",
                           {ctx.emitTemp("add", {zm1, lit(0.5, t)}, {}, tag + "_zh"),
                            ctx.emitTemp("log", {w}, {}, tag + "_logw")},
                           {}, tag + "_pow");
    Expr s = ctx.emitTemp("sub", {pw, w}, {}, tag + "_sw");
    Expr s2 =
        ctx.emitTemp("add", {s, ctx.emitTemp("log", {a}, {}, tag + "_loga")}, {}, tag + "_sa");
    return ctx.emitTemp("add", {s2, lit(0.5 * std::log(2.0 * std::numbers::pi), t)}, {}, tag);
}

// |sin(pi x)| from x reduced modulo 2 (pi x itself loses digits for large |x|).
Expr absSinPiOf(Context& ctx, Expr x, DType t, const std::string& tag) {
    Expr half = ctx.emitTemp("floor", {ctx.emitTemp("mul", {x, lit(0.5, t)}, {}, tag + "_half")},
                             {}, tag + "_periods");
    Expr r = ctx.emitTemp("sub", {x, ctx.emitTemp("mul", {half, lit(2.0, t)}, {}, tag + "_whole")},
                          {}, tag + "_reduced");
    return ctx.emitTemp(
        "abs",
        {ctx.emitTemp("sin",
                      {ctx.emitTemp("mul", {r, lit(std::numbers::pi, t)}, {}, tag + "_angle")}, {},
                      tag + "_sin")},
        {}, tag);
}

// x <= 0 and an integer: a pole of gamma.
Expr poleOf(Context& ctx, Expr x, DType t, const std::string& tag) {
    Expr integer = ctx.emitTemp("eq", {x, ctx.emitTemp("floor", {x}, {}, tag + "_floor")}, {},
                                tag + "_integer");
    return ctx.emitTemp(
        "and", {integer, ctx.emitTemp("le", {x, lit(0.0, t)}, {}, tag + "_nonpositive")}, {}, tag);
}

// lgamma(x): Lanczos from 1/2 up; below, log(pi / |sin(pi x)|) - lgamma(1 - x);
// +inf at the poles (0, -1, ...) and at +-inf.
Expr lgammaOf(Context& ctx, Expr x, DType t, const std::string& tag) {
    Expr low = ctx.emitTemp("lt", {x, lit(0.5, t)}, {}, tag + "_low");
    Expr z = ctx.emitTemp("select",
                          {low, ctx.emitTemp("sub", {lit(1.0, t), x}, {}, tag + "_reflected"), x},
                          {}, tag + "_z");
    Expr lz = lanczosOf(ctx, z, t, tag + "_lanczos");
    Expr ratio =
        ctx.emitTemp("div", {lit(std::numbers::pi, t), absSinPiOf(ctx, x, t, tag + "_sinpi")}, {},
                     tag + "_ratio");
    Expr reflected = ctx.emitTemp("sub", {ctx.emitTemp("log", {ratio}, {}, tag + "_logratio"), lz},
                                  {}, tag + "_reflection");
    Expr v = ctx.emitTemp("select", {low, reflected, lz}, {}, tag + "_finite");
    Expr infinite =
        ctx.emitTemp("or",
                     {poleOf(ctx, x, t, tag + "_pole"),
                      ctx.emitTemp("eq", {ctx.emitTemp("abs", {x}, {}, tag + "_abs"), lit(kInf, t)},
                                   {}, tag + "_inf")},
                     {}, tag + "_infinite");
    return ctx.emitTemp("select", {infinite, lit(kInf, t), v}, {}, tag);
}

void lowerLgamma(Context& ctx) {
    DType t;
    Expr x = floatInput(ctx, t);
    bindAs(ctx, lgammaOf(ctx, x, t, "lgamma"), t);
}

// mvlgamma(x, p) = sum over j < p of lgamma(x - j / 2) + p (p - 1) / 4 log(pi):
// x gains a trailing axis of the p offsets, reduced after lgamma.
void lowerMvlgamma(Context& ctx) {
    const int64_t p = ctx.intArg(1);
    if (p < 1)
        ctx.unsupported("mvlgamma with p < 1");
    DType t;
    Expr x = floatInput(ctx, t);
    const int64_t r = rankOf(ctx.out());
    std::vector<float> offsets;
    for (int64_t j = p - 1; j >= 0; --j)
        offsets.push_back(-0.5f * static_cast<float>(j));
    std::vector<int64_t> shape(static_cast<size_t>(r), 1);
    shape.push_back(p);
    Expr args =
        ctx.emitTemp("add",
                     {ctx.emitTemp("unsqueeze", {x}, {{"axes", Expr::ints({r})}}, "expanded"),
                      floatTable(ctx, offsets, shape, "offsets")},
                     {}, "arguments");
    Expr sum = ctx.emitTemp("squeeze",
                            {ctx.emitTemp("sum_reduce", {lgammaOf(ctx, args, t, "lgamma")},
                                          {{"axes", Expr::ints({r})}}, "sum")},
                            {{"axes", Expr::ints({r})}}, "summed");
    const double c = static_cast<double>(p * (p - 1)) * std::log(std::numbers::pi) * 0.25;
    emitFinal(ctx, "add", {sum, lit(c, t)}, t);
}

// digamma(y) for y >= 6 by its asymptotic series: log y - 1/(2y) - 1/(12y^2)
// + 1/(120y^4) - 1/(252y^6) + 1/(240y^8) - 1/(132y^10) (truncation < 1e-11).
Expr digammaAsymptotic(Context& ctx, Expr y, DType t, const std::string& tag) {
    Expr inv = ctx.emitTemp("div", {lit(1.0, t), y}, {}, tag + "_inv");
    Expr u = ctx.emitTemp("mul", {inv, inv}, {}, tag + "_inv2");
    Expr series = polynomial(ctx, u, {0.0, 1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132},
                             t, tag + "_series");
    Expr l = ctx.emitTemp("sub",
                          {ctx.emitTemp("log", {y}, {}, tag + "_log"),
                           ctx.emitTemp("mul", {inv, lit(0.5, t)}, {}, tag + "_half_inv")},
                          {}, tag + "_lead");
    return ctx.emitTemp("sub", {l, series}, {}, tag);
}

// digamma(x): for x > 0, digamma(x + 6) - sum_{k<6} 1 / (x + k); for x < 0,
// digamma(1 - x) - pi / tan(pi r), r the fractional part; -inf at +0 (+inf
// at -0) and NaN at the negative integers, as PyTorch.
void lowerDigamma(Context& ctx) {
    DType t;
    Expr x = floatInput(ctx, t);
    Expr neg = ctx.emitTemp("lt", {x, lit(0.0, t)}, {}, "negative");
    Expr y = ctx.emitTemp(
        "select", {neg, ctx.emitTemp("sub", {lit(1.0, t), x}, {}, "reflected"), x}, {}, "positive");
    Expr shiftSum = lit(0.0, t);
    for (int k = 0; k < 6; ++k) {
        Expr d = k == 0 ? y : ctx.emitTemp("add", {y, lit(k, t)}, {}, fmt::format("shift{}", k));
        Expr q = ctx.emitTemp("div", {lit(1.0, t), d}, {}, fmt::format("step{}", k));
        shiftSum = k == 0 ? q : ctx.emitTemp("add", {shiftSum, q}, {}, fmt::format("steps{}", k));
    }
    Expr psi =
        ctx.emitTemp("sub",
                     {digammaAsymptotic(ctx, ctx.emitTemp("add", {y, lit(6.0, t)}, {}, "shifted"),
                                        t, "asymptotic"),
                      shiftSum},
                     {}, "psi");
    // The fractional part r of a negative x (r in (-1, 0]): x - ceil(x).
    Expr frac = ctx.emitTemp("sub", {x, ctx.emitTemp("ceil", {x}, {}, "ceil")}, {}, "fraction");
    Expr cot = ctx.emitTemp(
        "div",
        {lit(std::numbers::pi, t),
         ctx.emitTemp("tan", {ctx.emitTemp("mul", {frac, lit(std::numbers::pi, t)}, {}, "angle")},
                      {}, "tan")},
        {}, "pi_cot");
    Expr v = ctx.emitTemp("select", {neg, ctx.emitTemp("sub", {psi, cot}, {}, "reflection"), psi},
                          {}, "finite");
    Expr atZero = ctx.emitTemp(
        "select", {signBitOf(ctx, x, t, "zero"), lit(kInf, t), lit(-kInf, t)}, {}, "at_zero");
    Expr zero = ctx.emitTemp("eq", {x, lit(0.0, t)}, {}, "is_zero");
    Expr negInt = ctx.emitTemp(
        "and",
        {neg, ctx.emitTemp("eq", {x, ctx.emitTemp("floor", {x}, {}, "floor")}, {}, "integer")}, {},
        "negative_integer");
    Expr w = ctx.emitTemp("select", {negInt, lit(std::numeric_limits<double>::quiet_NaN(), t), v},
                          {}, "poles");
    emitFinal(ctx, "select", {zero, atZero, w}, t);
}

// u * 2^-e, e an integer-valued float tensor, in two halves so that neither
// power of two overflows (e up to 128) nor underflows (e down to -148): the
// products stay exact.
Expr scaleDown(Context& ctx, Expr u, Expr e, DType t, const std::string& tag) {
    Expr h = ctx.emitTemp("floor", {ctx.emitTemp("mul", {e, lit(0.5, t)}, {}, tag + "_halve")}, {},
                          tag + "_half");
    Expr first = ctx.emitTemp(
        "mul",
        {u, ctx.emitTemp("pow", {lit(2.0, t), ctx.emitTemp("neg", {h}, {}, tag + "_neg_half")}, {},
                         tag + "_pow1")},
        {}, tag + "_scaled1");
    Expr rest = ctx.emitTemp("sub", {h, e}, {}, tag + "_rest");
    return ctx.emitTemp("mul", {first, ctx.emitTemp("pow", {lit(2.0, t), rest}, {}, tag + "_pow2")},
                        {}, tag);
}

// frexp(x) -> (mantissa, exponent): e = floor(log2 |x|) + 1, corrected by one
// where log2 rounded across a power of two, so that 0.5 <= |x / 2^e| < 1;
// (x, 0) for zeros, infinities and NaN, as PyTorch.
void lowerFrexp(Context& ctx) {
    const DType t = ctx.in(0).dtype;
    if (!isFloat(t))
        ctx.unsupported("frexp of an integer tensor");
    Expr x = ctx.operand(ctx.node().inputs[0], rankOf(ctx.in(0)), t);
    Expr ax = ctx.emitTemp("abs", {x}, {}, "abs");
    Expr e0 = ctx.emitTemp(
        "add",
        {ctx.emitTemp("floor", {ctx.emitTemp("log2", {ax}, {}, "log2")}, {}, "floor"), lit(1.0, t)},
        {}, "estimate");
    Expr m0 = scaleDown(ctx, ax, e0, t, "magnitude");
    Expr up = ctx.emitTemp(
        "select", {ctx.emitTemp("ge", {m0, lit(1.0, t)}, {}, "too_big"), lit(1.0, t), lit(0.0, t)},
        {}, "up");
    Expr down = ctx.emitTemp(
        "select",
        {ctx.emitTemp("lt", {m0, lit(0.5, t)}, {}, "too_small"), lit(1.0, t), lit(0.0, t)}, {},
        "down");
    Expr e =
        ctx.emitTemp("sub", {ctx.emitTemp("add", {e0, up}, {}, "raised"), down}, {}, "exponent_f");
    // Zeros, infinities and NaN: x - x is 0 only for finite x.
    Expr finite = ctx.emitTemp("eq", {ctx.emitTemp("sub", {x, x}, {}, "self_diff"), lit(0.0, t)},
                               {}, "finite");
    Expr regular = ctx.emitTemp(
        "and", {finite, ctx.emitTemp("ne", {x, lit(0.0, t)}, {}, "nonzero")}, {}, "regular");
    Expr eSafe = ctx.emitTemp("select", {regular, e, lit(0.0, t)}, {}, "exponent_safe");
    ctx.emitOut("select", {regular, scaleDown(ctx, x, eSafe, t, "mantissa"), x}, {}, 0);
    ctx.emitOut("tract_core_cast", {eSafe},
                {{"to", Expr::str(std::string(dtypeName(ctx.out(1).dtype)))}}, 1);
}

} // namespace

Expr besselI0Of(Context& ctx, Expr x, DType t, bool scaled, const std::string& tag) {
    return besselOf<0>(ctx, x, t, scaled, tag);
}

void registerSpecialFunctionOps(Registry& r) {
    r.beginFamily("elementwise");
    const char* bessel = "abs le div mul add neg exp max sqrt sign select tract_core_cast";
    r.add("aten::i0", lowerBessel<0, false>, "A&S 9.8.1-2 polynomials: relative error < 5e-7",
          bessel);
    r.add("aten::special_i0e", lowerBessel<0, true>,
          "A&S 9.8.1-2 polynomials: relative error < 5e-7", bessel);
    r.add("aten::special_i1", lowerBessel<1, false>,
          "A&S 9.8.3-4 polynomials: relative error < 6e-7", bessel);
    r.add("aten::special_i1e", lowerBessel<1, true>,
          "A&S 9.8.3-4 polynomials: relative error < 6e-7", bessel);
    const char* lgamma = "lt sub select add div mul log floor sin abs eq le and or tract_core_cast";
    r.add("aten::lgamma", lowerLgamma, "Lanczos (g = 7) and reflection; +inf at the poles", lgamma);
    r.add("aten::mvlgamma", lowerMvlgamma, "sum of lgamma over a trailing axis of p offsets",
          std::string(lgamma) + " unsqueeze sum_reduce squeeze");
    r.add("aten::digamma", lowerDigamma,
          "asymptotic series after a shift by 6, reflection below 0; poles as PyTorch",
          "lt sub select add div mul log ceil tan floor eq and or tract_core_cast");
    r.add("aten::frexp", lowerFrexp, "float tensors; exact (log2 estimate corrected by one)",
          "abs log2 floor add mul neg pow ge lt select sub eq ne and tract_core_cast");
}

} // namespace t2n::translate
