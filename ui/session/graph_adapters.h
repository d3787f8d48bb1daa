// Engine graphs as the graph view's GraphData: t2n's IR (after trace) and,
// once the engine provides them, hardening snapshots. Node ids are the
// engine's ids as text, so that selection can be matched across views.
#pragma once

#include "graph/graph_data.h"

#include "t2n/graph_snapshot.h"
#include "t2n/harden.h"
#include "t2n/ir.h"
#include "t2n/report.h"

namespace t2n::ui {

/// The IR's computing nodes (values known at export time are left out, as
/// they become variables or literals), graph inputs as "input:NAME" nodes,
/// module paths as clusters and shapes on edges.
GraphData graphFromIr(const ir::Graph& graph);

/// A hardening snapshot: node ids are the stable TorchScript ids ("ts:12"),
/// so two snapshots diff by id; constants are left out like in the IR graph,
/// graph inputs are "input:NAME" nodes and node remarks become badges.
GraphData graphFromSnapshot(const harden::GraphSnapshot& snapshot,
                            const std::vector<harden::NodeRemark>& remarks = {});

/// The graph at the end of the chain: the last pass's snapshot (skipped
/// passes have none); null when snapshots were off.
const harden::GraphSnapshot* finalSnapshot(const harden::HardenDiagnostics& diag);

/// Id of IR node `id` in graphFromIr's GraphData.
QString irNodeKey(ir::NodeId id);

/// "f32[1x3x224x224]", or the kind of a value that is not a tensor.
QString valueText(const ir::Value& v);
/// The "source" (FILE:LINE) and "source text" properties of an IR node's
/// TorchScript origin, when the model recorded them (graph/node_info.h).
void addSourceProperties(GraphNode& node, const ir::Node& from);

} // namespace t2n::ui
