// Stage check: the written artifact against the TorchScript model it came
// from (torch_to_nnef's check_io, and more). Tier 0 reads it back with the
// independent reader and checks its structure; tier 1 runs it with the
// reference interpreter and compares every output; on a mismatch it finds
// the first diverging NNEF operation; tier 2 runs the tract CLI when there
// is one. A failed check can leave a debug bundle. The check reads the
// archive and the translation's manifest, never the translator.
#pragma once

#include "harden/prepare_graph.h"
#include "t2n/check_manifest.h"
#include "t2n/ir.h"
#include "t2n/options.h"
#include "t2n/report.h"
#include "t2n/tensor_data.h"

#include <torch/script.h>

#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <vector>

namespace t2n::check {

/// A variable as the translation made it (nnef::Variable without the writer's types).
struct ExportedVariable {
    std::string identifier;
    std::string label;
    const TensorData* data = nullptr;
    std::string origin; ///< "parameter" or how it was made
    std::string from;   ///< the parameter's name, or what was folded
};

/// forward()'s outputs on the check's inputs, and how long the run took.
struct ReferenceRun {
    std::vector<at::Tensor> outputs;
    double seconds = 0;
};

struct CheckInputs {
    /// The model as loaded (not hardened): the reference of every comparison.
    const torch::jit::Module* model = nullptr;
    /// The hardened module: its values are what NNEF values are compared
    /// with when looking for the first diverging operation.
    const harden::PreparedModule* prepared = nullptr;
    /// The translation's manifest: inputs, outputs, identifier -> value.
    const CheckManifest* manifest = nullptr;
    /// The variables as exported, compared byte for byte with the archive's
    /// .dat files; empty when the check reads an archive it did not write.
    std::vector<ExportedVariable> exported;
    std::filesystem::path artifact;
    /// How the report names the artifact (empty: `artifact`): an export
    /// checks its artifact under the temporary name it is written to.
    std::filesystem::path shownArtifact;
    /// The TorchScript file, for the debug bundle's recipe (may be empty).
    std::filesystem::path modelFile;
    const ExportOptions* options = nullptr;
    /// The size each dynamic axis' symbol had in the trace's probe run (the
    /// check's second size; a symbol without one gets its example size + 1).
    std::map<std::string, int64_t> secondSizes;
    /// How the trace chose each symbol's second size; a symbol it found none
    /// for (second 0) is checked at its example size only, and the report
    /// says so.
    std::vector<ir::SymbolProbe> probes;
    /// The session's example inputs for `options` (empty: made here from
    /// options->inputs and options->seed).
    std::vector<at::Tensor> exampleInputs;
    /// runReference(model, exampleInputs) started before the check (the
    /// session runs it beside the write stage, which mostly waits on the
    /// disk); not valid: run by the check itself.
    std::shared_future<ReferenceRun> reference;
    /// The report so far, for the debug bundle.
    std::function<std::string()> reportJson;
    std::function<void(LogLevel, const std::string&)> log;
    /// Fraction done with a status text, between the check's steps.
    std::function<void(double, const std::string&)> progress;
    /// Polled between the steps: true stops the check with Error (Cancelled).
    std::function<bool()> cancelled;
    /// Filled when a dynamic export fails at the second size: the values
    /// whose sizes froze (check/frozen_sizes.h). Null: not looked for.
    FrozenSizes* frozen = nullptr;
};

/// The model as loaded run once on copies of `inputs` (forward() may write
/// into its inputs): the reference the archive is compared with. Throws
/// t2n::Error (Check, ModelRun) when the model fails on them. Safe on a
/// thread of its own while nothing changes the model.
ReferenceRun runReference(const torch::jit::Module& model, const std::vector<at::Tensor>& inputs);

/// forward()'s result as a flat list of tensors (tuples and lists unfolded in
/// order: the order of the NNEF graph outputs); quantized tensors as the real
/// numbers they hold.
std::vector<at::Tensor> flattenOutputs(const c10::IValue& result);

/// Never throws for a mismatch: the report says what failed. Throws
/// t2n::Error only for problems of the request itself (a bad tolerance, a
/// bad --tract-bin) and when cancelled (Cancelled).
CheckReport runCheck(const CheckInputs& in);

} // namespace t2n::check
