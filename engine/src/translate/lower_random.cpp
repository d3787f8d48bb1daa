// Random draws inside forward (issue 26): rand and randn (a size list),
// rand_like and randn_like (another tensor's shape), normal (float mean and
// std with a size; or a tensor mean and/or std: mean + std * a standard
// normal draw) and uniform_ / normal_ (a draw of their operand's shape, whose
// values they overwrite). The trace never folds a draw (ir_builder): one
// sample frozen into the archive would be wrong at every other run.
//
// tract draws with tract_onnx_random(datum_type, shape, dist, parameters,
// seed) of the tract_onnx registry (onnx-opl/src/random.rs, since tract
// 0.19.0): uniform [low, high) or normal (mean, std) floats from its own
// generator, seeded afresh for each model state when `seed` is absent. t2n
// writes no seed: like PyTorch without manual_seed, every run draws anew, and
// no value can equal PyTorch's, so the check compares what depends on a draw
// by its distribution (check/compare.h, compareDistributions).
//
// tract draws f32, f64 and f16, but its f16 normal path samples a uniform
// distribution between mean and std (the F16 arm of Dist::Normal calls
// sample_uniform): an f16 draw is written as an f32 draw and a cast.
// Gamma and Poisson draws are built from these draws (lower_samplers.cpp).
// Random integers, permutations, bernoulli, multinomial and the other
// samplers have no tract operation: the translator refuses them by name, as
// it refuses every draw for Khronos NNEF, which has no random operation.
#include "translate/lower_util.h"
#include "translate/random_draws.h"
#include "translate/registry.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace t2n::translate {

// The target can draw, and the node's result is a float tensor drawn from
// PyTorch's default generator; `generators` lists the arguments that must
// be None (an explicit torch.Generator, or names of a named tensor).
void requireDraw(Context& ctx, const std::vector<size_t>& generators) {
    const std::string& kind = ctx.node().kind;
    if (ctx.target().isKhronos())
        ctx.unsupported(fmt::format("{} is not supported for Khronos: NNEF 1.0.5 has no random "
                                    "operation, and t2n never freezes a draw into a constant",
                                    kind),
                        "export for tract (--target tract), which draws it with "
                        "tract_onnx_random");
    requireTract(ctx, "tract_onnx_random", kind);
    for (size_t i : generators)
        if (!ctx.isNone(i))
            ctx.unsupported(
                fmt::format("{} with an explicit generator or names (argument {})", kind, i),
                "tract draws from its own generator: call it without generator=");
    const DType t = ctx.out().dtype;
    if (!isFloat(t))
        ctx.unsupported(
            fmt::format("{} of {} values: tract_onnx_random draws floats only", kind, dtypeName(t)),
            "draw floats and convert them in the model");
}

// The dims of input `i` (a static size, a symbol, or the graph's shape_of).
std::vector<Expr> drawShapeOf(Context& ctx, size_t i) {
    std::vector<Expr> dims;
    for (int64_t d = 0; d < rankOf(ctx.in(i)); ++d)
        dims.push_back(ctx.dimExpr(ctx.node().inputs[i], d));
    return dims;
}

Expr drawOf(Context& ctx, std::vector<Expr> shape, Dist dist, double p1, double p2, DType drawn,
            bool last, const std::string& suffix) {
    Kwargs k{{"datum_type", Expr::str(std::string(dtypeName(drawn)))},
             {"shape", Expr::array(std::move(shape))},
             {"dist", Expr::str(dist == Dist::Uniform ? "uniform" : "normal")},
             {"parameters", Expr::array({Expr::f(p1), Expr::f(p2)})}};
    return emitStep(ctx, last, "tract_onnx_random", {}, std::move(k), suffix);
}

namespace {

bool isStatic(const ir::Value& v) {
    return std::all_of(v.symbols.begin(), v.symbols.end(),
                       [](const std::string& s) { return s.empty(); });
}

double finiteArg(Context& ctx, size_t i, const char* what) {
    const double v = ctx.floatArg(i);
    if (!std::isfinite(v))
        ctx.unsupported(fmt::format("{} with a {} of {}", ctx.node().kind, what, v));
    return v;
}

// tract_onnx_random of `shape` in the output's dtype (f16 drawn in f32 and
// cast): the node's output when `last`, else a helper.
Expr emitDraw(Context& ctx, std::vector<Expr> shape, Dist dist, double p1, double p2, bool last) {
    const DType out = ctx.out().dtype;
    const DType drawn = out == DType::F16 ? DType::F32 : out;
    Expr d = drawOf(ctx, std::move(shape), dist, p1, p2, drawn, last && drawn == out, "draw");
    if (drawn == out)
        return d;
    return emitStep(ctx, last, "tract_core_cast", {d},
                    {{"to", Expr::str(std::string(dtypeName(out)))}}, "cast");
}

// rand / randn(size, [generator | names,] dtype, layout, device, pin_memory).
void lowerSized(Context& ctx) {
    std::vector<size_t> generators;
    for (size_t i = 1; i + 5 <= ctx.numInputs(); ++i)
        generators.push_back(i);
    requireDraw(ctx, generators);
    const bool normal = ctx.node().kind == "aten::randn";
    emitDraw(ctx, ctx.sizesArg(0), normal ? Dist::Normal : Dist::Uniform, 0.0, 1.0, true);
}

// rand_like / randn_like(x, dtype, layout, device, pin_memory, memory_format).
void lowerLike(Context& ctx) {
    requireDraw(ctx, {});
    const bool normal = ctx.node().kind == "aten::randn_like";
    emitDraw(ctx, drawShapeOf(ctx, 0), normal ? Dist::Normal : Dist::Uniform, 0.0, 1.0, true);
}

// uniform_ / uniform(x, from, to, generator) and normal_(x, mean, std,
// generator): every value of x drawn anew. (Hardening usually makes uniform_
// the functional uniform and normal_ a normal(mean, std, x.size()).)
void lowerInPlace(Context& ctx) {
    requireDraw(ctx, {3});
    const bool normal = ctx.node().kind == "aten::normal_";
    const double a = finiteArg(ctx, 1, normal ? "mean" : "lower bound");
    const double b = finiteArg(ctx, 2, normal ? "std" : "upper bound");
    if (!normal && !(a < b))
        ctx.unsupported(fmt::format("uniform_ from {} to {}: tract draws from [from, to) and "
                                    "refuses an empty range",
                                    a, b),
                        "write a constant fill (torch.full) instead");
    emitDraw(ctx, drawShapeOf(ctx, 0), normal ? Dist::Normal : Dist::Uniform, a, b, true);
}

// normal(mean, std, ...): float mean and std with a size (float_float), or
// mean + std * N(0, 1) when either is a tensor (Tensor_float, float_Tensor,
// Tensor_Tensor), the draw of the broadcast shape.
void lowerNormal(Context& ctx) {
    const bool meanTensor = ctx.in(0).kind == ir::ValueKind::Tensor;
    const bool stdTensor = ctx.in(1).kind == ir::ValueKind::Tensor;
    if (!meanTensor && !stdTensor) {
        requireDraw(ctx, {3});
        const double mean = finiteArg(ctx, 0, "mean");
        const double std = finiteArg(ctx, 1, "std");
        emitDraw(ctx, ctx.sizesArg(2), Dist::Normal, mean, std, true);
        return;
    }
    requireDraw(ctx, {2});
    const ir::Value& y = ctx.out();
    const int64_t rank = rankOf(y);
    const DType t = y.dtype;
    std::vector<Expr> shape;
    if (!(meanTensor && stdTensor))
        shape = drawShapeOf(ctx, meanTensor ? 0 : 1);
    else if (ctx.in(0).shape == ctx.in(1).shape && ctx.in(0).symbols == ctx.in(1).symbols)
        shape = drawShapeOf(ctx, 0);
    else if (isStatic(ctx.in(0)) && isStatic(ctx.in(1)))
        for (int64_t d : y.shape)
            shape.push_back(Expr::i(d));
    else
        ctx.unsupported("normal of a mean and a std of different shapes over a dynamic axis",
                        "broadcast them to one shape before the call");
    if (!stdTensor) { // mean + N(0, std)
        Expr d = emitDraw(ctx, shape, Dist::Normal, 0.0, finiteArg(ctx, 1, "std"), false);
        ctx.emitOut("add", {ctx.operand(ctx.node().inputs[0], rank, t), d});
        return;
    }
    Expr d = emitDraw(ctx, shape, Dist::Normal, 0.0, 1.0, false);
    Expr scaled =
        ctx.emitTemp("mul", {ctx.operand(ctx.node().inputs[1], rank, t), d}, {}, "scaled");
    Expr mean = meanTensor ? ctx.operand(ctx.node().inputs[0], rank, t)
                           : Context::scalarLiteral(finiteArg(ctx, 0, "mean"), t);
    ctx.emitOut("add", {mean, scaled});
}

} // namespace

void registerRandomOps(Registry& r) {
    r.beginFamily("random");
    const std::string tract = "tract only (tract_onnx_random, tract_onnx registry); float dtypes, "
                              "f16 drawn in f32; a draw of its own at each run, never a constant";
    const char* draws = "tract_onnx_random +tract_core_cast !khronos";
    r.add("aten::rand", lowerSized, "uniform [0, 1); " + tract, draws);
    r.add("aten::randn", lowerSized, "normal (0, 1); " + tract, draws);
    r.add("aten::rand_like", lowerLike, "uniform [0, 1); " + tract, draws);
    r.add("aten::randn_like", lowerLike, "normal (0, 1); " + tract, draws);
    r.add("aten::uniform_", lowerInPlace, "uniform [from, to) of the operand's shape; " + tract,
          draws);
    r.add("aten::uniform", lowerInPlace, "uniform [from, to) of the operand's shape; " + tract,
          draws);
    r.add("aten::normal_", lowerInPlace, "normal (mean, std) of the operand's shape; " + tract,
          draws);
    r.add("aten::normal", lowerNormal,
          "float mean and std with a size, or tensors: mean + std * normal (0, 1); " + tract,
          "tract_onnx_random +tract_core_cast +add +mul !khronos");
}

} // namespace t2n::translate
