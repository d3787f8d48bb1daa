// Where the hardening passes' node remarks belong in the other views: on the
// line of the hardened TorchScript text that prints the node, and as a badge
// on the IR nodes that came from it. Remarks about nodes a later pass removed
// stay in the pass list and the node's history only.
#pragma once

#include "graph/graph_data.h"

#include "t2n/harden.h"
#include "t2n/ir.h"

#include <QHash>
#include <QStringList>

namespace t2n::ui {

/// Every node remark of the chain by stable node id, as "pass: text", in pass order.
QHash<harden::StableId, QStringList> remarksByNode(const harden::HardenDiagnostics& diag);

/// Line (1-based) of the hardened TorchScript text -> its node's remarks
/// joined by "; ", from the final snapshot's node lines. `remarks` is
/// remarksByNode(diag).
QHash<int, QString> remarkNotesForText(const harden::HardenDiagnostics& diag,
                                       const QHash<harden::StableId, QStringList>& remarks);

/// Sets the badge of each IR node in `data` (graphFromIr's) whose TorchScript
/// node has remarks; returns how many nodes got one.
int badgeRemarks(GraphData& data, const ir::Graph& graph,
                 const QHash<harden::StableId, QStringList>& remarks);

} // namespace t2n::ui
