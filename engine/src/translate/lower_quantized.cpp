// Statically quantized models (torch.ao.quantization, per-tensor affine), as
// torch_to_nnef emits them for tract (reference/torch-to-nnef-upstream.md
// §2.6, §4.3): dequantize becomes tract_core_cast; conv, linear and add are
// the standard operations on quantized operands; every quantized activation
// carries a graph.quant entry, from which tract derives its QU8/QI8 datum
// type. Weights are stored as their int8 integers (.dat code 3) with their
// own entry; biases are requantized to int32 in accumulator units (bias /
// (weight scale * input scale)) and stored without an entry, which is what
// tract adds to its int32 accumulator.
//
// Where PyTorch quantizes a real value (quantize_per_tensor, and the
// requantizing quantized::cat, mul and hardswish), the archive computes
// PyTorch's integer itself instead of leaving the rounding to tract's cast:
// PyTorch rounds x * (1.0f / scale) half to even and adds the zero point
// after (quantize_val), tract's cast rounds x / scale + zero_point (q_via_f32),
// so every exact tie differs when the zero point is odd. The archive rounds
// as PyTorch does (tract_core_round_even), clamps, multiplies back by the
// scale, and casts: the cast then lands on that integer plus the zero point
// (docs/quantized.md).
#include "translate/lower_quantized.h"

#include "target/quantized_kinds.h"
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <span>

namespace t2n::translate {

namespace {

constexpr int64_t kQUInt8 = 13; // c10::ScalarType codes of quantize_per_tensor's dtype
constexpr int64_t kQInt8 = 12;

nnef::QuantEntry entryFor(const ir::Quantization& q) {
    nnef::QuantEntry e;
    e.scale = q.scale;
    e.zeroPoint = q.zeroPoint;
    e.bits = static_cast<int>(dtypeBits(q.storage));
    e.isSigned = q.storage != DType::U8;
    return e;
}

const ir::Quantization& inputQuant(Context& ctx, size_t i) {
    const ir::Value& v = ctx.in(i);
    if (!v.quant)
        ctx.unsupported(fmt::format("input {} (%{}) is not a quantized tensor", i, v.debugName),
                        "quantized operators need quantized inputs (a QuantStub before them)");
    return *v.quant;
}

/// The unpacked parameters (jit/packed_params.h) of the packed object input 1.
const std::vector<ir::ValueId>& packedElements(Context& ctx, size_t expected) {
    const ir::Value& p = ctx.in(1);
    if (p.elements.size() < expected)
        ctx.unsupported(
            fmt::format("%{} is not a packed-parameters object t2n could open", p.debugName),
            "freeze the model (torch.jit.freeze) or save it with its quantized "
            "modules");
    return p.elements;
}

/// "conv1" from "self.conv1._packed_params" (traced) or
/// "self.fc._packed_params._packed_params" (linear).
std::string moduleLabel(const std::string& debugName) {
    std::string s = debugName.rfind("self.", 0) == 0 ? debugName.substr(5) : debugName;
    const std::string suffix = "._packed_params";
    while (s.size() > suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
        s.resize(s.size() - suffix.size());
    return s.empty() ? "quantized" : s;
}

/// The int8 weight as a quantized variable; refuses per-channel weights.
Expr weightVariable(Context& ctx, const ir::Value& w, const std::string& label) {
    if (!w.quant || !w.constant || !std::holds_alternative<TensorData>(*w.constant))
        ctx.unsupported("the packed weight is not a quantized tensor constant");
    if (w.quant->perChannel)
        ctx.unsupported("per-channel quantized weights (per_channel_affine) are not supported",
                        "quantize with a per-tensor qconfig (e.g. get_default_qconfig('qnnpack')); "
                        "tract reads scalar graph.quant entries only");
    if (w.quant->storage != DType::I8)
        ctx.unsupported(fmt::format("quantized weights stored as {} (t2n expects qint8)",
                                    dtypeName(w.quant->storage)));
    return ctx.storedVariable(std::get<TensorData>(*w.constant), label + ".weight",
                              entryFor(*w.quant));
}

/// A float bias in int32 accumulator units exactly as PyTorch quantizes it
/// (QuantizeBias -> quantize_val<qint32>): the scale narrowed to f32, its
/// f32 reciprocal times the f32 bias, rounded half to even. Dividing in
/// double instead lands one unit off near halves (bias -2409.5 units in
/// torchvision's quantized MobileNetV2), which shifts every accumulator of
/// that channel and made tract's outputs differ from PyTorch's.
double quantizedBias(double bias, double accScale) {
    const float inverse = 1.0f / static_cast<float>(accScale);
    return static_cast<double>(std::nearbyint(static_cast<float>(bias) * inverse));
}

/// The float bias requantized to int32 accumulator units, shaped [1, C]
/// (0 when absent), as PyTorch quantizes it (quantizedBias).
Expr biasVariable(Context& ctx, const ir::Value& b, double accScale, int64_t channels,
                  const std::string& label) {
    if (b.kind == ir::ValueKind::None || !b.constant ||
        !std::holds_alternative<TensorData>(*b.constant))
        return Expr::i(0);
    const TensorData& f = std::get<TensorData>(*b.constant);
    std::vector<int32_t> q(static_cast<size_t>(f.numel()));
    for (int64_t i = 0; i < f.numel(); ++i) {
        const double v = quantizedBias(f.asDouble(i), accScale);
        if (!(std::abs(v) < 2147483647.0))
            ctx.unsupported(
                fmt::format("bias {} does not fit int32 at scale {}", f.asDouble(i), accScale));
        q[static_cast<size_t>(i)] = static_cast<int32_t>(v);
    }
    TensorData data =
        TensorData::copyOf(DType::I32, {1, channels}, std::as_bytes(std::span(q.data(), q.size())));
    return ctx.storedVariable(std::move(data), label + ".bias", std::nullopt);
}

/// The conv's padding, stride, dilation and groups from its packed elements.
Kwargs convParameters(Context& ctx, const std::vector<ir::ValueId>& el) {
    auto ints = [&](size_t i) {
        const auto& c = ctx.graph().value(el[i]).constant;
        return c && std::holds_alternative<std::vector<int64_t>>(*c)
                   ? std::get<std::vector<int64_t>>(*c)
                   : std::vector<int64_t>{};
    };
    std::vector<Expr> pads;
    for (int64_t p : ints(3))
        pads.push_back(Expr::tuple({Expr::i(p), Expr::i(p)}));
    const auto& groups = ctx.graph().value(el[5]).constant;
    return {{"border", Expr::str("constant")},
            {"padding", Expr::array(pads)},
            {"stride", Expr::ints(ints(2))},
            {"dilation", Expr::ints(ints(4))},
            {"groups", Expr::i(groups ? std::get<int64_t>(*groups) : 1)}};
}

void lowerPerChannel(Context& ctx, bool conv, bool relu, const std::vector<ir::ValueId>& el,
                     size_t stepsAt);
bool roundsAsPyTorch(const Context& ctx);
void requantizeAsQnnpack(Context& ctx, const char* op, std::vector<Expr> args, Kwargs kwargs,
                         const ir::Quantization& input, const ir::Quantization& weight, bool relu);

/// quantized::conv2d[_relu](input, packed, scale, zero_point)
void lowerConv(Context& ctx, bool relu) {
    const auto& qin = inputQuant(ctx, 0);
    const auto& el = packedElements(ctx, 8);
    const ir::Value& w = ctx.graph().value(el[0]);
    if (w.quant && w.quant->perChannel) {
        lowerPerChannel(ctx, true, relu, el, 6);
        return;
    }
    const std::string label = moduleLabel(ctx.in(1).debugName);
    Expr weight = weightVariable(ctx, w, label);
    Expr bias = biasVariable(ctx, ctx.graph().value(el[1]), w.quant->scale * qin.scale,
                             w.shape.at(0), label);
    std::vector<Expr> args{ctx.input(0), weight, bias};
    if (roundsAsPyTorch(ctx)) {
        requantizeAsQnnpack(ctx, "conv", std::move(args), convParameters(ctx, el), qin, *w.quant,
                            relu);
        return;
    }
    if (!relu) {
        ctx.emitOut("conv", std::move(args), convParameters(ctx, el));
        return;
    }
    Expr c = ctx.emitTemp("conv", std::move(args), convParameters(ctx, el), "conv");
    ctx.addQuant(c.text, entryFor(*ctx.out().quant));
    ctx.emitOut("relu", {c});
}

/// quantized::linear[_relu](input, packed, scale, zero_point)
void lowerLinear(Context& ctx, bool relu) {
    const auto& qin = inputQuant(ctx, 0);
    if (rankOf(ctx.in(0)) != 2)
        ctx.unsupported(fmt::format("quantized linear on a rank-{} input", rankOf(ctx.in(0))),
                        "flatten the input to [batch, features] before the quantized linear");
    const auto& el = packedElements(ctx, 5);
    const ir::Value& w = ctx.graph().value(el[0]);
    if (w.quant && w.quant->perChannel) {
        lowerPerChannel(ctx, false, relu, el, 3);
        return;
    }
    const std::string label = moduleLabel(ctx.in(1).debugName);
    Expr weight = weightVariable(ctx, w, label);
    Expr bias = biasVariable(ctx, ctx.graph().value(el[1]), w.quant->scale * qin.scale,
                             w.shape.at(0), label);
    std::vector<Expr> args{ctx.input(0), weight, bias};
    if (roundsAsPyTorch(ctx)) {
        requantizeAsQnnpack(ctx, "linear", std::move(args), {}, qin, *w.quant, relu);
        return;
    }
    if (!relu) {
        ctx.emitOut("linear", std::move(args));
        return;
    }
    Expr l = ctx.emitTemp("linear", std::move(args), {}, "linear");
    ctx.addQuant(l.text, entryFor(*ctx.out().quant));
    ctx.emitOut("relu", {l});
}

/// A quantized operand as the real numbers it holds: tract_core_cast to f32.
Expr realValue(Context& ctx, ir::ValueId id, int64_t rank) {
    if (!ctx.graph().value(id).quant)
        ctx.unsupported(
            fmt::format("%{} is not a quantized tensor", ctx.graph().value(id).debugName));
    return ctx.emitTemp("tract_core_cast", {ctx.operand(id, rank)}, {{"to", Expr::str("f32")}},
                        "real");
}

Expr f32Literal(double v) {
    return Context::scalarLiteral(static_cast<double>(static_cast<float>(v)), DType::F32);
}

/// Whether the target can round as PyTorch does (tract_core_round_even).
/// Khronos has no half-to-even rounding and reads graph.quant entries as
/// fake quantization of its own: there the result is the plain cast of the
/// real value, as before.
bool roundsAsPyTorch(const Context& ctx) {
    return ctx.target().has("tract_core_round_even");
}

/// PyTorch's 1.0f / float(scale), the factor quantize_val multiplies by.
float inverseScale(const ir::Quantization& q) {
    return 1.0f / static_cast<float>(q.scale);
}

/// round_even(x * factor): the integer PyTorch rounds to, as an f32 tensor.
Expr roundedProduct(Context& ctx, Expr x, float factor, const std::string& hint) {
    Expr scaled = ctx.emitTemp("mul", {std::move(x), f32Literal(factor)}, {}, hint + "_scaled");
    return ctx.emitTemp("tract_core_round_even", {scaled}, {}, hint + "_steps");
}

/// The result from its distance to the zero point in steps, t (an integer
/// as f32): t clamped to the stored range minus the zero point, times the
/// scale, cast to the result's type (its graph.quant entry). tract's cast
/// computes round_even(t * s / s + z) in f32, and t * s / s is within a few
/// ulps of t, so the cast stores exactly t + z.
void emitSteps(Context& ctx, Expr steps, size_t output = 0) {
    const ir::Quantization& q = *ctx.out(output).quant;
    const bool isSigned = q.storage != DType::U8;
    const int64_t bits = dtypeBits(q.storage);
    const int64_t low = isSigned ? -(int64_t{1} << (bits - 1)) : 0;
    const int64_t high = isSigned ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
    Expr bounded =
        ctx.emitTemp("clamp",
                     {std::move(steps), f32Literal(static_cast<double>(low - q.zeroPoint)),
                      f32Literal(static_cast<double>(high - q.zeroPoint))},
                     {}, "bounded");
    Expr grid = ctx.emitTemp("mul", {bounded, f32Literal(q.scale)}, {}, "grid");
    ctx.emitOut("tract_core_cast", {grid}, {}, output);
}

/// PyTorch's qnnpack requantization factor of a conv/linear:
/// (weight scale * input scale) * (1 / output scale), each step in f32
/// (generate_requantization_scales).
float qnnpackFactor(double weightScale, double inputScale, double outputScale) {
    return (static_cast<float>(weightScale) * static_cast<float>(inputScale)) *
           (1.0f / static_cast<float>(outputScale));
}

/// A per-tensor quantized conv/linear requantized as qnnpack does: the f32
/// accumulator times the f32 factor, rounded half to even (fp32
/// requantization). tract's own requantization multiplies the accumulator
/// exactly (Scaler), which differs where the f32 product crosses a half: in
/// torchvision's quantized MobileNetV2, 14 of 7 million values, which
/// accumulate to 600 of its 1,000 logits. So tract's integer conv keeps its
/// accumulator, typed QI32 with scale s_input * s_weight (tract's factor is
/// then exactly 1), the archive reads its integers (a cast to i32 keeps
/// them), and requantizes as qnnpack.
void requantizeAsQnnpack(Context& ctx, const char* op, std::vector<Expr> args, Kwargs kwargs,
                         const ir::Quantization& input, const ir::Quantization& weight, bool relu) {
    nnef::QuantEntry accumulator;
    accumulator.scale =
        static_cast<double>(static_cast<float>(input.scale) * static_cast<float>(weight.scale));
    accumulator.zeroPoint = 0;
    accumulator.bits = 32;
    accumulator.isSigned = true;
    Expr acc = ctx.emitTemp(op, std::move(args), std::move(kwargs), "accumulator");
    ctx.addQuant(acc.text, accumulator);
    Expr integers =
        ctx.emitTemp("tract_core_cast", {acc}, {{"to", Expr::str("i32")}}, "accumulator_i32");
    Expr real =
        ctx.emitTemp("tract_core_cast", {integers}, {{"to", Expr::str("f32")}}, "accumulator_f32");
    Expr steps = roundedProduct(
        ctx, real, qnnpackFactor(weight.scale, input.scale, ctx.out().quant->scale), "output");
    if (relu)
        steps = ctx.emitTemp("max", {steps, f32Literal(0.0)}, {}, "relu_steps");
    emitSteps(ctx, steps);
}

} // namespace

/// quantized::linear_dynamic(x, packed, reduce_range): x stays real; PyTorch
/// quantizes it to quint8 per call, with the scale and zero point of its own
/// range (quant_utils.h ChooseQuantizationParams over [min(x, 0), max(x, 0)],
/// 255 steps: qnnpack ignores reduce_range, and Debian's LibTorch has no
/// fbgemm), then multiplies by the int8 weight and rescales to floats. The
/// archive computes those steps on real values: the range, the scale (at least
/// 6.1e-5, quant_utils' SMALL_SCALE_THRESHOLD), the zero point, x rounded to
/// the grid (half to even, as quantize_val) and clamped to quint8, then the
/// linear with the weight's real values. The products differ from PyTorch's
/// integer accumulation by float rounding only.
Expr dynamicLinear(Context& ctx, Expr in, int64_t r, const ir::Value& wReal, const ir::Value* b,
                   const std::string& label) {
    if (!wReal.constant || !std::holds_alternative<TensorData>(*wReal.constant) ||
        rankOf(wReal) != 2)
        ctx.unsupported("the packed weight of a dynamically quantized linear is not a matrix");
    const bool evenRounding = roundsAsPyTorch(ctx);
    auto round = [&](Expr e, const std::string& hint) {
        return ctx.emitTemp(evenRounding ? "tract_core_round_even" : "round", {std::move(e)}, {},
                            hint);
    };
    std::vector<int64_t> all(static_cast<size_t>(r));
    for (int64_t i = 0; i < r; ++i)
        all[static_cast<size_t>(i)] = i;
    Expr low = ctx.emitTemp(
        "min",
        {ctx.emitTemp("min_reduce", {in}, {{"axes", Expr::ints(all)}}, "x_min"), f32Literal(0)}, {},
        "range_low");
    Expr high = ctx.emitTemp(
        "max",
        {ctx.emitTemp("max_reduce", {in}, {{"axes", Expr::ints(all)}}, "x_max"), f32Literal(0)}, {},
        "range_high");
    Expr width = ctx.emitTemp("sub", {high, low}, {}, "range");
    Expr step = ctx.emitTemp("div", {width, f32Literal(255.0)}, {}, "step");
    // -low / step lies in [0, 255]; an all-zero x has step 0 and zero point 0.
    Expr origin = ctx.emitTemp("div",
                               {ctx.emitTemp("neg", {low}, {}, "neg_low"),
                                ctx.emitTemp("max", {step, f32Literal(1e-30)}, {}, "step_nonzero")},
                               {}, "origin");
    Expr zeroPoint = round(origin, "zero_point");
    Expr scale = ctx.emitTemp("max", {step, f32Literal(6.1e-5)}, {}, "scale");
    Expr inverse = ctx.emitTemp("div", {f32Literal(1.0), scale}, {}, "inverse_scale");
    Expr steps = round(ctx.emitTemp("mul", {in, inverse}, {}, "x_scaled"), "x_steps");
    Expr bounded =
        ctx.emitTemp("clamp",
                     {steps, ctx.emitTemp("neg", {zeroPoint}, {}, "steps_low"),
                      ctx.emitTemp("sub", {f32Literal(255.0), zeroPoint}, {}, "steps_high")},
                     {}, "x_bounded");
    Expr grid = ctx.emitTemp("mul", {bounded, scale}, {}, "x_grid");

    const TensorData& wd = std::get<TensorData>(*wReal.constant);
    const int64_t outFeatures = wReal.shape.at(0);
    Expr w = ctx.storedVariable(wd, label + ".weight", std::nullopt);
    const int64_t rr = std::max<int64_t>(r, 2);
    if (r == 1)
        grid = ctx.emitTemp("unsqueeze", {grid}, {{"axes", Expr::ints({0})}}, "row");
    Expr bias = Expr::f(0.0);
    if (b && b->kind != ir::ValueKind::None && b->constant &&
        std::holds_alternative<TensorData>(*b->constant)) {
        std::vector<int64_t> shape(static_cast<size_t>(rr - 1), 1);
        shape.push_back(outFeatures);
        bias = ctx.storedVariable(std::get<TensorData>(*b->constant).reshaped(shape),
                                  label + ".bias", std::nullopt);
    }
    if (rr > 2) { // tract's matmul takes operands of one rank
        std::vector<int64_t> lead(static_cast<size_t>(rr - 2));
        for (int64_t i = 0; i < rr - 2; ++i)
            lead[static_cast<size_t>(i)] = i;
        w = ctx.emitTemp("unsqueeze", {w}, {{"axes", Expr::ints(lead)}}, "weight_batched");
    }
    Expr y =
        rr == 2 ? ctx.emitTemp("linear", {grid, w, bias}, {}, "linear")
                : ctx.emitTemp(
                      "add",
                      {ctx.emitTemp("matmul", {grid, w},
                                    {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(true)}},
                                    "matmul"),
                       bias},
                      {}, "biased");
    if (r == 1)
        y = ctx.emitTemp("squeeze", {y}, {{"axes", Expr::ints({0})}}, "vector");
    return y;
}

namespace {

void lowerDynamicLinear(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    if (r < 1 || x.dtype != DType::F32)
        ctx.unsupported("dynamically quantized linear of a 0-d or non-f32 input");
    const auto& el = packedElements(ctx, 5);
    ctx.bindOut(dynamicLinear(ctx, ctx.input(0), r, ctx.graph().value(el[2]),
                              &ctx.graph().value(el[1]), moduleLabel(ctx.in(1).debugName)));
}

/// quantized conv/linear with per-channel int8 weights (PyTorch's x86
/// default qconfig; the genuine int8 MNIST CNN): graph.quant holds one scale
/// per tensor, so the archive computes PyTorch's integers itself. The input's
/// steps (q - zero point) times the weight's steps (per channel) plus the
/// bias in accumulator units (b / (input scale x channel scale), rounded as
/// torch quantizes it) is the int32 accumulator, exact in f32 below 2^24; it
/// is requantized with each channel's factor input scale x channel scale /
/// output scale, rounded half to even as qnnpack's fp32 requantization, and
/// stored as the output's quantized type (emitSteps).
void lowerPerChannel(Context& ctx, bool conv, bool relu, const std::vector<ir::ValueId>& el,
                     size_t stepsAt) {
    if (!roundsAsPyTorch(ctx))
        ctx.unsupported("per-channel quantized weights for a target without "
                        "tract_core_round_even",
                        "export for tract, or quantize with a per-tensor qconfig");
    const auto& qin = inputQuant(ctx, 0);
    const ir::Value& steps = ctx.graph().value(el.at(stepsAt));
    const ir::Value& scales = ctx.graph().value(el.at(stepsAt + 1));
    if (!steps.constant || !scales.constant ||
        !std::holds_alternative<TensorData>(*steps.constant) ||
        !std::holds_alternative<TensorData>(*scales.constant))
        ctx.unsupported("per-channel quantized weights whose channels are not the output axis");
    if (!conv && rankOf(ctx.in(0)) != 2)
        ctx.unsupported(fmt::format("quantized linear on a rank-{} input", rankOf(ctx.in(0))),
                        "flatten the input to [batch, features] before the quantized linear");
    const std::string label = moduleLabel(ctx.in(1).debugName);
    const TensorData& channelScales = std::get<TensorData>(*scales.constant);
    const int64_t channels = channelScales.numel();
    const ir::Quantization& qout = *ctx.out().quant;
    // The bias in accumulator units and the requantization factors, [1, C(, 1, 1)].
    const ir::Value& b = ctx.graph().value(el[1]);
    const TensorData* bias = b.kind != ir::ValueKind::None && b.constant &&
                                     std::holds_alternative<TensorData>(*b.constant)
                                 ? &std::get<TensorData>(*b.constant)
                                 : nullptr;
    std::vector<float> biasSteps(static_cast<size_t>(channels)), factors(biasSteps.size());
    for (int64_t c = 0; c < channels; ++c) {
        const double acc = qin.scale * channelScales.asDouble(c);
        biasSteps[static_cast<size_t>(c)] =
            bias ? static_cast<float>(quantizedBias(bias->asDouble(c), acc)) : 0.0f;
        factors[static_cast<size_t>(c)] =
            qnnpackFactor(channelScales.asDouble(c), qin.scale, qout.scale);
    }
    std::vector<int64_t> perChannel{1, channels};
    if (conv)
        perChannel.resize(static_cast<size_t>(rankOf(ctx.out())), 1);
    auto table = [&](const std::vector<float>& v, std::vector<int64_t> shape, const char* what) {
        return ctx.storedVariable(TensorData::copyOf(DType::F32, std::move(shape),
                                                     std::as_bytes(std::span(v.data(), v.size()))),
                                  label + what, std::nullopt);
    };
    Expr weight = ctx.storedVariable(std::get<TensorData>(*steps.constant), label + ".weight_steps",
                                     std::nullopt);
    Expr x = roundedProduct(ctx, realValue(ctx, ctx.node().inputs[0], rankOf(ctx.in(0))),
                            inverseScale(qin), "input");
    Expr acc =
        conv ? ctx.emitTemp("conv", {x, weight, table(biasSteps, {1, channels}, ".bias_steps")},
                            convParameters(ctx, el), "accumulator")
             : ctx.emitTemp("linear", {x, weight, table(biasSteps, {1, channels}, ".bias_steps")},
                            {}, "accumulator");
    Expr requantized = ctx.emitTemp(
        "tract_core_round_even",
        {ctx.emitTemp("mul", {acc, table(factors, perChannel, ".requantization")}, {}, "rescaled")},
        {}, "output_steps");
    if (relu)
        requantized = ctx.emitTemp("max", {requantized, f32Literal(0.0)}, {}, "relu_steps");
    emitSteps(ctx, requantized);
}

bool sameQuantizedType(const ir::Quantization& a, const ir::Quantization& b) {
    return a.storage == b.storage && static_cast<float>(a.scale) == static_cast<float>(b.scale) &&
           a.zeroPoint == b.zeroPoint;
}

/// quantized::add[_relu](a, b, scale, zero_point). Operands of one quantized
/// type: tract's add, the result's type from its graph.quant entry. Operands
/// of different types: tract's NNEF reader refuses the add ("No super type
/// for QU8(...) and QU8(...)": binary operands are wired to a common datum
/// type, and two quantized types have none), so the real values are added
/// and requantized to the result's type as quantized::cat does.
/// quantized::add[_relu] of quint8 tensors of one shape as qnnpack adds them
/// (pytorch_qnnp_compute_add_quantization_params and the u8 vadd kernels):
/// each operand's ratio to the output scale (f32) becomes an integer
/// multiplier at a shift that puts the larger one in [2^21, 2^22); the
/// products of the stored integers less their zero points are summed and
/// shifted right rounding half away from zero. The archive computes that in
/// f64, where every product and sum is exact. Real values added and rounded
/// once differ near halves (one value of 7 million in the quantized
/// MobileNetV3 moved five of its logits). False when qnnpack would not use
/// its kernel (other types, broadcasting) or its ratios are out of range.
bool lowerAddAsQnnpack(Context& ctx, const ir::Quantization& qa, const ir::Quantization& qb,
                       bool relu) {
    const ir::Quantization& qo = *ctx.out().quant;
    if (qa.storage != DType::U8 || qb.storage != DType::U8 || qo.storage != DType::U8 ||
        ctx.in(0).shape != ctx.out().shape || ctx.in(1).shape != ctx.out().shape)
        return false;
    const float ratioA = static_cast<float>(qa.scale) / static_cast<float>(qo.scale);
    const float ratioB = static_cast<float>(qb.scale) / static_cast<float>(qo.scale);
    const float larger = std::max(ratioA, ratioB);
    if (!(larger >= 0x1.0p-14f && larger < 0x1.0p+8f) || !(std::min(ratioA, ratioB) >= 0x1.0p-14f))
        return false;
    const int shift = 21 - std::ilogb(larger);
    const double unit = std::ldexp(1.0, shift);
    const double multiplierA = std::nearbyint(static_cast<double>(ratioA) * unit);
    const double multiplierB = std::nearbyint(static_cast<double>(ratioB) * unit);
    const int64_t rank = rankOf(ctx.out());
    auto lit = [](double v) { return Context::scalarLiteral(v, DType::F32); };
    auto term = [&](size_t i, const ir::Quantization& q, double multiplier) {
        Expr stored = ctx.emitTemp("tract_core_cast", {ctx.operand(ctx.node().inputs[i], rank)},
                                   {{"to", Expr::str("u8")}}, "stored");
        Expr wide = ctx.emitTemp("tract_core_cast", {stored}, {{"to", Expr::str("f64")}}, "wide");
        Expr centred =
            ctx.emitTemp("sub", {wide, lit(static_cast<double>(q.zeroPoint))}, {}, "centred");
        return ctx.emitTemp("mul", {centred, lit(multiplier)}, {}, "weighted");
    };
    Expr sum = ctx.emitTemp("add", {term(0, qa, multiplierA), term(1, qb, multiplierB)}, {},
                            "fixed_point_sum");
    Expr shifted = ctx.emitTemp("round", {ctx.emitTemp("div", {sum, lit(unit)}, {}, "shifted")}, {},
                                "rounded");
    Expr steps = ctx.emitTemp("tract_core_cast", {shifted}, {{"to", Expr::str("f32")}}, "steps");
    if (relu)
        steps = ctx.emitTemp("max", {steps, f32Literal(0.0)}, {}, "relu_steps");
    emitSteps(ctx, steps);
    return true;
}

void lowerAdd(Context& ctx, bool relu) {
    const ir::Quantization& qa = inputQuant(ctx, 0);
    const ir::Quantization& qb = inputQuant(ctx, 1);
    if (roundsAsPyTorch(ctx) && lowerAddAsQnnpack(ctx, qa, qb, relu))
        return;
    const int64_t rank = rankOf(ctx.out());
    if (!sameQuantizedType(qa, qb)) {
        Expr sum = ctx.emitTemp("add",
                                {realValue(ctx, ctx.node().inputs[0], rank),
                                 realValue(ctx, ctx.node().inputs[1], rank)},
                                {}, "real_sum");
        if (relu)
            sum = ctx.emitTemp("max", {sum, Context::scalarLiteral(0.0, DType::F32)}, {},
                               "rectified");
        if (!roundsAsPyTorch(ctx))
            ctx.emitOut("tract_core_cast", {sum});
        else
            emitSteps(ctx, roundedProduct(ctx, sum, inverseScale(*ctx.out().quant), "sum"));
        return;
    }
    std::vector<Expr> args{ctx.operand(ctx.node().inputs[0], rank),
                           ctx.operand(ctx.node().inputs[1], rank)};
    if (!relu) {
        ctx.emitOut("add", std::move(args));
        return;
    }
    Expr s = ctx.emitTemp("add", std::move(args), {}, "add");
    ctx.addQuant(s.text, entryFor(*ctx.out().quant));
    ctx.emitOut("relu", {s});
}

/// quantized::cat, quantized::mul and quantized::hardswish compute on the real
/// numbers and requantize to the result's scale (their output_scale and
/// zero_point), each the way PyTorch's kernel rounds (measured with
/// PyTorch 1.13's qnnpack engine, docs/quantized.md):
///   cat: quantize_val of the real values, round_even(x * (1/s)) + z;
///   mul: the integer product (a - za)(b - zb) times the f32 multiplier
///        sa * sb / s, rounded half to even, + z (requantize_from_int);
///   hardswish: QNNPACK's lookup table, round_even(y * (1/s) + z), the zero
///        point added before rounding.
/// The final cast's type comes from the result's graph.quant entry, as
/// quantize_per_tensor's does, so operands of different scales need nothing
/// from tract.
void lowerRequantized(Context& ctx) {
    const std::string& kind = ctx.node().kind;
    const int64_t rank = rankOf(ctx.out());
    const ir::Quantization& out = *ctx.out().quant;
    if (kind == "quantized::cat") {
        const auto& parts = ctx.graph().value(ctx.node().inputs[0]).elements;
        if (parts.empty())
            ctx.unsupported("quantized::cat of a list t2n cannot see through");
        std::vector<Expr> items;
        for (ir::ValueId id : parts)
            items.push_back(realValue(ctx, id, rank));
        Expr joined = ctx.emitTemp("concat", {Expr::array(std::move(items))},
                                   {{"axis", Expr::i(ctx.axis(ctx.intArg(1), rank))}}, "joined");
        if (!roundsAsPyTorch(ctx))
            ctx.emitOut("tract_core_cast", {joined});
        else
            emitSteps(ctx, roundedProduct(ctx, joined, inverseScale(out), "joined"));
    } else if (kind == "quantized::mul" && !roundsAsPyTorch(ctx)) {
        ctx.emitOut("tract_core_cast", {ctx.emitTemp("mul",
                                                     {realValue(ctx, ctx.node().inputs[0], rank),
                                                      realValue(ctx, ctx.node().inputs[1], rank)},
                                                     {}, "product")});
    } else if (kind == "quantized::mul") {
        auto steps = [&](size_t i) {
            const ir::ValueId id = ctx.node().inputs[i];
            return roundedProduct(ctx, realValue(ctx, id, rank),
                                  inverseScale(*ctx.graph().value(id).quant), "factor");
        };
        Expr product = ctx.emitTemp("mul", {steps(0), steps(1)}, {}, "product");
        const double multiplier = ctx.graph().value(ctx.node().inputs[0]).quant->scale *
                                  ctx.graph().value(ctx.node().inputs[1]).quant->scale / out.scale;
        emitSteps(ctx, roundedProduct(ctx, product, static_cast<float>(multiplier), "product"));
    } else { // quantized::hardswish: x * clamp(x + 3, 0, 6) / 6
        Expr x = realValue(ctx, ctx.node().inputs[0], rank);
        auto lit = [](double v) { return Context::scalarLiteral(v, DType::F32); };
        Expr gate = ctx.emitTemp(
            "clamp", {ctx.emitTemp("add", {x, lit(3.0)}, {}, "shifted"), lit(0.0), lit(6.0)}, {},
            "gate");
        Expr y = ctx.emitTemp("div", {ctx.emitTemp("mul", {x, gate}, {}, "gated"), lit(6.0)}, {},
                              "hardswish");
        if (!roundsAsPyTorch(ctx)) {
            ctx.emitOut("tract_core_cast", {y});
            return;
        }
        Expr scaled = ctx.emitTemp("mul", {y, f32Literal(inverseScale(out))}, {}, "scaled");
        const double zp = static_cast<double>(out.zeroPoint);
        Expr shifted = ctx.emitTemp("add", {scaled, lit(zp)}, {}, "shifted");
        Expr stored = ctx.emitTemp("tract_core_round_even", {shifted}, {}, "stored");
        emitSteps(ctx, ctx.emitTemp("sub", {stored, lit(zp)}, {}, "steps"));
    }
}

/// aten::quantize_per_tensor(x, scale, zero_point, dtype): PyTorch's
/// quantize_val, round_even(x * (1.0f / scale)) clamped, landed on the
/// quantized type by a cast (emitSteps).
void lowerQuantize(Context& ctx) {
    const int64_t dtype = ctx.intArg(3);
    if (dtype != kQUInt8 && dtype != kQInt8)
        ctx.unsupported(fmt::format("quantize_per_tensor to scalar type {} (only quint8 and "
                                    "qint8 activations are exported)",
                                    dtype),
                        "tract reads 8-bit quantized activations; qint32 is for biases");
    if (!ctx.out().quant)
        ctx.unsupported("quantize_per_tensor whose result t2n saw no quantization of");
    Expr x = ctx.input(0);
    if (!roundsAsPyTorch(ctx)) {
        ctx.emitOut("tract_core_cast", {x});
        return;
    }
    if (ctx.in(0).dtype != DType::F32)
        x = ctx.emitTemp("tract_core_cast", {x}, {{"to", Expr::str("f32")}}, "real");
    emitSteps(ctx, roundedProduct(ctx, x, inverseScale(*ctx.out().quant), "quantize"));
}

void lowerDequantize(Context& ctx) {
    inputQuant(ctx, 0);
    ctx.emitOut("tract_core_cast", {ctx.input(0)}, {{"to", Expr::str("f32")}});
}

} // namespace

void annotateQuantizedOutputs(Context& ctx) {
    for (size_t i = 0; i < ctx.node().outputs.size(); ++i) {
        const ir::ValueId id = ctx.node().outputs[i];
        const ir::Value& v = ctx.graph().value(id);
        if (!v.quant || !ctx.isBound(id))
            continue;
        if (v.quant->perChannel || v.quant->storage == DType::I32)
            ctx.unsupported(fmt::format("%{} is a {} quantized activation", v.debugName,
                                        v.quant->perChannel ? "per-channel" : "qint32"),
                            "tract reads per-tensor 8-bit quantized activations only");
        Expr e = ctx.tensor(id);
        if (e.isIdentifier())
            ctx.addQuant(e.text, entryFor(*v.quant));
    }
}

bool computesOnRealValues(const Context& ctx) {
    const ir::Node& n = ctx.node();
    if (!roundsAsPyTorch(ctx) || n.kind.rfind("quantized::", 0) == 0 ||
        target::keepsQuantizedIntegers(n.kind))
        return false;
    auto anyQuantized = [&](const std::vector<ir::ValueId>& ids) {
        return std::any_of(ids.begin(), ids.end(),
                           [&](ir::ValueId id) { return ctx.graph().value(id).quant.has_value(); });
    };
    return anyQuantized(n.inputs) && anyQuantized(n.outputs);
}

/// adaptive_avg_pool2d to 1x1 of a quantized [N, C, H, W] tensor (MobileNetV3's
/// squeeze-excitation blocks, every classifier head): qnnpack's average
/// pooling sums the stored integers less the zero point (exact in int32) and
/// requantizes the sum with the f32 factor (s_in / s_out) / (H W), rounded
/// half to even. The archive recovers the integers exactly (the real values
/// times 1 / s_in, rounded), sums them (exact in f32 below 2^24) and
/// requantizes as qnnpack does; a mean of real values rounded its f32 sum
/// and landed one step off near halves (7 of 7 million values of the
/// quantized MobileNetV3). False when the node is not such a pool.
bool lowerQuantizedGlobalAverage(Context& ctx) {
    const ir::Node& node = ctx.node();
    if (node.kind != "aten::adaptive_avg_pool2d" || node.inputs.size() < 2)
        return false;
    const ir::Value& x = ctx.in(0);
    const ir::Value& y = ctx.out();
    if (!x.quant || !y.quant || x.quant->perChannel || y.quant->perChannel ||
        dtypeBits(x.quant->storage) != 8 || rankOf(x) != 4 || x.shape.size() != 4 ||
        x.shape[2] <= 0 || x.shape[3] <= 0 || ctx.intsArg(1) != std::vector<int64_t>{1, 1})
        return false;
    for (size_t axis = 2; axis < x.symbols.size(); ++axis)
        if (!x.symbols[axis].empty())
            return false; // a dynamic H or W: the mean of real values

    const int64_t count = x.shape[2] * x.shape[3];
    if (count * 255 >= (int64_t{1} << 24))
        return false;
    Expr steps =
        roundedProduct(ctx, realValue(ctx, node.inputs[0], 4), inverseScale(*x.quant), "input");
    Expr total =
        ctx.emitTemp("sum_reduce", {steps}, {{"axes", Expr::ints({2, 3})}}, "sum_of_steps");
    const float factor = (static_cast<float>(x.quant->scale) / static_cast<float>(y.quant->scale)) /
                         static_cast<float>(count);
    emitSteps(ctx, roundedProduct(ctx, total, factor, "average"));
    return true;
}

void lowerOnRealValues(Context& ctx, const std::function<void()>& lower) {
    const ir::Node& node = ctx.node();
    if (lowerQuantizedGlobalAverage(ctx))
        return;
    std::vector<std::pair<ir::ValueId, Expr>> stored;
    for (ir::ValueId id : node.inputs) {
        const ir::Value& v = ctx.graph().value(id);
        if (!v.quant ||
            std::any_of(stored.begin(), stored.end(), [&](const auto& s) { return s.first == id; }))
            continue;
        if (v.quant->perChannel || v.quant->storage == DType::I32)
            ctx.unsupported(fmt::format("%{} is a {} quantized tensor", v.debugName,
                                        v.quant->perChannel ? "per-channel" : "qint32"));
        Expr e = ctx.tensor(id);
        stored.emplace_back(id, e);
        ctx.bind(id, ctx.emitTemp("tract_core_cast", {e}, {{"to", Expr::str("f32")}}, "real"));
    }
    lower();
    for (auto& [id, e] : stored)
        ctx.bind(id, std::move(e));
    for (size_t i = 0; i < node.outputs.size(); ++i) {
        const ir::Value& out = ctx.graph().value(node.outputs[i]);
        if (!out.quant || !ctx.isBound(node.outputs[i]))
            continue;
        if (out.quant->perChannel || out.quant->storage == DType::I32)
            continue; // annotateQuantizedOutputs refuses it, naming it
        Expr real = ctx.tensor(node.outputs[i]);
        emitSteps(ctx, roundedProduct(ctx, real, inverseScale(*out.quant), "real"), i);
    }
}

void registerQuantizedOps(Registry& r) {
    r.beginFamily("quantized");
    r.add("aten::quantize_per_tensor", lowerQuantize,
          "quint8/qint8, per-tensor affine; rounded as PyTorch rounds, then tract_core_cast "
          "typed by graph.quant",
          "?tract_core_round_even mul clamp tract_core_cast");
    r.add("aten::dequantize", lowerDequantize, "tract_core_cast to f32");
    r.add(
        "quantized::conv2d", [](Context& c) { lowerConv(c, false); },
        "per-tensor qint8 weights, int32 requantized bias; per-channel weights on integer steps, "
        "one requantization factor per channel");
    r.add(
        "quantized::conv2d_relu", [](Context& c) { lowerConv(c, true); },
        "per-tensor qint8 weights, int32 requantized bias; per-channel weights on integer steps, "
        "one requantization factor per channel");
    r.add(
        "quantized::linear", [](Context& c) { lowerLinear(c, false); },
        "rank-2 input, per-tensor or per-channel qint8 weights");
    r.add("quantized::linear_dynamic", lowerDynamicLinear,
          "f32 input of any rank: its per-call quint8 range, scale and zero point computed as "
          "PyTorch (qnnpack) chooses them, x rounded to that grid, linear with the weight's "
          "real values (per-tensor or per-channel)",
          "min_reduce max_reduce min max sub div neg mul clamp ?tract_core_round_even +round "
          "+linear +matmul +add +unsqueeze +squeeze");
    r.add(
        "quantized::linear_relu", [](Context& c) { lowerLinear(c, true); },
        "rank-2 input, per-tensor or per-channel qint8 weights");
    r.add(
        "quantized::add", [](Context& c) { lowerAdd(c, false); },
        "quint8 operands of one shape: qnnpack's fixed-point sum, computed in f64; otherwise "
        "operands of one type added by tract, of different types real values added and "
        "requantized as PyTorch rounds");
    r.add(
        "quantized::add_relu", [](Context& c) { lowerAdd(c, true); },
        "add then relu on the result's scale; operands of different types as quantized::add");
    r.add("quantized::cat", lowerRequantized,
          "operands of any scales: real values concatenated, requantized to the result's "
          "as PyTorch rounds",
          "tract_core_cast concat mul ?tract_core_round_even clamp");
    r.add("quantized::mul", lowerRequantized,
          "two quantized operands: their integer product requantized as PyTorch rounds",
          "tract_core_cast mul ?tract_core_round_even clamp");
    r.add("quantized::hardswish", lowerRequantized,
          "x * clamp(x + 3, 0, 6) / 6 on the real values, requantized as QNNPACK rounds",
          "tract_core_cast add clamp mul div ?tract_core_round_even sub");
}

} // namespace t2n::translate
