// Stage check: the written artifact against the TorchScript model it came
// from (torch_to_nnef's check_io, and more). Tier 0 reads it back with the
// independent reader and checks its structure; tier 1 runs it with the
// reference interpreter and compares every output; on a mismatch it finds
// the first diverging NNEF operation; tier 2 runs the tract CLI when there
// is one. A failed check can leave a debug bundle.
#pragma once

#include "harden/prepare_graph.h"
#include "t2n/ir.h"
#include "t2n/options.h"
#include "t2n/report.h"
#include "translate/translator.h"

#include <torch/script.h>

#include <filesystem>
#include <functional>
#include <vector>

namespace t2n::check {

struct CheckInputs {
    /// The model as loaded (not hardened): the reference of every comparison.
    const torch::jit::Module* model = nullptr;
    const harden::PreparedModule* prepared = nullptr;
    const ir::Graph* graph = nullptr;
    /// Per IR value id, the TorchScript value it stands for (ir_builder).
    const std::vector<const torch::jit::Value*>* jitValues = nullptr;
    const translate::Translation* translation = nullptr;
    std::filesystem::path artifact;
    /// The TorchScript file, for the debug bundle's recipe (may be empty).
    std::filesystem::path modelFile;
    const ExportOptions* options = nullptr;
    /// The report so far, for the debug bundle.
    std::function<std::string()> reportJson;
    std::function<void(LogLevel, const std::string&)> log;
    /// Fraction done with a status text, between the check's steps.
    std::function<void(double, const std::string&)> progress;
    /// Polled between the steps: true stops the check with Error (Cancelled).
    std::function<bool()> cancelled;
};

/// Never throws for a mismatch: the report says what failed. Throws
/// t2n::Error only for problems of the request itself (a bad tolerance, a
/// bad --tract-bin) and when cancelled (Cancelled).
CheckReport runCheck(const CheckInputs& in);

} // namespace t2n::check
