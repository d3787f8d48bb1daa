// Stage trace: t2n's IR from the prepared TorchScript graph and the values
// recorded by running it (one run, plus a probe run at other sizes of the
// dynamic axes when there are any).
#pragma once

#include "harden/graph_runner.h"
#include "harden/prepare_graph.h"
#include "t2n/ir.h"

#include <map>
#include <string>
#include <vector>

namespace t2n::ir {

struct TraceInputs {
    const harden::PreparedModule* prepared = nullptr;
    const harden::Recorded* main = nullptr;
    /// Same graph run with the dynamic axes at other sizes; null when static.
    const harden::Recorded* probe = nullptr;
    /// Symbol of each dynamic axis, per graph input (after self).
    std::vector<std::map<int, std::string>> inputSymbols;
};

/// The IR and, per IR value id, the TorchScript value it stands for (null for
/// values with no TorchScript counterpart), so that later runs of the graph
/// can be read in IR terms.
struct TracedGraph {
    Graph graph;
    std::vector<const torch::jit::Value*> jitValues;
    /// What the user should know about the IR (outputs left out).
    std::vector<std::string> warnings;
};

/// Throws t2n::Error (Trace) for constructs the IR cannot hold yet (control
/// flow left after hardening), naming the node.
TracedGraph buildGraph(const TraceInputs& in);

/// Where a TorchScript node comes from: module path and original source line.
NodeRef describeNode(const torch::jit::Node* node);

} // namespace t2n::ir
