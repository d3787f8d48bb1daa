// More element-wise math, each spelled with standard operations after
// PyTorch's definition: atan2, hypot, float_power, ldexp, logaddexp(2),
// xlogy, xlog1py, entr, sinc, degree/radian conversions, exp2, erfc (on
// tract_core_erf), logit, sgn and positive; and the integer bit
// shifts on tract_shl / tract_shr.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>
#include <numbers>

namespace t2n::translate {

namespace {

// atan2(y, x) after PyTorch (emitAtan2, shared with the angle of a complex).
void lowerAtan2(Context& ctx) {
    const DType t = floatComputeType(ctx);
    emitAtan2(ctx, outOperand(ctx, 0, t), outOperand(ctx, 1, t), t);
}

// hypot(a, b) = sqrt(a^2 + b^2)
void lowerHypot(Context& ctx) {
    Expr a = outOperand(ctx, 0), b = outOperand(ctx, 1);
    Expr s = ctx.emitTemp("add",
                          {ctx.emitTemp("mul", {a, a}, {}, "a_squared"),
                           ctx.emitTemp("mul", {b, b}, {}, "b_squared")},
                          {}, "sum_squares");
    ctx.emitOut("sqrt", {s});
}

// float_power(a, b): pow in float64.
void lowerFloatPower(Context& ctx) {
    ctx.emitOut("pow", {outOperand(ctx, 0, DType::F64), outOperand(ctx, 1, DType::F64)});
}

// ldexp(x, e) = x * 2^e
void lowerLdexp(Context& ctx) {
    const DType t = ctx.out().dtype;
    Expr p = ctx.emitTemp("pow", {lit(2.0, t), outOperand(ctx, 1)}, {}, "power_of_two");
    ctx.emitOut("mul", {outOperand(ctx, 0), p});
}

// logaddexp(a, b) = max(a, b) + log(1 + exp(-|a - b|)); logaddexp2 in base 2.
template <bool Base2> void lowerLogAddExp(Context& ctx) {
    const DType t = ctx.out().dtype;
    Expr a = outOperand(ctx, 0), b = outOperand(ctx, 1);
    Expr m = ctx.emitTemp("max", {a, b}, {}, "larger");
    Expr d = ctx.emitTemp(
        "neg", {ctx.emitTemp("abs", {ctx.emitTemp("sub", {a, b}, {}, "diff")}, {}, "distance")}, {},
        "minus_distance");
    Expr e = Base2 ? ctx.emitTemp("pow", {lit(2.0, t), d}, {}, "exp2")
                   : ctx.emitTemp("exp", {d}, {}, "exp");
    Expr s = ctx.emitTemp("add", {e, lit(1.0, t)}, {}, "plus_one");
    Expr l = ctx.emitTemp(Base2 ? "log2" : "log", {s}, {}, "log");
    ctx.emitOut("add", {m, l});
}

// xlogy(x, y) = 0 where x == 0, else x log(y); NaN where y is NaN. With
// Log1p, special_xlog1py: x log(1 + y).
template <bool Log1p> void lowerXlogy(Context& ctx) {
    const DType t = floatComputeType(ctx);
    Expr x = outOperand(ctx, 0, t), y = outOperand(ctx, 1, t);
    Expr arg = Log1p ? ctx.emitTemp("add", {y, lit(1.0, t)}, {}, "plus_one") : y;
    Expr prod = ctx.emitTemp("mul", {x, ctx.emitTemp("log", {arg}, {}, "log")}, {}, "product");
    Expr r = ctx.emitTemp("select",
                          {ctx.emitTemp("eq", {x, lit(0.0, t)}, {}, "x_zero"), lit(0.0, t), prod},
                          {}, "zero_x");
    emitFinal(ctx, "select", {ctx.emitTemp("ne", {y, y}, {}, "y_nan"), y, r}, t);
}

// special_entr(x) = -x log(x) above 0, 0 at 0, -inf below (log(0)), NaN kept.
void lowerEntr(Context& ctx) {
    const DType t = floatComputeType(ctx);
    Expr x = outOperand(ctx, 0, t);
    Expr v = ctx.emitTemp(
        "neg", {ctx.emitTemp("mul", {x, ctx.emitTemp("log", {x}, {}, "log")}, {}, "x_log_x")}, {},
        "entropy");
    Expr minusInf = ctx.emitTemp("log", {lit(0.0, t)}, {}, "minus_inf");
    Expr nonPos = ctx.emitTemp(
        "select", {ctx.emitTemp("eq", {x, lit(0.0, t)}, {}, "zero"), lit(0.0, t), minusInf}, {},
        "non_positive");
    Expr r = ctx.emitTemp(
        "select", {ctx.emitTemp("gt", {x, lit(0.0, t)}, {}, "positive"), v, nonPos}, {}, "by_sign");
    emitFinal(ctx, "select", {ctx.emitTemp("ne", {x, x}, {}, "nan"), x, r}, t);
}

// sinc(x) = sin(pi x) / (pi x), 1 at 0.
void lowerSinc(Context& ctx) {
    const DType t = floatComputeType(ctx);
    Expr x = outOperand(ctx, 0, t);
    Expr px = ctx.emitTemp("mul", {x, lit(std::numbers::pi, t)}, {}, "pi_x");
    Expr q = ctx.emitTemp("div", {ctx.emitTemp("sin", {px}, {}, "sin"), px}, {}, "quotient");
    emitFinal(ctx, "select", {ctx.emitTemp("eq", {x, lit(0.0, t)}, {}, "zero"), lit(1.0, t), q}, t);
}

// x * factor (deg2rad, rad2deg)
template <int Numerator, int Denominator> void lowerScaleByPi(Context& ctx) {
    const DType t = floatComputeType(ctx);
    const double f = Numerator == 0 ? std::numbers::pi / Denominator : Numerator / std::numbers::pi;
    emitFinal(ctx, "mul", {outOperand(ctx, 0, t), lit(f, t)}, t);
}

void lowerExp2(Context& ctx) {
    const DType t = floatComputeType(ctx);
    emitFinal(ctx, "pow", {lit(2.0, t), outOperand(ctx, 0, t)}, t);
}

// erfc(x) = 1 - erf(x)
void lowerErfc(Context& ctx) {
    const DType t = floatComputeType(ctx);
    Expr e = erfOf(ctx, outOperand(ctx, 0, t), t, "erf");
    emitFinal(ctx, "sub", {lit(1.0, t), e}, t);
}

// logit(x, eps) = log(z / (1 - z)), z = x clamped to [eps, 1 - eps] when eps is given.
void lowerLogit(Context& ctx) {
    const DType t = floatComputeType(ctx);
    Expr z = outOperand(ctx, 0, t);
    if (ctx.numInputs() > 1 && !ctx.isNone(1)) {
        const double eps = ctx.floatArg(1);
        z = ctx.emitTemp("clamp", {z, lit(eps, t), lit(1.0 - eps, t)}, {}, "clamped");
    }
    Expr q = ctx.emitTemp("div", {z, ctx.emitTemp("sub", {lit(1.0, t), z}, {}, "complement")}, {},
                          "odds");
    emitFinal(ctx, "log", {q}, t);
}

// sgn of real numbers is sign.
void lowerSgn(Context& ctx) {
    ctx.emitOut("sign", {outOperand(ctx, 0)});
}

// positive, and real / conj_physical / resolve_conj / resolve_neg of a real
// tensor: the tensor itself.
void lowerPositive(Context& ctx) {
    ctx.bindOut(ctx.input(0));
}

// angle of a real tensor: pi below 0, else 0; NaN stays NaN.
void lowerAngle(Context& ctx) {
    const DType t = floatComputeType(ctx);
    Expr x = outOperand(ctx, 0, t);
    Expr r = ctx.emitTemp("select",
                          {ctx.emitTemp("lt", {x, lit(0.0, t)}, {}, "negative"),
                           lit(std::numbers::pi, t), lit(0.0, t)},
                          {}, "angle");
    emitFinal(ctx, "select", {ctx.emitTemp("ne", {x, x}, {}, "nan"), x, r}, t);
}

// __lshift__ / __rshift__ / bitwise_left_shift / bitwise_right_shift of
// integers: tract_shl / tract_shr (arithmetic right shift, as PyTorch).
template <bool Left> void lowerShift(Context& ctx) {
    const DType t = ctx.out().dtype;
    if (isFloat(t) || t == DType::Bool)
        ctx.unsupported(fmt::format("{} of {} tensors", ctx.node().kind, dtypeName(t)),
                        "bit shifts are translated for integer tensors");
    emitBinary(ctx, Left ? "tract_shl" : "tract_shr");
}

} // namespace

void registerBinaryMathOps(Registry& r) {
    r.beginFamily("elementwise");
    r.add("aten::atan2", lowerAtan2, "atan(y / x) moved to the quadrant; signed zeros as PyTorch",
          "atan div add sub lt or select and eq tract_core_cast");
    r.add("aten::hypot", lowerHypot, "sqrt(a^2 + b^2)", "mul add sqrt");
    r.add("aten::float_power", lowerFloatPower, "pow in f64", "pow");
    r.add("aten::ldexp", lowerLdexp, "x * 2^e", "pow mul");
    r.add("aten::logaddexp", lowerLogAddExp<false>, "max + log(1 + exp(-|a - b|))",
          "max neg abs sub exp add log");
    r.add("aten::logaddexp2", lowerLogAddExp<true>, "max + log2(1 + 2^-|a - b|)",
          "max neg abs sub pow add log2");
    r.add("aten::xlogy", lowerXlogy<false>, "0 where x == 0",
          "mul log select eq ne tract_core_cast");
    r.add("aten::special_xlog1py", lowerXlogy<true>, "0 where x == 0",
          "add mul log select eq ne tract_core_cast");
    r.add("aten::special_entr", lowerEntr, "-x log(x); -inf below 0",
          "neg mul log select eq gt ne tract_core_cast");
    r.add("aten::sinc", lowerSinc, "sin(pi x) / (pi x), 1 at 0",
          "mul sin div select eq tract_core_cast");
    r.add("aten::deg2rad", lowerScaleByPi<0, 180>, "", "mul tract_core_cast");
    r.add("aten::rad2deg", lowerScaleByPi<180, 1>, "", "mul tract_core_cast");
    r.add("aten::exp2", lowerExp2, "pow(2, x)", "pow tract_core_cast");
    r.add("aten::erfc", lowerErfc, "1 - erf(x)",
          "?tract_core_erf +abs +sign +mul +add +rcp +exp +neg sub tract_core_cast");
    r.add("aten::logit", lowerLogit, "log(z / (1 - z)), eps clamps",
          "clamp div sub log tract_core_cast");
    r.add("aten::sgn", lowerSgn, "sign (real tensors)", "sign");
    r.add("aten::positive", lowerPositive, "identity", "-");
    for (const char* k :
         {"aten::real", "aten::conj_physical", "aten::resolve_conj", "aten::resolve_neg"})
        r.add(k, lowerPositive, "real tensors (t2n has no complex dtype): identity", "-");
    r.add("aten::angle", lowerAngle, "real tensors: pi below 0, else 0; NaN kept",
          "lt select ne tract_core_cast");
    for (const char* k : {"aten::__lshift__", "aten::bitwise_left_shift"})
        r.add(k, lowerShift<true>, "tract_shl; integer tensors", "tract_shl");
    for (const char* k : {"aten::__rshift__", "aten::bitwise_right_shift"})
        r.add(k, lowerShift<false>, "tract_shr; integer tensors", "tract_shr");
}

} // namespace t2n::translate
