// Runs a TorchScript graph once and returns the values of its top-level
// values. LibTorch 1.13's static shape analysis yields no concrete shapes
// (reference/build-on-bookworm.md §1), so hardening reads sizes and If
// conditions from a real run, the IR records every dtype and shape this
// way, and the checker compares what each node computed.
#pragma once

#include "t2n/error.h"

#include <torch/script.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace t2n::jit {

using Recorded = std::unordered_map<const torch::jit::Value*, c10::IValue>;

struct RunOptions {
    /// The stage named by the error when the model fails on the inputs.
    Stage stage = Stage::Trace;
    /// Graph inputs or outputs of top-level nodes to record; empty: all of
    /// them (but values of module and function types).
    std::vector<const torch::jit::Value*> wanted;
    /// Values whose data nobody will read: recorded with their dtype and
    /// sizes only (as zero-stride views), so that their memory is freed after
    /// their last use in the run instead of being held to the end.
    std::unordered_set<const torch::jit::Value*> shapeOnly;
    /// PyTorch's warnings during the run, deduplicated; null: dropped.
    std::vector<std::string>* warnings = nullptr;
};

/// Runs a copy of `graph` on `inputs`, after `self` when given (the graph's
/// first input then is the module). A graph that sets module attributes runs
/// on a deep copy of `self`, so a run never changes the model's state.
/// Throws t2n::Error (options.stage, ModelRun) with the interpreter's own
/// reason when the model fails on the inputs.
Recorded runGraph(const torch::jit::Module* self, torch::jit::Graph& graph,
                  const std::vector<at::Tensor>& inputs, const RunOptions& options = {});

/// What a TorchScript interpreter error says, read from its traceback: the
/// model's own message ("ValueError: input too long") and where it was
/// raised (the innermost frame of the original Python source when the
/// archive recorded it, else of the serialized code).
struct ModelFailure {
    std::string message;
    NodeRef node; ///< sourceFile, sourceLine, sourceText; kind for a `raise`
    bool located = false;
};
ModelFailure describeModelFailure(std::string_view what);
/// Error(stage, ModelRun) "<context>: <the model's message>" at its line.
Error modelRunError(Stage stage, std::string_view context, std::string_view what);
/// The first top-level node of `graph` that fails on `inputs` (null when none
/// does): a bisection over prefixes of the graph, each run with the later
/// nodes dropped, so about log2(nodes) runs. Only for naming the node a
/// ModelRun error is about.
const torch::jit::Node* firstFailingNode(const torch::jit::Module* self, torch::jit::Graph& graph,
                                         const std::vector<at::Tensor>& inputs);

} // namespace t2n::jit
