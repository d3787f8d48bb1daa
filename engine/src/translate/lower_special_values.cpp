// Infinities, NaN and signs: isinf / isposinf / isneginf (tract_core_is_inf
// from tract 0.23.0, else a comparison with the largest finite number),
// isfinite, nan_to_num, signbit, copysign, heaviside, fmax / fmin, isclose,
// nansum and nanmean. No inf literal is needed: a value beyond the largest
// finite number is an infinity, and x != x only holds for NaN.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>
#include <limits>

namespace t2n::translate {

namespace {

// Input 0 at the output rank, in its own dtype (isinf and friends test it as it is).
Expr inputOperand(Context& ctx) {
    return ctx.operand(ctx.node().inputs[0], rankOf(ctx.out()), ctx.in(0).dtype);
}

// A boolean result where an integer input has no infinity: all `value`.
bool constantForIntegers(Context& ctx, bool value) {
    if (isFloat(ctx.in(0).dtype))
        return false;
    Expr x = inputOperand(ctx);
    Expr same = ctx.emitTemp("eq", {x, x}, {}, "any");
    if (value)
        ctx.emitOut("copy", {same});
    else
        ctx.emitOut("not", {same});
    return true;
}

// isinf / isposinf / isneginf
template <bool Positive, bool Negative> void lowerIsInf(Context& ctx) {
    if (constantForIntegers(ctx, false))
        return;
    const DType t = ctx.in(0).dtype;
    Expr x = inputOperand(ctx);
    if (ctx.target().has("tract_core_is_inf")) {
        ctx.emitOut(
            "tract_core_is_inf", {x},
            {{"detect_positive", Expr::b(Positive)}, {"detect_negative", Expr::b(Negative)}});
        return;
    }
    const double big = largestFinite(t);
    if (Positive && Negative)
        ctx.emitOut("gt", {ctx.emitTemp("abs", {x}, {}, "magnitude"), lit(big, t)});
    else if (Positive)
        ctx.emitOut("gt", {x, lit(big, t)});
    else
        ctx.emitOut("lt", {x, lit(-big, t)});
}

// isfinite(x) = |x| <= largest finite (false for NaN and infinities).
void lowerIsFinite(Context& ctx) {
    if (constantForIntegers(ctx, true))
        return;
    const DType t = ctx.in(0).dtype;
    Expr x = inputOperand(ctx);
    ctx.emitOut("le", {ctx.emitTemp("abs", {x}, {}, "magnitude"), lit(largestFinite(t), t)});
}

// nan_to_num(x, nan, posinf, neginf): the defaults replace infinities by
// the largest finite numbers of the dtype.
void lowerNanToNum(Context& ctx) {
    const DType t = ctx.out().dtype;
    Expr x = inputOperand(ctx);
    if (!isFloat(t)) {
        ctx.bindOut(x);
        return;
    }
    const double big = largestFinite(t);
    auto numberOr = [&](size_t i, double fallback) {
        return ctx.numInputs() > i && !ctx.isNone(i) ? ctx.floatArg(i) : fallback;
    };
    const double nan = numberOr(1, 0.0), pos = numberOr(2, big), neg = numberOr(3, -big);
    Expr isNan = ctx.emitTemp("ne", {x, x}, {}, "is_nan");
    Expr isPos = ctx.emitTemp("gt", {x, lit(big, t)}, {}, "is_posinf");
    Expr isNeg = ctx.emitTemp("lt", {x, lit(-big, t)}, {}, "is_neginf");
    Expr a = ctx.emitTemp("select", {isNeg, lit(neg, t), x}, {}, "neginf_replaced");
    Expr b = ctx.emitTemp("select", {isPos, lit(pos, t), a}, {}, "posinf_replaced");
    ctx.emitOut("select", {isNan, lit(nan, t), b});
}

void lowerSignbit(Context& ctx) {
    const DType t = ctx.in(0).dtype;
    ctx.bindOut(signBitOf(ctx, inputOperand(ctx), t, "bit"));
}

// copysign(a, b) = |a| with b's sign bit.
void lowerCopysign(Context& ctx) {
    const DType t = floatComputeType(ctx);
    Expr a = outOperand(ctx, 0, t), b = outOperand(ctx, 1, t);
    Expr mag = ctx.emitTemp("abs", {a}, {}, "magnitude");
    Expr neg = ctx.emitTemp("neg", {mag}, {}, "negated");
    emitFinal(ctx, "select", {signBitOf(ctx, b, t, "sign"), neg, mag}, t);
}

// heaviside(x, values) = 0 below 0, values at 0, 1 above.
void lowerHeaviside(Context& ctx) {
    const DType t = ctx.out().dtype;
    Expr x = outOperand(ctx, 0), v = outOperand(ctx, 1);
    Expr step = ctx.emitTemp(
        "select", {ctx.emitTemp("gt", {x, lit(0.0, t)}, {}, "positive"), lit(1.0, t), lit(0.0, t)},
        {}, "step");
    ctx.emitOut("select", {ctx.emitTemp("eq", {x, lit(0.0, t)}, {}, "zero"), v, step});
}

// fmax / fmin: max / min where a NaN operand gives way to the other one.
template <bool Max> void lowerFmaxFmin(Context& ctx) {
    Expr a = outOperand(ctx, 0), b = outOperand(ctx, 1);
    Expr m = ctx.emitTemp(Max ? "max" : "min", {a, b}, {}, "extremum");
    if (!isFloat(ctx.out().dtype)) {
        ctx.bindOut(m);
        return;
    }
    Expr aNan = ctx.emitTemp("ne", {a, a}, {}, "a_nan");
    Expr bNan = ctx.emitTemp("ne", {b, b}, {}, "b_nan");
    Expr keepA = ctx.emitTemp("select", {bNan, a, m}, {}, "b_ignored");
    ctx.emitOut("select", {aNan, b, keepA});
}

// isclose(a, b, rtol, atol, equal_nan): a == b, or |a - b| <= atol + rtol |b|.
void lowerIsclose(Context& ctx) {
    const DType t = comparisonType(ctx.in(0), ctx.in(1));
    Expr a = outOperand(ctx, 0, t), b = outOperand(ctx, 1, t);
    const double rtol = ctx.floatArg(2), atol = ctx.floatArg(3);
    const bool equalNan = ctx.boolArg(4);
    Expr same = ctx.emitTemp("eq", {a, b}, {}, "equal");
    Expr result = same;
    if (isFloat(t)) {
        Expr diff = ctx.emitTemp("abs", {ctx.emitTemp("sub", {a, b}, {}, "diff")}, {}, "distance");
        Expr bound = ctx.emitTemp(
            "add",
            {ctx.emitTemp("mul", {ctx.emitTemp("abs", {b}, {}, "b_magnitude"), lit(rtol, t)}, {},
                          "relative"),
             lit(atol, t)},
            {}, "bound");
        result =
            ctx.emitTemp("or", {same, ctx.emitTemp("le", {diff, bound}, {}, "near")}, {}, "close");
        if (equalNan) {
            Expr both = ctx.emitTemp(
                "and",
                {ctx.emitTemp("ne", {a, a}, {}, "a_nan"), ctx.emitTemp("ne", {b, b}, {}, "b_nan")},
                {}, "both_nan");
            result = ctx.emitTemp("or", {result, both}, {}, "close_or_nan");
        }
    }
    ctx.bindOut(result);
}

// nansum / nanmean(x, dim, keepdim, dtype): NaN counted as 0 (and, for the
// mean, not counted).
template <bool Mean> void lowerNanReduce(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const DType t = ctx.out().dtype;
    if (ctx.numInputs() > 3 && !ctx.isNone(3) && t != x.dtype)
        ctx.unsupported(
            fmt::format("{} with a dtype argument that changes the type", ctx.node().kind));
    const int64_t r = rankOf(x);
    std::vector<int64_t> dims =
        ctx.numInputs() > 1 && !ctx.isNone(1) ? ctx.intsArg(1) : std::vector<int64_t>{};
    const std::vector<int64_t> axes = reduceAxes(ctx, dims, r);
    const bool keepdim = ctx.numInputs() > 2 && ctx.boolArg(2);
    Expr e = ctx.operand(ctx.node().inputs[0], r, t);
    Expr isNan = ctx.emitTemp("ne", {e, e}, {}, "is_nan");
    Expr zeroed = ctx.emitTemp("select", {isNan, lit(0.0, t), e}, {}, "zeroed");
    Kwargs k{{"axes", Expr::ints(axes)}};
    Expr sum = ctx.emitTemp("sum_reduce", {zeroed}, k, "sum");
    Expr result = sum;
    if (Mean) {
        Expr ones = ctx.emitTemp("select", {isNan, lit(0.0, t), lit(1.0, t)}, {}, "counted");
        Expr count = ctx.emitTemp("sum_reduce", {ones}, k, "count");
        result = ctx.emitTemp("div", {sum, count}, {}, "mean");
    }
    if (keepdim || r == 0)
        ctx.bindOut(result);
    else
        ctx.emitOut("squeeze", {result}, k);
}

} // namespace

void registerSpecialValueOps(Registry& r) {
    r.beginFamily("elementwise");
    const std::string isInf = "?tract_core_is_inf gt lt abs eq not copy";
    r.add("aten::isinf", lowerIsInf<true, true>,
          "tract_core_is_inf (tract >= 0.23.0), else |x| > the largest finite number", isInf);
    r.add("aten::isposinf", lowerIsInf<true, false>,
          "tract_core_is_inf (tract >= 0.23.0), else x > the largest finite number", isInf);
    r.add("aten::isneginf", lowerIsInf<false, true>,
          "tract_core_is_inf (tract >= 0.23.0), else x < -(the largest finite number)", isInf);
    r.add("aten::isfinite", lowerIsFinite, "|x| <= the largest finite number",
          "abs le eq not copy");
    r.add("aten::nan_to_num", lowerNanToNum, "selects; defaults as PyTorch", "ne gt lt select");
    r.add("aten::signbit", lowerSignbit,
          "x < 0, or 1 / x < 0 for a negative zero; the sign bit of a NaN is not read (false)",
          "lt div or");
    r.add("aten::copysign", lowerCopysign,
          "|a| with the sign of b, negative zero included; a NaN b counts as positive (NNEF "
          "reads no sign bit of a NaN)",
          "abs neg select lt div or tract_core_cast");
    r.add("aten::heaviside", lowerHeaviside, "", "select gt eq");
    r.add("aten::fmax", lowerFmaxFmin<true>, "max ignoring NaN", "max ne select");
    r.add("aten::fmin", lowerFmaxFmin<false>, "min ignoring NaN", "min ne select");
    r.add("aten::isclose", lowerIsclose, "a == b or |a - b| <= atol + rtol |b|; equal_nan",
          "eq abs sub mul add le or and ne");
    r.add("aten::nansum", lowerNanReduce<false>, "NaN as 0", "ne select sum_reduce squeeze");
    r.add("aten::nanmean", lowerNanReduce<true>, "mean of the numbers that are not NaN",
          "ne select sum_reduce div squeeze");
}

} // namespace t2n::translate
