// The operation registry of the reference interpreter: every standard NNEF
// operation, compound ones included, and the tract operations, each with its
// signature (parameter names, which are tensors, defaults) and its LibTorch
// kernel. The list itself is op_list.h; kernels live in kernels_*.cpp.
#pragma once

#include "interp/value.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace t2n {
class TensorData;
}

namespace t2n::interp {

/// What a kernel may ask of the interpreter running it.
class Runtime {
public:
    virtual ~Runtime() = default;
    /// The .dat tensor of `label`, or null.
    virtual const TensorData* findTensor(const std::string& label) const = 0;
    /// Whether the tensor of `label` is stored as block-quantized (Q4_0) data.
    virtual bool blockQuantized(const std::string& label) const = 0;
    /// Runs a document fragment (tract_core_scan's body) on named arguments;
    /// returns its results in declaration order.
    virtual std::vector<Value> runFragment(const std::string& name,
                                           std::vector<std::pair<std::string, Value>> args) = 0;
    /// Names of the results of a document fragment, or nullopt when unknown.
    virtual std::optional<std::vector<std::string>>
    fragmentResults(const std::string& name) const = 0;
    /// A seed for a random draw given none (tract_onnx_random without
    /// `seed`): each draw of a run gets its own, and every run hands out the
    /// same sequence, so that a run repeats.
    virtual uint64_t drawSeed() = 0;
};

/// One invocation bound to its operation's signature: every parameter is
/// present, in declaration order, defaults filled; tensor parameters hold
/// tensors (literals were turned into constant tensors).
struct Call {
    std::string op;
    std::string typeArg; ///< generic type: "scalar", "integer", "logical" or ""
    TargetMode mode = TargetMode::Tract;
    TractReadings readings; ///< meaningful in tract mode only
    Runtime* runtime = nullptr;
    std::vector<std::pair<std::string, Value>> args;

    const Value& arg(std::string_view name) const;
    at::Tensor tensor(std::string_view name) const;
    std::vector<at::Tensor> tensors(std::string_view name) const;
    int64_t integer(std::string_view name) const;
    double scalar(std::string_view name) const;
    bool logical(std::string_view name) const;
    const std::string& string(std::string_view name) const;
    std::vector<int64_t> integers(std::string_view name) const;
    /// (before, after) pairs, as in `padding = [(1, 1), (0, 2)]`.
    std::vector<std::pair<int64_t, int64_t>> pairs(std::string_view name) const;
    bool tract() const { return mode == TargetMode::Tract; }
};

/// Results in declaration order (an array result, e.g. split's, is one Value).
using Kernel = std::vector<Value> (*)(const Call&);

enum class Availability { Both, Tract, Khronos };

struct ParamSpec {
    enum class Kind { Attribute, Tensor, TensorArray };
    std::string name;
    Kind kind = Kind::Attribute;
    std::optional<Value> defaultValue;
};

struct OpDef {
    std::string_view name;
    Availability availability;
    std::string_view signature; ///< "input: tensor, axes, normalize = false"
    Kernel kernel;
    std::vector<ParamSpec> params; ///< parsed from `signature`
};

/// The operation `name` as the target `mode` knows it, or null.
const OpDef* findOp(std::string_view name, TargetMode mode);
/// Every operation name of `mode`, sorted.
std::vector<std::string> operationNames(TargetMode mode);
/// Parses "a: tensor, b: tensor[], c = [1], d = 'x'"; throws InterpError.
std::vector<ParamSpec> parseSignature(std::string_view signature);

} // namespace t2n::interp
