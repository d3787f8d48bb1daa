// The written graph.nnef as the graph view's GraphData: one box per body
// operation ("nnef:LINE"), edges from the line that defines each operand,
// `external` lines as the inputs, and the module path of the IR node a line
// came from as its cluster, so the NNEF graph folds like the IR graph.
// Variables are left out like constants in the other graphs.
#pragma once

#include "graph/graph_data.h"

#include "t2n/ir.h"
#include "t2n/provenance.h"

#include <string>

namespace t2n::ui {

/// `nnefText` is graph.nnef as written; `provenance` its lines' origin.
GraphData graphFromNnef(const std::string& nnefText, const Provenance& provenance,
                        const ir::Graph& graph);

/// Id of graph.nnef line `line` in graphFromNnef's GraphData.
QString nnefNodeKey(int line);

} // namespace t2n::ui
