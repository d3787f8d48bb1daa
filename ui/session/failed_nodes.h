// The nodes a failed export is about, as ids of the IR and TorchScript graph
// views: every operator an unsupported-operator error lists, the node a model
// run or a check stopped at, and after a failed check the first diverging
// operation and every op out of tolerance. The engine names a node by its
// NodeRef (first output's debug name, or kind and source line), exactly as
// the command line prints it; this file maps that onto the views.
#pragma once

#include "session/session_state.h"
#include "session/value_overlay.h"

#include "t2n/error.h"
#include "t2n/ir.h"

#include <QHash>
#include <QStringList>

#include <vector>

namespace t2n::ui {

struct FailedNodes {
    QStringList ir;                  ///< graphFromIr ids, in the order the engine lists them
    QStringList torchScript;         ///< graphFromSnapshot ids ("ts:N")
    QList<int> irNodes;              ///< the IR node ids behind `ir`
    QHash<QString, QString> reasons; ///< by IR or TorchScript id: what the engine said
    bool isEmpty() const { return ir.isEmpty() && torchScript.isEmpty(); }
};

/// The IR node `node` names (-1: none): its first output's debug name, else
/// the same kind at the same source line.
int irNodeFor(const ir::Graph& graph, const NodeRef& node);

/// The nodes of an error's details (unsupported operators, the failing node).
FailedNodes failedNodes(const SessionState& state, const std::vector<Diagnostic>& details);

/// After a check that failed: the diverging operation first, then every IR
/// node whose values were out of tolerance.
FailedNodes failedCheckNodes(const SessionState& state, const QHash<QString, NodeError>& errors);

} // namespace t2n::ui
