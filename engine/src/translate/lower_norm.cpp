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
    DType t = ctx.out().dtype;
    Expr mean = channelParam(ctx, 3, c, Expr::f(0.0));
    Expr var = channelParam(ctx, 4, c, Expr::f(1.0));
    Expr offset = channelParam(ctx, 2, c, Expr::f(0.0));
    Expr scale = channelParam(ctx, 1, c, Expr::f(1.0));
    ctx.emitOut("batch_normalization",
                {ctx.operand(ctx.node().inputs[0], rankOf(x), t), mean, var, offset, scale},
                {{"epsilon", Expr::f(ctx.floatArg(7))}});
}

} // namespace

void registerNormOps(Registry& r) {
    r.beginFamily("norm");
    r.add("aten::batch_norm", lowerBatchNorm, "inference mode (running statistics)");
}

} // namespace t2n::translate
