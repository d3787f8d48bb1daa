// Stage trace: t2n's IR from the prepared TorchScript graph and the values
// recorded by running it (one run, plus a probe run at other sizes of the
// dynamic axes when there are any).
#pragma once

#include "harden/prepare_graph.h"
#include "jit/graph_runner.h"
#include "t2n/ir.h"

#include <map>
#include <string>
#include <unordered_set>
#include <vector>

namespace t2n::ir {

struct TraceInputs {
    const harden::PreparedModule* prepared = nullptr;
    const jit::Recorded* main = nullptr;
    /// Same graph run with the dynamic axes at other sizes; null when static.
    const jit::Recorded* probe = nullptr;
    /// A second probe at a larger step (the dynamic axes doubled), so that a
    /// size divided by a stride (frames of a hop, a downsampled side), which a
    /// step of 1 or 2 may leave unchanged, is seen to vary; null when it did
    /// not run.
    const jit::Recorded* farProbe = nullptr;
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

/// Top-level values of `g` whose data certainly depends on a graph input
/// (after self): the inputs, and the outputs of every node but the shape-only
/// ones that reads such a value as a Tensor, Tensor[] or tuple. buildGraph()
/// marks all of them data-dependent and never reads their data (only dtypes
/// and shapes), so the trace's run need not keep it.
std::unordered_set<const torch::jit::Value*> inputDependentValues(const torch::jit::Graph& g);

/// Where a TorchScript node comes from: module path and original source line.
NodeRef describeNode(const torch::jit::Node* node);

} // namespace t2n::ir
