#include "jit/packed_params.h"

#include "t2n/error.h"

#include <ATen/core/function.h>
#include <ATen/core/ivalue_inl.h>
#include <fmt/format.h>
#include <torch/csrc/jit/runtime/operator.h>

namespace t2n::jit {

namespace {

/// Runs the registered operator `name` (one overload, one class argument).
torch::jit::Stack callOperator(const std::string& name, const c10::IValue& object) {
    const auto ops = torch::jit::getAllOperatorsFor(c10::Symbol::fromQualString(name));
    if (ops.empty())
        throw Error(Stage::Trace, ErrorCode::Unsupported,
                    fmt::format("operator {} is not registered in this LibTorch", name),
                    "t2n needs LibTorch built with quantization support to read quantized "
                    "modules");
    torch::jit::Stack stack{object};
    try {
        ops.front()->getOperation()(stack);
    } catch (const c10::Error& e) {
        throw Error(Stage::Trace, ErrorCode::ModelRun,
                    fmt::format("{} failed: {}", name, e.what_without_backtrace()),
                    "the packed parameters may belong to a quantized engine this LibTorch "
                    "does not have");
    }
    return stack;
}

std::vector<int64_t> intsOf(const c10::IValue& v) {
    if (v.isIntList())
        return v.toIntVector();
    return {v.toInt()};
}

} // namespace

std::optional<UnpackedParams> unpackPackedParams(const c10::IValue& object) {
    if (!object.isObject())
        return std::nullopt;
    const std::string type = object.type()->str();
    UnpackedParams p;
    std::string prefix;
    if (type == "__torch__.torch.classes.quantized.Conv2dPackedParamsBase") {
        p.conv = true;
        prefix = "quantized::conv2d_";
    } else if (type == "__torch__.torch.classes.quantized.LinearPackedParamsBase") {
        prefix = "quantized::linear_";
    } else {
        return std::nullopt;
    }
    auto unpacked = callOperator(prefix + "unpack", object);
    // (Tensor weight, Tensor? bias), pushed as one tuple or as two values.
    if (unpacked.size() == 1 && unpacked[0].isTuple()) {
        auto elems = unpacked[0].toTupleRef().elements();
        unpacked.assign(elems.begin(), elems.end());
    }
    if (unpacked.size() != 2 || !unpacked[0].isTensor())
        throw Error(Stage::Trace, ErrorCode::Unsupported,
                    fmt::format("{}unpack returned {} values, expected (weight, bias)", prefix,
                                unpacked.size()));
    p.weight = unpacked[0].toTensor();
    if (unpacked[1].isTensor())
        p.bias = unpacked[1].toTensor();
    if (p.conv) {
        p.stride = intsOf(callOperator(prefix + "stride", object).at(0));
        p.padding = intsOf(callOperator(prefix + "padding", object).at(0));
        p.dilation = intsOf(callOperator(prefix + "dilation", object).at(0));
        p.groups = callOperator(prefix + "groups", object).at(0).toInt();
    }
    return p;
}

namespace {

// State layouts: aten/src/ATen/native/xnnpack/OpContext.h
// (SerializationTypeConv2dPrePack, ...TransposeConv2dPrePack, ...LinearPrePack).
constexpr std::string_view kConvContext = "__torch__.torch.classes.xnnpack.Conv2dOpContext";
constexpr std::string_view kTransposedContext =
    "__torch__.torch.classes.xnnpack.TransposeConv2dOpContext";
constexpr std::string_view kLinearContext = "__torch__.torch.classes.xnnpack.LinearOpContext";

[[noreturn]] void unreadableContext(const std::string& type, const std::string& why) {
    throw Error(Stage::Trace, ErrorCode::Unsupported,
                fmt::format("the mobile context {} cannot be read: {}", type, why),
                "save the model without optimize_for_mobile, or with the PyTorch t2n was built "
                "with");
}

} // namespace

std::optional<UnpackedParams> unpackMobileContext(const c10::IValue& object) {
    if (!object.isObject())
        return std::nullopt;
    const std::string type = object.type()->str();
    const bool conv = type == kConvContext, transposed = type == kTransposedContext;
    if (!conv && !transposed && type != kLinearContext)
        return std::nullopt;
    torch::jit::Function* getstate = object.toObjectRef().type()->findMethod("__getstate__");
    if (!getstate)
        unreadableContext(type, "it has no __getstate__");
    torch::jit::Stack stack{object};
    try {
        getstate->run(stack);
    } catch (const c10::Error& e) {
        unreadableContext(type, e.what_without_backtrace());
    }
    if (stack.size() != 1 || !stack[0].isTuple())
        unreadableContext(type, "its state is not a tuple");
    auto state = stack[0].toTupleRef().elements().vec();
    if (state.size() == 1 && state[0].isTuple()) // saved inside a one-element tuple
        state = state[0].toTupleRef().elements().vec();
    // (weight, bias, [stride, padding, [output_padding,] dilation, groups,] min, max)
    const size_t expected = conv ? 8 : transposed ? 9 : 4;
    if (state.size() != expected || !state[0].isTensor())
        unreadableContext(
            type, fmt::format("its state has {} values, expected {}", state.size(), expected));
    UnpackedParams p;
    p.conv = conv || transposed;
    p.transposed = transposed;
    p.weight = state[0].toTensor();
    if (state[1].isTensor())
        p.bias = state[1].toTensor();
    if (p.conv) {
        p.stride = intsOf(state[2]);
        p.padding = intsOf(state[3]);
        size_t next = 4;
        if (transposed)
            p.outputPadding = intsOf(state[next++]);
        p.dilation = intsOf(state[next++]);
        p.groups = state[next].toInt();
    }
    p.outputMin = state[expected - 2];
    p.outputMax = state[expected - 1];
    return p;
}

namespace {

constexpr std::string_view kCellParams = "__torch__.torch.classes.rnn.CellParamsBase";

[[noreturn]] void unreadableCell(const std::string& why) {
    throw Error(
        Stage::Trace, ErrorCode::Unsupported,
        fmt::format("the recurrent cell parameters {} cannot be read: {}", kCellParams, why),
        "save the model with the PyTorch t2n was built with, or quantize the recurrent "
        "layer after loading it");
}

} // namespace

// State layout: aten/src/ATen/native/RNN.cpp CellParamsSerializationType,
// (type, tensors, doubles, longs, packed objects); QuantizedCellParamsDynamic
// writes ("quantized_dynamic", [b_ih, b_hh], [], [reduce_range],
// [packed W_ih, packed W_hh]). The packed linears carry the same biases,
// which is what linear_ih / linear_hh add (apply_dynamic).
std::optional<CellParams> unpackCellParams(const c10::IValue& object) {
    if (!object.isObject() || object.type()->str() != kCellParams)
        return std::nullopt;
    torch::jit::Function* getstate = object.toObjectRef().type()->findMethod("__getstate__");
    if (!getstate)
        unreadableCell("it has no __getstate__");
    torch::jit::Stack stack{object};
    try {
        getstate->run(stack);
    } catch (const c10::Error& e) {
        unreadableCell(e.what_without_backtrace());
    }
    if (stack.size() != 1 || !stack[0].isTuple())
        unreadableCell("its state is not a tuple");
    const auto state = stack[0].toTupleRef().elements().vec();
    if (state.size() != 5 || !state[0].isString() || !state[4].isList())
        unreadableCell(fmt::format("its state has {} values, expected 5", state.size()));
    CellParams c;
    c.type = state[0].toStringRef();
    if (c.type != "quantized_dynamic")
        return c;
    const auto packed = state[4].toListRef();
    if (packed.size() != 2)
        unreadableCell(fmt::format("{} packed linears, expected 2", packed.size()));
    auto ih = unpackPackedParams(packed[0]), hh = unpackPackedParams(packed[1]);
    if (!ih || !hh || ih->conv || hh->conv)
        unreadableCell("its packed objects are not quantized linear parameters");
    c.ih = std::move(*ih);
    c.hh = std::move(*hh);
    return c;
}

} // namespace t2n::jit
