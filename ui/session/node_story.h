// A node's history across the hardening passes, for Properties: each pass
// that added, removed or modified it (with what changed, in the change
// table's words) and what the pass remarked about it. The engine's own
// history (harden::nodeHistory) knows events and remarks; whether a kept
// node's attributes, dtype or shape changed is read from the snapshots.
#pragma once

#include "graph/graph_data.h"

#include "t2n/harden.h"

#include <functional>
#include <memory>

namespace t2n::ui {

/// The graph after row `row` of the pass list (0: as loaded).
using RowGraph = std::function<std::shared_ptr<const GraphData>(int row)>;

/// One line per pass that touched node `id` ("ts:12"), in pass order, e.g.
/// "3 remove_tensor_mutation (round 1): modified: inputs". Empty: untouched.
QStringList nodeStory(const harden::HardenDiagnostics& d, const QString& id,
                      const RowGraph& graphAt);

} // namespace t2n::ui
