#pragma once
// A pass step drawn on the previous layout: unchanged items keep their exact
// boxes, removed nodes stay as ghosts where they were, added nodes are put
// next to their neighbours, and only the edges that changed get new paths.
// No Graphviz run: a step costs a few hash passes over the graph.
#include "graph/cluster_tree.h"
#include "graph/graph_geometry.h"

namespace t2n::ui {

/// `previousGeometry` shows `previous` with `collapsed`; the result shows `next`
/// (plus ghosts of what `diff` removed) with every item marked. Added nodes
/// take their box in `known` when it has one and it is free (scrubbing back
/// to a pass placed before puts them where they were), else a free spot.
GraphGeometry placeStep(const GraphGeometry& previousGeometry, const GraphData& previous,
                        const GraphData& next, const ClusterTree& nextTree,
                        const QSet<QString>& collapsed, const GraphDiff& diff,
                        const GraphGeometry* known = nullptr);

} // namespace t2n::ui
