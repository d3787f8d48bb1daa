// The fused attention paths PyTorch 1.13 takes in eval mode without grad:
// aten::_native_multi_head_attention (nn.MultiheadAttention, batch_first)
// and aten::_transformer_encoder_layer_fwd (nn.TransformerEncoderLayer),
// spelled out as projections, per-head scaled dot products, softmax and
// layer norms.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>

namespace t2n::translate {

namespace {

Kwargs mm(bool transposeB) {
    return {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(transposeB)}};
}

// x [B, T, E] times rows [k*E, (k+1)*E) of a [3E, E] weight (transposed),
// plus the matching bias rows.
Expr projectPart(Context& ctx, Expr x, size_t weight, size_t bias, int64_t part, int64_t e,
                 const std::string& name) {
    DType t = ctx.out().dtype;
    Expr w = ctx.operand(ctx.node().inputs[weight], 3, t);
    Expr b = ctx.operand(ctx.node().inputs[bias], 3, t);
    if (part >= 0) {
        w = ctx.emitTemp("slice", {w}, sliceArgs(1, part * e, (part + 1) * e), name + "_weight");
        b = ctx.emitTemp("slice", {b}, sliceArgs(2, part * e, (part + 1) * e), name + "_bias");
    }
    Expr m = ctx.emitTemp("matmul", {x, w}, mm(true), name);
    return ctx.emitTemp("add", {m, b}, {}, name + "_biased");
}

// [B, T, E] -> [B, H, T, D]
Expr splitHeads(Context& ctx, Expr x, int64_t heads, int64_t d, const std::string& name) {
    Expr r =
        ctx.emitTemp("reshape", {x}, {{"shape", Expr::ints({0, 0, heads, d})}}, name + "_heads");
    return ctx.emitTemp("transpose", {r}, {{"axes", Expr::ints({0, 2, 1, 3})}}, name + "_bhtd");
}

// Where the fused kernels' mask goes: PyTorch 1.13 converts a non-bool mask to
// bool (nonzero = masked, attention.cpp masked_softmax), then mask type 1 is a
// key padding mask [B, S] and type 0 (or none) an attention mask [T, S]. The
// result is bool and of rank 4, true where a score is masked.
Expr maskOf(Context& ctx, size_t maskIdx, size_t typeIdx) {
    const ir::Value& m = ctx.in(maskIdx);
    const bool keyPadding =
        ctx.numInputs() > typeIdx && !ctx.isNone(typeIdx) && ctx.intArg(typeIdx) == 1;
    if (rankOf(m) != 2)
        ctx.unsupported(fmt::format("fused attention with a rank-{} mask", rankOf(m)),
                        "give a key padding mask [B, S] or an attention mask [T, S]");
    Expr mask = keyPadding ? ctx.tensor(ctx.node().inputs[maskIdx])
                           : ctx.operand(ctx.node().inputs[maskIdx], 4);
    if (m.dtype != DType::Bool)
        mask = ctx.emitTemp("ne", {mask, lit(0.0, m.dtype)}, {}, "mask_bool");
    if (keyPadding)
        mask = ctx.emitTemp("unsqueeze", {mask}, {{"axes", Expr::ints({1, 2})}}, "key_padding");
    return mask;
}

bool hasMask(Context& ctx, size_t maskIdx) {
    return ctx.numInputs() > maskIdx && !ctx.isNone(maskIdx);
}

// -1e30 rather than -inf where masked: a fully masked row then gets uniform
// weights instead of NaN, in both forms below.
constexpr double kMasked = -1e30;

struct Attention {
    Expr context; ///< [B, T, E], heads merged
    Expr weights; ///< softmax output [B, H, T, S]; none when reified
};

// Heads merged back: [B, H, T, D] -> [B, T, E].
Expr mergeHeads(Context& ctx, Expr o, int64_t e) {
    Expr merged = ctx.emitTemp("transpose", {o}, {{"axes", Expr::ints({0, 2, 1, 3})}}, "merged");
    return ctx.emitTemp("reshape", {merged}, {{"shape", Expr::ints({0, 0, e})}}, "concat_heads");
}

// --reify-sdpa: one tract_transformers_sdpa over the [B, H, T, D] heads, with
// the mask as its additive [*, *, T, S] input (0 kept, kMasked masked; rank 4
// like q, as tract 0.22.0 requires) and the scale written out. tract casts
// the mask to acc_datum_type and adds it to the scaled scores
// (transformers/src/ops/sdpa.rs).
Expr reifiedAttention(Context& ctx, Expr qh, Expr kh, Expr vh, int64_t d, size_t maskIdx,
                      size_t typeIdx) {
    DType t = ctx.out().dtype;
    // --f32-attention: an f16 attention accumulates in f32.
    const DType acc = upcastType(ctx, ctx.options().f32Attention);
    std::vector<Expr> args{qh, kh, vh};
    if (hasMask(ctx, maskIdx))
        args.push_back(ctx.emitTemp(
            "select", {maskOf(ctx, maskIdx, typeIdx), lit(kMasked, t), lit(0.0, t)}, {}, "mask"));
    const std::string dt(dtypeName(t));
    return ctx.emitTemp("tract_transformers_sdpa", args,
                        {{"scale", lit(1.0 / std::sqrt(static_cast<double>(d)), t)},
                         {"datum_type", Expr::str(dt)},
                         {"acc_datum_type", Expr::str(std::string(dtypeName(acc)))},
                         {"is_causal", Expr::b(false)}},
                        "attention");
}

// softmax(q k^T / sqrt(D) masked) v, heads merged back to [B, T, E]. With
// --reify-sdpa one tract_transformers_sdpa does it, unless the softmax output
// itself is wanted (need_weights): the operation does not give it.
Attention attend(Context& ctx, Expr q, Expr k, Expr v, int64_t heads, int64_t e, size_t maskIdx,
                 size_t typeIdx, bool needWeights) {
    DType t = ctx.out().dtype;
    const int64_t d = e / heads;
    Expr qh = splitHeads(ctx, q, heads, d, "q"), kh = splitHeads(ctx, k, heads, d, "k"),
         vh = splitHeads(ctx, v, heads, d, "v");
    if (ctx.options().reifySdpa && !needWeights)
        return {mergeHeads(ctx, reifiedAttention(ctx, qh, kh, vh, d, maskIdx, typeIdx), e), {}};
    // --f32-attention: an f16 attention's scores, softmax and weighted sum in f32.
    const DType c = upcastType(ctx, ctx.options().f32Attention);
    qh = ctx.cast(qh, t, c, "q_f32");
    kh = ctx.cast(kh, t, c, "k_f32");
    vh = ctx.cast(vh, t, c, "v_f32");
    Expr s = ctx.emitTemp("matmul", {qh, kh}, mm(true), "scores");
    s = ctx.emitTemp("mul", {s, lit(1.0 / std::sqrt(static_cast<double>(d)), c)}, {}, "scaled");
    if (hasMask(ctx, maskIdx))
        s = ctx.emitTemp("select", {maskOf(ctx, maskIdx, typeIdx), lit(kMasked, c), s}, {},
                         "masked");
    Expr p = ctx.emitTemp("softmax", {s}, {{"axes", Expr::ints({3})}}, "weights");
    Expr o = ctx.emitTemp("matmul", {p, vh}, mm(false), "context");
    return {mergeHeads(ctx, ctx.cast(o, c, t, "context_out"), e),
            needWeights ? ctx.cast(p, c, t, "weights_out") : p};
}

// _native_multi_head_attention(q, k, v, embed_dim, num_head, qkv_weight,
//   qkv_bias, proj_weight, proj_bias, mask?, need_weights, average, mask_type?)
void lowerNativeMha(Context& ctx) {
    if (rankOf(ctx.in(0)) != 3)
        ctx.unsupported("multi-head attention on an unbatched input");
    const int64_t e = ctx.intArg(3), heads = ctx.intArg(4);
    DType t = ctx.out().dtype;
    Expr q = projectPart(ctx, ctx.operand(ctx.node().inputs[0], 3, t), 5, 6, 0, e, "q_proj");
    Expr k = projectPart(ctx, ctx.operand(ctx.node().inputs[1], 3, t), 5, 6, 1, e, "k_proj");
    Expr v = projectPart(ctx, ctx.operand(ctx.node().inputs[2], 3, t), 5, 6, 2, e, "v_proj");
    const bool needWeights = ctx.node().outputs.size() > 1 && ctx.isUsed(ctx.node().outputs[1]);
    Attention a = attend(ctx, q, k, v, heads, e, 9, 12, needWeights);
    Expr o = ctx.emitTemp("matmul", {a.context, ctx.operand(ctx.node().inputs[7], 3, t)}, mm(true),
                          "out_proj");
    ctx.emitOut("add", {o, ctx.operand(ctx.node().inputs[8], 3, t)}, {}, 0);
    // need_weights: the softmax output, averaged over the heads unless asked not to.
    if (!needWeights)
        return;
    if (ctx.numInputs() > 11 && !ctx.isNone(11) && !ctx.boolArg(11)) {
        ctx.bindOut(a.weights, 1);
        return;
    }
    Expr mean = ctx.emitTemp("mean_reduce", {a.weights}, {{"axes", Expr::ints({1})}}, "head_mean");
    ctx.emitOut("squeeze", {mean}, {{"axes", Expr::ints({1})}}, 1);
}

// Layer norm over the last axis with [E] weight and bias inputs; in f32 for
// an f16 graph with --f32-norm.
Expr layerNorm(Context& ctx, Expr in, size_t w, size_t b, double eps, const std::string& name) {
    const DType out = ctx.out().dtype, t = upcastType(ctx, ctx.options().f32Norm);
    Expr x = ctx.cast(in, out, t, name + "_in");
    Kwargs k{{"axes", Expr::ints({2})}};
    Expr mean = ctx.emitTemp("mean_reduce", {x}, k, name + "_mean");
    Expr c = ctx.emitTemp("sub", {x, mean}, {}, name + "_centered");
    Expr var = ctx.emitTemp("mean_reduce", {ctx.emitTemp("mul", {c, c}, {}, name + "_sq")}, k,
                            name + "_var");
    Expr sd = ctx.emitTemp("sqrt", {ctx.emitTemp("add", {var, lit(eps, t)}, {}, name + "_eps")}, {},
                           name + "_std");
    Expr n = ctx.emitTemp("div", {c, sd}, {}, name + "_normalized");
    Expr s =
        ctx.emitTemp("mul", {n, ctx.operand(ctx.node().inputs[w], 3, t)}, {}, name + "_scaled");
    return ctx.cast(ctx.emitTemp("add", {s, ctx.operand(ctx.node().inputs[b], 3, t)}, {}, name), t,
                    out, name + "_out");
}

Expr linear3(Context& ctx, Expr x, size_t w, size_t b, const std::string& name) {
    DType t = ctx.out().dtype;
    Expr m = ctx.emitTemp("matmul", {x, ctx.operand(ctx.node().inputs[w], 3, t)}, mm(true), name);
    return ctx.emitTemp("add", {m, ctx.operand(ctx.node().inputs[b], 3, t)}, {}, name + "_biased");
}

// _transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight, qkv_bias,
//   proj_weight, proj_bias, use_gelu, norm_first, eps, norm_weight_1, norm_bias_1,
//   norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1, ffn_weight_2, ffn_bias_2,
//   mask?, mask_type?)
void lowerEncoderLayer(Context& ctx) {
    if (rankOf(ctx.in(0)) != 3)
        ctx.unsupported("transformer encoder layer on an unbatched input");
    const int64_t e = ctx.intArg(1), heads = ctx.intArg(2);
    const bool gelu = ctx.boolArg(7), normFirst = ctx.boolArg(8);
    const double eps = ctx.floatArg(9);
    DType t = ctx.out().dtype;
    Expr x = ctx.operand(ctx.node().inputs[0], 3, t);
    auto selfAttention = [&](Expr in) {
        Expr q = projectPart(ctx, in, 3, 4, 0, e, "q_proj");
        Expr k = projectPart(ctx, in, 3, 4, 1, e, "k_proj");
        Expr v = projectPart(ctx, in, 3, 4, 2, e, "v_proj");
        return linear3(ctx, attend(ctx, q, k, v, heads, e, 18, 19, false).context, 5, 6,
                       "out_proj");
    };
    auto feedForward = [&](Expr in) {
        Expr h = linear3(ctx, in, 14, 15, "ffn1");
        if (gelu) {
            Expr half = ctx.emitTemp("mul", {h, lit(M_SQRT1_2, t)}, {}, "gelu_scaled");
            Expr erf = erfOf(ctx, half, t, "gelu_erf");
            Expr one = ctx.emitTemp("add", {erf, lit(1.0, t)}, {}, "gelu_one");
            h = ctx.emitTemp("mul", {ctx.emitTemp("mul", {h, lit(0.5, t)}, {}, "gelu_half"), one},
                             {}, "gelu");
        } else {
            h = ctx.emitTemp("relu", {h}, {}, "ffn_relu");
        }
        return linear3(ctx, h, 16, 17, "ffn2");
    };
    Expr y;
    if (normFirst) {
        Expr a = ctx.emitTemp("add", {x, selfAttention(layerNorm(ctx, x, 10, 11, eps, "norm1"))},
                              {}, "residual1");
        y = ctx.emitTemp("add", {a, feedForward(layerNorm(ctx, a, 12, 13, eps, "norm2"))}, {},
                         "residual2");
    } else {
        Expr a = layerNorm(ctx, ctx.emitTemp("add", {x, selfAttention(x)}, {}, "residual1"), 10, 11,
                           eps, "norm1");
        y = layerNorm(ctx, ctx.emitTemp("add", {a, feedForward(a)}, {}, "residual2"), 12, 13, eps,
                      "norm2");
    }
    ctx.bindOut(y);
}

} // namespace

void registerAttentionOps(Registry& r) {
    r.beginFamily("attention");
    r.add("aten::_native_multi_head_attention", lowerNativeMha,
          "batch-first [B, T, E]; key padding mask [B, S] or attention mask [T, S] (bool, or "
          "float read as nonzero = masked like PyTorch 1.13); attention weights, averaged or per "
          "head; a fully masked row gives uniform weights where PyTorch gives NaN; "
          "tract_transformers_sdpa with --reify-sdpa (not for the weights)");
    r.add("aten::_transformer_encoder_layer_fwd", lowerEncoderLayer,
          "batch-first; relu or gelu; norm_first or not; key padding mask [B, S]; "
          "tract_transformers_sdpa with --reify-sdpa");
}

} // namespace t2n::translate
