#include "ir/packed_params.h"

#include "t2n/error.h"

#include <ATen/core/ivalue_inl.h>
#include <fmt/format.h>
#include <torch/csrc/jit/runtime/operator.h>

namespace t2n::ir {

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

} // namespace t2n::ir
