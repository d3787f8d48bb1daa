// Run-and-record: LibTorch 1.13's static shape passes yield no concrete
// shapes (reference/build-on-bookworm.md §1), so the IR learns every value
// by running the graph once with all top-level values exposed as outputs.
#pragma once

#include <torch/script.h>

#include <unordered_map>
#include <vector>

namespace t2n::ir {

using Recording = std::unordered_map<const torch::jit::Value*, c10::IValue>;

/// Values of every input and node output of `graph`'s top-level block.
/// PyTorch's own warnings during the run go to `warnings` (deduplicated)
/// instead of stderr. Throws t2n::Error (Trace, ModelRun) when the model
/// fails on `inputs`.
Recording recordValues(const torch::jit::Module& self,
                       const std::shared_ptr<torch::jit::Graph>& graph,
                       const std::vector<at::Tensor>& inputs,
                       std::vector<std::string>* warnings = nullptr);

} // namespace t2n::ir
