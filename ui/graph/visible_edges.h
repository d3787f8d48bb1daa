#pragma once
// Which edges are drawn once some clusters are collapsed: every graph edge is
// lifted to the items that hold its ends in the lowest cluster holding both,
// and edges between the same two items are bundled into one.
#include "graph/cluster_tree.h"

namespace t2n::ui {

struct ItemEdge {
    QString block; ///< the cluster whose layout holds this edge ("" = root)
    QString from;  ///< item keys: node id or clusterItemKey(cluster)
    QString to;
    QString label;        ///< of the first bundled edge
    QVector<int> members; ///< indices in GraphData::edges
};

/// Edges inside one collapsed cluster are not drawn and not returned.
QVector<ItemEdge> visibleEdges(const GraphData& graph, const ClusterTree& tree,
                               const QSet<QString>& collapsed);

/// The item standing for node `index`: its id, or its outermost collapsed cluster.
QString visibleItem(const GraphData& graph, const ClusterTree& tree, const QSet<QString>& collapsed,
                    int index);

} // namespace t2n::ui
