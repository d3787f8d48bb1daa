// Element-wise math and activations that tract has no single operation for:
// each is spelled out from primitives (PyTorch's definition, same order of
// operations where it matters for rounding).
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>

namespace t2n::translate {

namespace {

Expr arg(Context& ctx, size_t i, std::optional<DType> t = {}) {
    return outOperand(ctx, i, t);
}

// trunc(q) = q < 0 ? ceil(q) : floor(q)
Expr truncOf(Context& ctx, Expr q, DType t) {
    Expr neg = ctx.emitTemp("lt", {q, lit(0.0, t)}, {}, "negative");
    Expr up = ctx.emitTemp("ceil", {q}, {}, "ceil");
    Expr down = ctx.emitTemp("floor", {q}, {}, "floor");
    return ctx.emitTemp("select", {neg, up, down}, {}, "trunc");
}

void lowerErf(Context& ctx) {
    if (ctx.target().has("tract_core_erf") && !ctx.target().isKhronos()) {
        emitUnary(ctx, "tract_core_erf");
        return;
    }
    const DType t = ctx.out().dtype;
    ctx.bindOut(erfOf(ctx, ctx.operand(ctx.node().inputs[0], rankOf(ctx.out()), t), t, "erf"));
}

// remainder(a, b) = a - b * floor(a / b) (sign of the divisor);
// fmod(a, b) = a - b * trunc(a / b) (sign of the dividend).
template <bool Floor> void lowerModulo(Context& ctx) {
    DType t = floatComputeType(ctx);
    Expr a = arg(ctx, 0, t), b = arg(ctx, 1, t);
    Expr q = ctx.emitTemp("div", {a, b}, {}, "quotient");
    Expr whole = Floor ? ctx.emitTemp("floor", {q}, {}, "floor") : truncOf(ctx, q, t);
    Expr back = ctx.emitTemp("mul", {b, whole}, {}, "multiple");
    emitFinal(ctx, "sub", {a, back}, t);
}

void lowerSquare(Context& ctx) {
    Expr x = arg(ctx, 0);
    ctx.emitOut("mul", {x, x});
}

// log_base(x) = log(x) * (1 / ln(base))
template <int Base> void lowerLogBase(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr l = ctx.emitTemp("log", {arg(ctx, 0)}, {}, "ln");
    ctx.emitOut("mul", {l, lit(1.0 / std::log(static_cast<double>(Base)), t)});
}

void lowerLog1p(Context& ctx) {
    Expr p = ctx.emitTemp("add", {arg(ctx, 0), lit(1.0, ctx.out().dtype)}, {}, "plus1");
    ctx.emitOut("log", {p});
}

void lowerExpm1(Context& ctx) {
    Expr e = ctx.emitTemp("exp", {arg(ctx, 0)}, {}, "exp");
    ctx.emitOut("sub", {e, lit(1.0, ctx.out().dtype)});
}

void lowerTrunc(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr x = arg(ctx, 0);
    Expr neg = ctx.emitTemp("lt", {x, lit(0.0, t)}, {}, "negative");
    Expr up = ctx.emitTemp("ceil", {x}, {}, "ceil");
    Expr down = ctx.emitTemp("floor", {x}, {}, "floor");
    ctx.emitOut("select", {neg, up, down});
}

void lowerFrac(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr x = arg(ctx, 0);
    ctx.emitOut("sub", {x, truncOf(ctx, x, t)});
}

// Boolean tensors only: and / or, and xor (compareBooleans' "not equal").
template <char Op> void lowerBoolBinary(Context& ctx) {
    if (ctx.out().dtype != DType::Bool)
        ctx.unsupported(fmt::format("{} of integer tensors (bitwise on integers)", ctx.node().kind),
                        "tract's NNEF has bit operations on booleans here; cast to bool first");
    Expr a = arg(ctx, 0, DType::Bool), b = arg(ctx, 1, DType::Bool);
    if (Op == '^')
        compareBooleans(ctx, "ne", a, b);
    else
        ctx.emitOut(Op == '&' ? "and" : "or", {a, b});
}

void lowerLogicalXor(Context& ctx) {
    compareBooleans(ctx, "ne", arg(ctx, 0, DType::Bool), arg(ctx, 1, DType::Bool));
}

// addcmul(x, a, b, value) = x + value * a * b; addcdiv: x + value * a / b
template <bool Div> void lowerAddc(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr ab = ctx.emitTemp(Div ? "div" : "mul", {arg(ctx, 1), arg(ctx, 2)}, {}, "product");
    const double value = ctx.numInputs() > 3 ? ctx.floatArg(3) : 1.0;
    if (value != 1.0)
        ab = ctx.emitTemp("mul", {ab, lit(value, t)}, {}, "scaled");
    ctx.emitOut("add", {arg(ctx, 0), ab});
}

// lerp(a, b, w) = a + w * (b - a)
void lowerLerp(Context& ctx) {
    Expr a = arg(ctx, 0);
    Expr d = ctx.emitTemp("sub", {arg(ctx, 1), a}, {}, "delta");
    Expr w = ctx.emitTemp("mul", {arg(ctx, 2), d}, {}, "weighted");
    ctx.emitOut("add", {a, w});
}

// NaN is the only value not equal to itself.
void lowerIsNan(Context& ctx) {
    Expr x = ctx.operand(ctx.node().inputs[0], rankOf(ctx.out()), ctx.in(0).dtype);
    ctx.emitOut("ne", {x, x});
}

// --- activations ---------------------------------------------------------------

void lowerHardshrink(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr x = arg(ctx, 0);
    Expr mag = ctx.emitTemp("abs", {x}, {}, "abs");
    Expr keep = ctx.emitTemp("gt", {mag, lit(ctx.floatArg(1), t)}, {}, "keep");
    ctx.emitOut("select", {keep, x, lit(0.0, t)});
}

// softshrink: x - l above l, x + l below -l, 0 between.
void lowerSoftshrink(Context& ctx) {
    DType t = ctx.out().dtype;
    const double l = ctx.floatArg(1);
    Expr x = arg(ctx, 0);
    Expr above = ctx.emitTemp("gt", {x, lit(l, t)}, {}, "above");
    Expr below = ctx.emitTemp("lt", {x, lit(-l, t)}, {}, "below");
    Expr down = ctx.emitTemp("sub", {x, lit(l, t)}, {}, "down");
    Expr up = ctx.emitTemp("add", {x, lit(l, t)}, {}, "up");
    Expr low = ctx.emitTemp("select", {below, up, lit(0.0, t)}, {}, "low");
    ctx.emitOut("select", {above, down, low});
}

// threshold(x, th, value) = x > th ? x : value
void lowerThreshold(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr x = arg(ctx, 0);
    Expr keep = ctx.emitTemp("gt", {x, lit(ctx.floatArg(1), t)}, {}, "keep");
    ctx.emitOut("select", {keep, x, lit(ctx.floatArg(2), t)});
}

// PyTorch's softplus with beta 1 and threshold 20: linear above it.
Expr softplusOf(Context& ctx, Expr x, DType t) {
    Expr e = ctx.emitTemp("exp", {x}, {}, "exp");
    Expr l = ctx.emitTemp("log", {ctx.emitTemp("add", {e, lit(1.0, t)}, {}, "exp1")}, {}, "log");
    Expr big = ctx.emitTemp("gt", {x, lit(20.0, t)}, {}, "linear");
    return ctx.emitTemp("select", {big, x, l}, {}, "softplus");
}

// mish(x) = x * tanh(softplus(x))
void lowerMish(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr x = arg(ctx, 0);
    Expr th = ctx.emitTemp("tanh", {softplusOf(ctx, x, t)}, {}, "tanh");
    ctx.emitOut("mul", {x, th});
}

// max(0, x) + min(0, alpha * (exp(x / divisor) - 1)), times scale: celu
// divides by alpha, selu does not and scales.
void emitCelu(Context& ctx, double alpha, double divisor, double scale) {
    DType t = ctx.out().dtype;
    Expr x = arg(ctx, 0);
    Expr pos = ctx.emitTemp("max", {x, lit(0.0, t)}, {}, "positive");
    Expr xs = divisor == 1.0 ? x : ctx.emitTemp("div", {x, lit(divisor, t)}, {}, "scaled_in");
    Expr em1 =
        ctx.emitTemp("sub", {ctx.emitTemp("exp", {xs}, {}, "exp"), lit(1.0, t)}, {}, "expm1");
    Expr neg =
        ctx.emitTemp("min", {ctx.emitTemp("mul", {em1, lit(alpha, t)}, {}, "alpha"), lit(0.0, t)},
                     {}, "negative");
    if (scale == 1.0) {
        ctx.emitOut("add", {pos, neg});
        return;
    }
    Expr sum = ctx.emitTemp("add", {pos, neg}, {}, "sum");
    ctx.emitOut("mul", {sum, lit(scale, t)});
}

void lowerSelu(Context& ctx) {
    emitCelu(ctx, 1.6732632423543772848170429916717, 1.0, 1.0507009873554804934193349852946);
}

void lowerCelu(Context& ctx) {
    const double alpha = ctx.numInputs() > 1 ? ctx.floatArg(1) : 1.0;
    emitCelu(ctx, alpha, alpha, 1.0);
}

// log_sigmoid(x) = min(x, 0) - log(1 + exp(-|x|)), stable for large |x|.
void lowerLogSigmoid(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr x = arg(ctx, 0);
    Expr m = ctx.emitTemp("min", {x, lit(0.0, t)}, {}, "negative");
    Expr e = ctx.emitTemp(
        "exp", {ctx.emitTemp("neg", {ctx.emitTemp("abs", {x}, {}, "abs")}, {}, "neg")}, {}, "exp");
    Expr l = ctx.emitTemp("log", {ctx.emitTemp("add", {e, lit(1.0, t)}, {}, "exp1")}, {}, "log");
    ctx.emitOut("sub", {m, l});
}

// glu(x, dim) = a * sigmoid(b), a and b the halves of x along dim.
void lowerGlu(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t axis = ctx.axis(ctx.numInputs() > 1 ? ctx.intArg(1) : -1, rankOf(x));
    const int64_t half = x.shape[static_cast<size_t>(axis)] / 2;
    Expr e = ctx.input(0);
    Expr a = ctx.emitTemp("slice", {e}, sliceArgs(axis, 0, half), "a");
    Expr b = ctx.emitTemp("slice", {e}, sliceArgs(axis, half, 2 * half), "b");
    ctx.emitOut("mul", {a, ctx.emitTemp("sigmoid", {b}, {}, "gate")});
}

// rrelu at inference: a leaky relu with the mean slope (lower + upper) / 2.
void lowerRrelu(Context& ctx) {
    if (ctx.numInputs() > 3 && ctx.boolArg(3))
        ctx.unsupported("rrelu in training mode (random slopes)", "export the model in eval mode");
    const double lower = ctx.numInputs() > 1 ? ctx.floatArg(1) : 1.0 / 8.0;
    const double upper = ctx.numInputs() > 2 ? ctx.floatArg(2) : 1.0 / 3.0;
    ctx.emitOut("leaky_relu", {arg(ctx, 0)}, {{"alpha", Expr::f((lower + upper) / 2.0)}});
}

} // namespace

void registerMathOps(Registry& r) {
    r.beginFamily("elementwise");
    r.add("aten::erf", lowerErf, "tract_core_erf; standard operations for Khronos");
    r.add("aten::remainder", lowerModulo<true>, "a - b * floor(a / b); integers through f32");
    r.add("aten::fmod", lowerModulo<false>, "a - b * trunc(a / b); integers through f32");
    r.add("aten::square", lowerSquare, "x * x");
    r.add("aten::log2", lowerLogBase<2>, "log(x) / ln 2");
    r.add("aten::log10", lowerLogBase<10>, "log(x) / ln 10");
    r.add("aten::log1p", lowerLog1p, "log(1 + x): less precise than PyTorch near 0");
    r.add("aten::expm1", lowerExpm1, "exp(x) - 1: less precise than PyTorch near 0");
    r.add("aten::trunc", lowerTrunc);
    r.add("aten::frac", lowerFrac, "x - trunc(x)");
    r.add("aten::logical_xor", lowerLogicalXor, "as ne of booleans");
    r.add("aten::bitwise_and", lowerBoolBinary<'&'>, "boolean tensors");
    r.add("aten::bitwise_or", lowerBoolBinary<'|'>, "boolean tensors");
    r.add("aten::bitwise_xor", lowerBoolBinary<'^'>, "boolean tensors");
    r.add("aten::__xor__", lowerBoolBinary<'^'>, "boolean tensors");
    r.add("aten::addcmul", lowerAddc<false>);
    r.add("aten::addcdiv", lowerAddc<true>);
    r.add("aten::lerp", lowerLerp, "scalar or tensor weight");
    r.add("aten::isnan", lowerIsNan, "x != x");
    r.beginFamily("activation");
    r.add("aten::hardshrink", lowerHardshrink);
    r.add("aten::softshrink", lowerSoftshrink);
    r.add("aten::threshold", lowerThreshold);
    r.add("aten::mish", lowerMish, "x * tanh(softplus(x))");
    r.add("aten::selu", lowerSelu, "spelled out (tract has no selu)");
    r.add("aten::celu", lowerCelu, "spelled out");
    r.add("aten::log_sigmoid", lowerLogSigmoid, "min(x, 0) - log(1 + exp(-|x|))");
    r.add("aten::glu", lowerGlu, "static split axis");
    r.add("aten::rrelu", lowerRrelu, "inference: leaky relu with the mean slope");
}

} // namespace t2n::translate
