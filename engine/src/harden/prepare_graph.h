// Stage harden's output: the module and the hardened forward() graph the IR
// builder reads, with the diagnostics of the chain that made it. The chain
// itself (seed 001) is in harden.h; prepareGraph() is the old entry point.
#pragma once

#include "t2n/harden.h"

#include <torch/script.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace t2n::harden {

struct PreparedModule {
    /// Receiver passed as the graph's first input when running it.
    torch::jit::Module module;
    /// forward() after the chain; its first input is `self`. It is the
    /// module's own forward graph, so module.forward() runs it too.
    std::shared_ptr<torch::jit::Graph> graph;
    /// Storage address of each parameter and buffer -> its qualified name.
    std::unordered_map<const void*, std::string> paramNames;
    /// Stable id (see t2n/graph_snapshot.h) of every node of `graph`.
    std::unordered_map<const torch::jit::Node*, StableId> nodeIds;
    bool froze = false;
    std::vector<std::string> warnings;
    HardenDiagnostics diagnostics;
};

/// The chain without example inputs (the passes that need a run skip, with
/// a remark): hardenForExport(model, {}, options with `freeze`).
PreparedModule prepareGraph(const torch::jit::Module& model, bool freeze);

} // namespace t2n::harden
