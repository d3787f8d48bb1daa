// Activations and softmax. Where tract has no operator under the PyTorch
// name (gelu, silu, hardsigmoid, ...) the formula is spelled out with
// primitive operations, so that no fragment name collides with NNEF's
// standard ones (whose gelu is the sigmoid approximation).
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>
#include <numbers>

namespace t2n::translate {

namespace {

Expr in0(Context& ctx) {
    return ctx.operand(ctx.node().inputs[0], rankOf(ctx.out()), ctx.out().dtype);
}
// A literal of the output's dtype.
Expr outLit(Context& ctx, double v) {
    return Context::scalarLiteral(v, ctx.out().dtype);
}

void lowerRelu(Context& ctx) {
    ctx.emitOut("relu", {in0(ctx)});
}
void lowerSigmoid(Context& ctx) {
    ctx.emitOut("sigmoid", {in0(ctx)});
}
void lowerTanh(Context& ctx) {
    ctx.emitOut("tanh", {in0(ctx)});
}
void lowerRelu6(Context& ctx) {
    ctx.emitOut("clamp", {in0(ctx), outLit(ctx, 0), outLit(ctx, 6)});
}

void lowerHardtanh(Context& ctx) {
    double lo = ctx.numInputs() > 1 ? ctx.floatArg(1) : -1.0;
    double hi = ctx.numInputs() > 2 ? ctx.floatArg(2) : 1.0;
    ctx.emitOut("clamp", {in0(ctx), outLit(ctx, lo), outLit(ctx, hi)});
}

// x * clamp(x + 3, 0, 6) / 6 (tract_core_hard_swish from tract 0.19.9)
void lowerHardswish(Context& ctx) {
    Expr x = in0(ctx);
    if (ctx.target().has("tract_core_hard_swish")) {
        ctx.emitOut("tract_core_hard_swish", {x});
        return;
    }
    Expr s = ctx.emitTemp("add", {x, outLit(ctx, 3)}, {}, "shift");
    Expr c = ctx.emitTemp("clamp", {s, outLit(ctx, 0), outLit(ctx, 6)}, {}, "clamp");
    Expr m = ctx.emitTemp("mul", {x, c}, {}, "gate");
    ctx.emitOut("div", {m, outLit(ctx, 6)});
}

// clamp(x / 6 + 1/2, 0, 1)
void lowerHardsigmoid(Context& ctx) {
    Expr d = ctx.emitTemp("div", {in0(ctx), outLit(ctx, 6)}, {}, "scaled");
    Expr s = ctx.emitTemp("add", {d, outLit(ctx, 0.5)}, {}, "shift");
    ctx.emitOut("clamp", {s, outLit(ctx, 0), outLit(ctx, 1)});
}

// x * sigmoid(x); tract_core_silu from tract 0.23.0 (tract_transformers_silu
// before that needs a registry tract's CLI check does not always load).
void lowerSilu(Context& ctx) {
    Expr x = in0(ctx);
    if (ctx.target().has("tract_core_silu")) {
        ctx.emitOut("tract_core_silu", {x});
        return;
    }
    Expr s = ctx.emitTemp("sigmoid", {x}, {}, "sigmoid");
    ctx.emitOut("mul", {x, s});
}

// Exact: x/2 (1 + erf(x / sqrt 2)); tanh: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
void lowerGelu(Context& ctx) {
    std::string mode = ctx.numInputs() > 1 && !ctx.isNone(1) ? ctx.stringArg(1) : "none";
    Expr x = in0(ctx);
    Expr inner;
    if (mode == "none") {
        // Khronos has no erf: erfOf() spells it out with standard operations.
        if (!ctx.target().isKhronos() && !ctx.target().has("tract_core_erf"))
            ctx.unsupported("exact GELU needs tract_core_erf (tract 0.19.0 or newer)",
                            "target a newer tract, or use approximate='tanh' in the model");
        Expr s = ctx.emitTemp("mul", {x, outLit(ctx, 1.0 / std::numbers::sqrt2)}, {}, "scaled");
        inner = erfOf(ctx, s, ctx.out().dtype, "erf");
    } else if (mode == "tanh") {
        Expr x3 = ctx.emitTemp("mul", {x, ctx.emitTemp("mul", {x, x}, {}, "sq")}, {}, "cube");
        Expr p = ctx.emitTemp(
            "add", {x, ctx.emitTemp("mul", {x3, outLit(ctx, 0.044715)}, {}, "cubic")}, {}, "poly");
        Expr s =
            ctx.emitTemp("mul", {p, outLit(ctx, std::sqrt(2.0 / std::numbers::pi))}, {}, "scaled");
        inner = ctx.emitTemp("tanh", {s}, {}, "tanh");
    } else {
        ctx.unsupported(fmt::format("GELU approximation '{}'", mode));
    }
    Expr one = ctx.emitTemp("add", {inner, outLit(ctx, 1)}, {}, "plus_one");
    Expr half = ctx.emitTemp("mul", {x, outLit(ctx, 0.5)}, {}, "half");
    ctx.emitOut("mul", {half, one});
}

// prelu(x, weight): NNEF's prelu with the [C] slopes as [1, C], which
// trailing broadcasting aligns with the channel axis (a single slope stays 1-D).
void lowerPrelu(Context& ctx) {
    const ir::Value& w = ctx.in(1);
    const int64_t n = w.shape.empty() ? 1 : w.shape[0];
    Expr alpha;
    if (n == 1) {
        alpha = ctx.operand(ctx.node().inputs[1], 1, ctx.out().dtype);
    } else if (w.constant && std::holds_alternative<TensorData>(*w.constant)) {
        alpha = ctx.constantTensor(std::get<TensorData>(*w.constant).reshaped({1, n}), w.paramName,
                                   w.name.empty() ? w.debugName : w.name);
    } else {
        alpha = ctx.emitTemp("unsqueeze", {ctx.input(1)}, {{"axes", Expr::ints({0})}}, "slopes");
    }
    ctx.emitOut("prelu", {in0(ctx), alpha});
}

void lowerLeakyRelu(Context& ctx) {
    double slope = ctx.numInputs() > 1 ? ctx.floatArg(1) : 0.01;
    ctx.emitOut("leaky_relu", {in0(ctx)}, {{"alpha", outLit(ctx, slope)}});
}

// tract's elu has no alpha: other alphas and scales are spelled out as
// select(x > 0, scale x, scale alpha (exp(input_scale x) - 1)).
void lowerElu(Context& ctx) {
    double alpha = ctx.numInputs() > 1 ? ctx.floatArg(1) : 1.0;
    double scale = ctx.numInputs() > 2 ? ctx.floatArg(2) : 1.0;
    double inScale = ctx.numInputs() > 3 ? ctx.floatArg(3) : 1.0;
    Expr x = in0(ctx);
    if (alpha == 1.0 && scale == 1.0 && inScale == 1.0) {
        ctx.emitOut("elu", {x});
        return;
    }
    Expr xs = inScale == 1.0 ? x : ctx.emitTemp("mul", {x, outLit(ctx, inScale)}, {}, "in_scaled");
    Expr e = ctx.emitTemp("exp", {xs}, {}, "exp");
    Expr em1 = ctx.emitTemp("sub", {e, outLit(ctx, 1)}, {}, "expm1");
    Expr neg = ctx.emitTemp("mul", {em1, outLit(ctx, alpha * scale)}, {}, "negative");
    Expr pos = scale == 1.0 ? x : ctx.emitTemp("mul", {x, outLit(ctx, scale)}, {}, "positive");
    Expr cond = ctx.emitTemp("gt", {x, outLit(ctx, 0)}, {}, "is_positive");
    ctx.emitOut("select", {cond, pos, neg});
}

// log(1 + exp(beta x)) / beta, and x itself above the threshold (as PyTorch).
void lowerSoftplus(Context& ctx) {
    double beta = ctx.numInputs() > 1 ? ctx.floatArg(1) : 1.0;
    double threshold = ctx.numInputs() > 2 ? ctx.floatArg(2) : 20.0;
    Expr x = in0(ctx);
    Expr bx = beta == 1.0 ? x : ctx.emitTemp("mul", {x, outLit(ctx, beta)}, {}, "scaled");
    Expr e = ctx.emitTemp("exp", {bx}, {}, "exp");
    Expr l =
        ctx.emitTemp("log", {ctx.emitTemp("add", {e, outLit(ctx, 1)}, {}, "plus_one")}, {}, "log");
    Expr soft = beta == 1.0 ? l : ctx.emitTemp("div", {l, outLit(ctx, beta)}, {}, "soft");
    Expr big = ctx.emitTemp("gt", {bx, outLit(ctx, threshold)}, {}, "linear_region");
    ctx.emitOut("select", {big, x, soft});
}

int64_t softmaxAxis(Context& ctx) {
    // aten::softmax's third argument is a dtype; aten::_softmax's is half_to_float.
    bool hasDtype = ctx.node().kind != "aten::_softmax" && ctx.numInputs() > 2 && !ctx.isNone(2);
    if (hasDtype && ctx.out().dtype != ctx.in(0).dtype)
        ctx.unsupported("softmax with a dtype argument that changes the type");
    return ctx.axis(ctx.intArg(1), rankOf(ctx.in(0)));
}

void lowerSoftmax(Context& ctx) {
    int64_t a = softmaxAxis(ctx);
    ctx.emitOut("softmax", {in0(ctx)}, {{"axes", Expr::ints({a})}});
}

// tract_core_log_softmax where tract has it (0.21.15 on the 0.21 line, 0.22.0
// and newer; not 0.21.14), else x - max - log(sum(exp(x - max))).
void lowerLogSoftmax(Context& ctx) {
    int64_t a = softmaxAxis(ctx);
    Expr x = in0(ctx);
    if (ctx.target().has("tract_core_log_softmax")) {
        ctx.emitOut("tract_core_log_softmax", {x}, {{"axes", Expr::ints({a})}});
        return;
    }
    Kwargs axes{{"axes", Expr::ints({a})}};
    Expr m = ctx.emitTemp("max_reduce", {x}, axes, "max");
    Expr shifted = ctx.emitTemp("sub", {x, m}, {}, "shifted");
    Expr e = ctx.emitTemp("exp", {shifted}, {}, "exp");
    Expr s = ctx.emitTemp("sum_reduce", {e}, axes, "sum");
    Expr l = ctx.emitTemp("log", {s}, {}, "log_sum");
    ctx.emitOut("sub", {shifted, l});
}

} // namespace

void registerActivationOps(Registry& r) {
    r.beginFamily("activation");
    r.add("aten::relu", lowerRelu);
    r.add("aten::sigmoid", lowerSigmoid);
    r.add("aten::tanh", lowerTanh);
    r.add("aten::relu6", lowerRelu6, "clamp(x, 0, 6)");
    r.add("aten::hardtanh", lowerHardtanh, "clamp");
    r.add("aten::hardswish", lowerHardswish, "tract_core_hard_swish (tract >= 0.19.9)");
    r.add("aten::hardsigmoid", lowerHardsigmoid, "clamp(x / 6 + 0.5, 0, 1)");
    r.add("aten::silu", lowerSilu, "tract_core_silu (tract >= 0.23.0), else x * sigmoid(x)");
    r.add("aten::gelu", lowerGelu, "exact (tract_core_erf) and tanh approximations");
    r.add("aten::leaky_relu", lowerLeakyRelu);
    r.add("aten::prelu", lowerPrelu, "one slope or one per channel");
    r.add("aten::elu", lowerElu, "spelled out unless alpha = scale = 1 (tract's elu has no alpha)");
    r.add("aten::softplus", lowerSoftplus, "with PyTorch's linear threshold");
    r.add("aten::softmax", lowerSoftmax, "no dtype argument");
    r.add("aten::_softmax", lowerSoftmax);
    r.add("aten::log_softmax", lowerLogSoftmax,
          "tract_core_log_softmax (tract >= 0.21.15 on the 0.21 line, >= 0.22.0), else spelled "
          "out");
}

} // namespace t2n::translate
