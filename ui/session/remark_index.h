// Where the hardening passes' node remarks belong in the other views: on the
// line of the hardened TorchScript text that defines the node, and as a badge
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

/// TorchScript graph text: the first value each line defines ("%x.1") -> its
/// 1-based line, for the lines that define one.
QHash<QString, int> definingLines(const std::string& torchScriptText);

/// Line (1-based) of `hardenedText` -> its node's remarks joined by "; ". A
/// node's line is the one that defines its first output in the final graph.
/// `remarks` is remarksByNode(diag).
QHash<int, QString> remarkNotesForText(const harden::HardenDiagnostics& diag,
                                       const QHash<harden::StableId, QStringList>& remarks,
                                       const std::string& hardenedText);

/// Sets the badge of each IR node in `data` (graphFromIr's) whose TorchScript
/// node has remarks; returns how many nodes got one.
int badgeRemarks(GraphData& data, const ir::Graph& graph,
                 const QHash<harden::StableId, QStringList>& remarks);

} // namespace t2n::ui
