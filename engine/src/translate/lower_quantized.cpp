// Statically quantized models (torch.ao.quantization, per-tensor affine), as
// torch_to_nnef emits them for tract (reference/torch-to-nnef-upstream.md
// §2.6, §4.3): quantize_per_tensor and dequantize become tract_core_cast;
// conv, linear and add are the standard operations on quantized operands;
// every quantized activation carries a graph.quant entry, from which tract
// derives its QU8/QI8 datum type. Weights are stored as their int8 integers
// (.dat code 3) with their own entry; biases are requantized to int32 in
// accumulator units (bias / (weight scale * input scale)) and stored without
// an entry, which is what tract adds to its int32 accumulator.
#include "translate/lower_quantized.h"

#include "translate/lower_util.h"
#include "translate/registry.h"

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

/// The unpacked parameters (ir/packed_params.h) of the packed object input 1.
const std::vector<ir::ValueId>& packedElements(Context& ctx, size_t expected) {
    const ir::Value& p = ctx.in(1);
    if (p.elements.size() != expected)
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

/// The float bias requantized to int32 accumulator units, shaped [1, C]
/// (0 when absent). Rounded half to even, as torch quantizes.
Expr biasVariable(Context& ctx, const ir::Value& b, double accScale, int64_t channels,
                  const std::string& label) {
    if (b.kind == ir::ValueKind::None || !b.constant ||
        !std::holds_alternative<TensorData>(*b.constant))
        return Expr::i(0);
    const TensorData& f = std::get<TensorData>(*b.constant);
    std::vector<int32_t> q(static_cast<size_t>(f.numel()));
    for (int64_t i = 0; i < f.numel(); ++i) {
        const double v = std::nearbyint(f.asDouble(i) / accScale);
        if (!(std::abs(v) < 2147483647.0))
            ctx.unsupported(
                fmt::format("bias {} does not fit int32 at scale {}", f.asDouble(i), accScale));
        q[static_cast<size_t>(i)] = static_cast<int32_t>(v);
    }
    TensorData data =
        TensorData::copyOf(DType::I32, {1, channels}, std::as_bytes(std::span(q.data(), q.size())));
    return ctx.storedVariable(std::move(data), label + ".bias", std::nullopt);
}

/// quantized::conv2d[_relu](input, packed, scale, zero_point)
void lowerConv(Context& ctx, bool relu) {
    const auto& qin = inputQuant(ctx, 0);
    const auto& el = packedElements(ctx, 6);
    const ir::Value& w = ctx.graph().value(el[0]);
    const std::string label = moduleLabel(ctx.in(1).debugName);
    Expr weight = weightVariable(ctx, w, label);
    Expr bias = biasVariable(ctx, ctx.graph().value(el[1]), w.quant->scale * qin.scale,
                             w.shape.at(0), label);
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
    Kwargs k{{"border", Expr::str("constant")},
             {"padding", Expr::array(pads)},
             {"stride", Expr::ints(ints(2))},
             {"dilation", Expr::ints(ints(4))},
             {"groups", Expr::i(groups ? std::get<int64_t>(*groups) : 1)}};
    std::vector<Expr> args{ctx.input(0), weight, bias};
    if (!relu) {
        ctx.emitOut("conv", std::move(args), std::move(k));
        return;
    }
    Expr c = ctx.emitTemp("conv", std::move(args), std::move(k), "conv");
    ctx.addQuant(c.text, entryFor(*ctx.out().quant));
    ctx.emitOut("relu", {c});
}

/// quantized::linear[_relu](input, packed, scale, zero_point)
void lowerLinear(Context& ctx, bool relu) {
    const auto& qin = inputQuant(ctx, 0);
    if (rankOf(ctx.in(0)) != 2)
        ctx.unsupported(fmt::format("quantized linear on a rank-{} input", rankOf(ctx.in(0))),
                        "flatten the input to [batch, features] before the quantized linear");
    const auto& el = packedElements(ctx, 2);
    const ir::Value& w = ctx.graph().value(el[0]);
    const std::string label = moduleLabel(ctx.in(1).debugName);
    Expr weight = weightVariable(ctx, w, label);
    Expr bias = biasVariable(ctx, ctx.graph().value(el[1]), w.quant->scale * qin.scale,
                             w.shape.at(0), label);
    std::vector<Expr> args{ctx.input(0), weight, bias};
    if (!relu) {
        ctx.emitOut("linear", std::move(args));
        return;
    }
    Expr l = ctx.emitTemp("linear", std::move(args), {}, "linear");
    ctx.addQuant(l.text, entryFor(*ctx.out().quant));
    ctx.emitOut("relu", {l});
}

/// quantized::add[_relu](a, b, scale, zero_point): tract aligns the operands'
/// scales itself; the result's scale comes from its graph.quant entry.
void lowerAdd(Context& ctx, bool relu) {
    inputQuant(ctx, 0);
    inputQuant(ctx, 1);
    const int64_t rank = rankOf(ctx.out());
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

/// A quantized operand as the real numbers it holds: tract_core_cast to f32.
Expr realValue(Context& ctx, ir::ValueId id, int64_t rank) {
    if (!ctx.graph().value(id).quant)
        ctx.unsupported(
            fmt::format("%{} is not a quantized tensor", ctx.graph().value(id).debugName));
    return ctx.emitTemp("tract_core_cast", {ctx.operand(id, rank)}, {{"to", Expr::str("f32")}},
                        "real");
}

/// quantized::cat, quantized::mul and quantized::hardswish compute on the real
/// numbers and requantize to the result's scale (their output_scale and
/// zero_point): exactly that, in f32 between casts. The final cast's type
/// comes from the result's graph.quant entry, as quantize_per_tensor's does,
/// so operands of different scales need nothing from tract.
void lowerRequantized(Context& ctx) {
    const std::string& kind = ctx.node().kind;
    const int64_t rank = rankOf(ctx.out());
    Expr real;
    if (kind == "quantized::cat") {
        const auto& parts = ctx.graph().value(ctx.node().inputs[0]).elements;
        if (parts.empty())
            ctx.unsupported("quantized::cat of a list t2n cannot see through");
        std::vector<Expr> items;
        for (ir::ValueId id : parts)
            items.push_back(realValue(ctx, id, rank));
        real = ctx.emitTemp("concat", {Expr::array(std::move(items))},
                            {{"axis", Expr::i(ctx.axis(ctx.intArg(1), rank))}}, "joined");
    } else if (kind == "quantized::mul") {
        real = ctx.emitTemp("mul",
                            {realValue(ctx, ctx.node().inputs[0], rank),
                             realValue(ctx, ctx.node().inputs[1], rank)},
                            {}, "product");
    } else { // quantized::hardswish: x * clamp(x + 3, 0, 6) / 6
        Expr x = realValue(ctx, ctx.node().inputs[0], rank);
        auto lit = [](double v) { return Context::scalarLiteral(v, DType::F32); };
        Expr gate = ctx.emitTemp(
            "clamp", {ctx.emitTemp("add", {x, lit(3.0)}, {}, "shifted"), lit(0.0), lit(6.0)}, {},
            "gate");
        real = ctx.emitTemp("div", {ctx.emitTemp("mul", {x, gate}, {}, "gated"), lit(6.0)}, {},
                            "hardswish");
    }
    ctx.emitOut("tract_core_cast", {real});
}

/// aten::quantize_per_tensor(x, scale, zero_point, dtype): a cast whose
/// target type tract reads from the result's graph.quant entry.
void lowerQuantize(Context& ctx) {
    const int64_t dtype = ctx.intArg(3);
    if (dtype != kQUInt8 && dtype != kQInt8)
        ctx.unsupported(fmt::format("quantize_per_tensor to scalar type {} (only quint8 and "
                                    "qint8 activations are exported)",
                                    dtype),
                        "tract reads 8-bit quantized activations; qint32 is for biases");
    ctx.emitOut("tract_core_cast", {ctx.input(0)});
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

void registerQuantizedOps(Registry& r) {
    r.beginFamily("quantized");
    r.add("aten::quantize_per_tensor", lowerQuantize,
          "quint8/qint8, per-tensor affine; tract_core_cast typed by graph.quant");
    r.add("aten::dequantize", lowerDequantize, "tract_core_cast to f32");
    r.add(
        "quantized::conv2d", [](Context& c) { lowerConv(c, false); },
        "per-tensor qint8 weights, int32 requantized bias");
    r.add(
        "quantized::conv2d_relu", [](Context& c) { lowerConv(c, true); },
        "per-tensor qint8 weights, int32 requantized bias");
    r.add(
        "quantized::linear", [](Context& c) { lowerLinear(c, false); },
        "rank-2 input, per-tensor qint8 weights");
    r.add(
        "quantized::linear_relu", [](Context& c) { lowerLinear(c, true); },
        "rank-2 input, per-tensor qint8 weights");
    r.add(
        "quantized::add", [](Context& c) { lowerAdd(c, false); },
        "operands of different scales (tract aligns them)");
    r.add(
        "quantized::add_relu", [](Context& c) { lowerAdd(c, true); },
        "add then relu on the result's scale");
    r.add("quantized::cat", lowerRequantized,
          "operands of any scales: real values concatenated, requantized to the result's",
          "tract_core_cast concat");
    r.add("quantized::mul", lowerRequantized,
          "two quantized operands: real product requantized to the result's scale",
          "tract_core_cast mul");
    r.add("quantized::hardswish", lowerRequantized,
          "x * clamp(x + 3, 0, 6) / 6 on the real values, requantized",
          "tract_core_cast add clamp mul div");
}

} // namespace t2n::translate
