// Normalizations. Parameters become [1, C] variables: with NNEF's trailing
// broadcast they meet the channel axis of [N, C, ...] inputs directly.
#include "translate/lower_util.h"
#include "translate/registry.h"

namespace t2n::translate {

namespace {

// A per-channel parameter as [1, C], or `absent` when it is None.
Expr channelParam(Context& ctx, size_t i, int64_t channels, Expr absent) {
    if (ctx.isNone(i))
        return absent;
    const ir::Value& v = ctx.in(i);
    if (v.constant)
        if (auto* t = std::get_if<TensorData>(&*v.constant))
            return ctx.constantTensor(t->reshaped({1, channels}), v.paramName,
                                      v.name.empty() ? v.debugName : v.name);
    return ctx.emitTemp("unsqueeze", {ctx.input(i)}, {{"axes", Expr::ints({0})}}, "param");
}

// batch_norm(x, weight, bias, running_mean, running_var, training, momentum, eps, cudnn)
void lowerBatchNorm(Context& ctx) {
    if (ctx.boolArg(5))
        ctx.unsupported("batch_norm in training mode (batch statistics)",
                        "put the model in eval mode before torch.jit.save");
    const ir::Value& x = ctx.in(0);
    if (rankOf(x) < 2)
        ctx.unsupported("batch_norm of an input without a channel axis");
    const int64_t c = x.shape[1];
    // --f32-norm: an f16 batch norm computed in f32, its f16 parameters cast.
    const DType t = upcastType(ctx, ctx.options().f32Norm);
    auto param = [&](size_t i, double absent) {
        Expr p = channelParam(ctx, i, c, Expr::f(absent));
        return ctx.isNone(i) || t == ctx.out().dtype ? p
                                                     : ctx.cast(p, ctx.in(i).dtype, t, "param_f32");
    };
    Expr mean = param(3, 0.0), var = param(4, 1.0), offset = param(2, 0.0), scale = param(1, 1.0);
    emitFinal(ctx, "batch_normalization",
              {ctx.operand(ctx.node().inputs[0], rankOf(x), t), mean, var, offset, scale}, t,
              {{"epsilon", Expr::f(ctx.floatArg(7))}});
}

// Group normalization with the weight and bias at arguments wi and bi: statistics over each
// group of channels and the spatial axes, then the per-channel affine.
void groupNorm(Context& ctx, int64_t groups, size_t wi, size_t bi, double epsilon) {
    const ir::Value& x = ctx.in(0);
    const int64_t rank = rankOf(x);
    if (rank < 2)
        ctx.unsupported("group_norm of an input without a channel axis");
    const int64_t c = x.shape[1];
    // --f32-norm: an f16 group norm computed in f32, its f16 parameters cast.
    const DType t = upcastType(ctx, ctx.options().f32Norm);
    Expr e = ctx.operand(ctx.node().inputs[0], rank, t);
    Expr grouped =
        ctx.emitTemp("reshape", {e}, {{"shape", Expr::ints({0, groups, -1})}}, "grouped");
    Kwargs axes{{"axes", Expr::ints({2})}};
    Expr mean = ctx.emitTemp("mean_reduce", {grouped}, axes, "mean");
    Expr centered = ctx.emitTemp("sub", {grouped, mean}, {}, "centered");
    Expr sq = ctx.emitTemp("mul", {centered, centered}, {}, "squared");
    Expr var = ctx.emitTemp("mean_reduce", {sq}, axes, "variance");
    Expr eps = ctx.emitTemp("add", {var, Context::scalarLiteral(epsilon, t)}, {}, "eps");
    Expr normed =
        ctx.emitTemp("div", {centered, ctx.emitTemp("sqrt", {eps}, {}, "std")}, {}, "normalized");
    // The batch is copied (0); the spatial axes are the input's, so that a
    // dynamic H x W (a diffusion U-Net's) stays symbolic.
    std::vector<Expr> shape{Expr::i(0), Expr::i(c)};
    for (int64_t d = 2; d < rank; ++d)
        shape.push_back(ctx.dimExpr(ctx.node().inputs[0], d));
    const bool affine = !ctx.isNone(wi) || !ctx.isNone(bi);
    if (!affine) {
        emitFinal(ctx, "reshape", {normed}, t, {{"shape", Expr::array(shape)}});
        return;
    }
    Expr y = ctx.emitTemp("reshape", {normed}, {{"shape", Expr::array(shape)}}, "ungrouped");
    auto upcast = [&](Expr p, DType from) {
        return t == ctx.out().dtype ? p : ctx.cast(p, from, t, "param_f32");
    };
    // [C] parameters as [1, C, 1, ...] to meet the channel axis.
    auto perChannel = [&](size_t i, double absent) {
        if (ctx.isNone(i))
            return Context::scalarLiteral(absent, t);
        std::vector<int64_t> s(static_cast<size_t>(rank), 1);
        s[1] = c;
        const ir::Value& v = ctx.in(i);
        if (v.constant)
            if (auto* d = std::get_if<TensorData>(&*v.constant))
                return upcast(ctx.constantTensor(d->reshaped(s), v.paramName,
                                                 v.name.empty() ? v.debugName : v.name),
                              v.dtype);
        return upcast(ctx.emitTemp("reshape", {ctx.input(i)}, {{"shape", Expr::ints(s)}}, "param"),
                      v.dtype);
    };
    Expr scaled = ctx.emitTemp("mul", {y, perChannel(wi, 1.0)}, {}, "scaled");
    emitFinal(ctx, "add", {scaled, perChannel(bi, 0.0)}, t);
}

// group_norm(x, groups, weight, bias, eps, cudnn)
void lowerGroupNorm(Context& ctx) {
    groupNorm(ctx, ctx.intArg(1), 2, 3, ctx.floatArg(4));
}

// native_group_norm(x, weight, bias, N, C, HxW, groups, eps) -> (y, mean,
// rstd); the statistics outputs are refused.
void lowerNativeGroupNorm(Context& ctx) {
    for (size_t i = 1; i < ctx.node().outputs.size(); ++i)
        if (ctx.isUsed(ctx.node().outputs[i]))
            ctx.unsupported("native_group_norm with its mean or rstd used");
    groupNorm(ctx, ctx.intArg(6), 1, 2, ctx.floatArg(7));
}

} // namespace

void registerNormOps(Registry& r) {
    r.beginFamily("norm");
    r.add("aten::batch_norm", lowerBatchNorm, "inference mode (running statistics)");
    r.add("aten::group_norm", lowerGroupNorm, "affine or not; dynamic batch kept");
    r.add("aten::native_group_norm", lowerNativeGroupNorm,
          "as group_norm; mean and rstd outputs unused",
          "reshape mean_reduce sub mul add sqrt div");
}

} // namespace t2n::translate
