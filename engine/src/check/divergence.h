// Finding the first NNEF operation, in graph order, whose value differs from
// the TorchScript value it stands for: what a person debugging a failed
// export needs first.
#pragma once

#include "check/check_stage.h"
#include "check/compare.h"
#include "interp/interpreter.h"
#include "interp/quant.h"
#include "jit/graph_runner.h"

#include <optional>
#include <unordered_map>

namespace t2n::check {

/// Records every value of the hardened TorchScript graph, then runs the NNEF
/// graph with each operation fed the TorchScript values of its operands
/// (so that a faulty operation stands out from accumulated error) and walks
/// the NNEF values in order. Returns the first that differs (or the
/// statement where the NNEF run failed); nothing when every value the two
/// graphs share agrees.
std::optional<Divergence> findDivergence(const CheckInputs& in,
                                         const interp::Interpreter& interpreter,
                                         const std::map<std::string, at::Tensor>& nnefInputs,
                                         const std::vector<at::Tensor>& modelInputs,
                                         const Tolerance& tolerance,
                                         const interp::QuantTable* quant = nullptr);

/// The hardened graph's values by debug name: the graph inputs and the
/// outputs of its top-level nodes (what a run records).
std::unordered_map<std::string, const torch::jit::Value*> valuesByName(const torch::jit::Graph& g);

/// The TorchScript value an NNEF identifier stands for, in a run of the
/// hardened graph (as the real numbers a quantized value holds; `quantized`
/// says whether it was one).
std::optional<at::Tensor>
referenceOf(const ManifestValue& value, const jit::Recorded& rec,
            const std::unordered_map<std::string, const torch::jit::Value*>& byName,
            bool& quantized);

struct ValueScan {
    std::optional<Divergence> first;
    std::vector<ValueError> values; ///< every compared value, in graph order
    QuantizedCheck quantized;       ///< filled when a quantization table is given
};

/// The same walk as findDivergence, but over every value: the error each
/// operation adds on its own, for overlays and reports. With `quant` (the
/// archive's graph.quant), a value with an entry is judged by the quantized
/// criterion instead of the tolerance (quantizedBound; docs/quantized.md) and
/// counted in ValueScan::quantized.
ValueScan scanValues(const CheckInputs& in, const interp::Interpreter& interpreter,
                     const std::map<std::string, at::Tensor>& nnefInputs,
                     const std::vector<at::Tensor>& modelInputs, const Tolerance& tolerance,
                     const interp::QuantTable* quant = nullptr);

/// How many quantization steps a quantized value made by TorchScript node
/// `kind` may differ from the model's when its operation is fed the model's
/// operands: 0 for quantize_per_tensor, dequantize and data movement (which
/// t2n reproduces exactly), 1 for quantized arithmetic (tract's integer
/// requantization and PyTorch's kernels round differently near ties).
int quantizedBound(const std::string& kind);

/// One value's difference in steps: the largest, and how many elements are
/// one step off and two or more. Values on the same grid differ by whole
/// steps; half a step separates them from f32 noise.
struct StepCount {
    double maxSteps = 0;
    int64_t offByOne = 0, offByMore = 0;
};
StepCount countSteps(const at::Tensor& expected, const at::Tensor& got, double step);

} // namespace t2n::check
