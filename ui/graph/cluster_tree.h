#pragma once
// The module hierarchy of a GraphData as a tree of clusters, and which item
// stands for each node once some clusters are collapsed.
#include "graph/graph_data.h"

namespace t2n::ui {

struct Cluster {
    QString id;           ///< "" for the root, else the parent's id + '.' + the name
    QString title;        ///< last path element, or "ops a-b" for a split chunk
    QString parent;       ///< id of the parent cluster
    int depth = 0;        ///< 0 for the root
    QStringList children; ///< child cluster ids, in first-seen order
    QVector<int> nodes;   ///< indices of the nodes directly inside
    int totalNodes = 0;   ///< nodes inside, at any depth
};

class ClusterTree {
public:
    /// Builds the tree from the nodes' cluster paths. A cluster with more than
    /// `splitAbove` direct nodes gets them split into chunks of that size (in
    /// node order), so that a flat graph never becomes one huge layout.
    static ClusterTree build(const GraphData& graph, int splitAbove = 300);

    const Cluster& cluster(const QString& id) const { return clusters_.find(id).value(); }
    bool contains(const QString& id) const { return clusters_.contains(id); }
    const QHash<QString, Cluster>& clusters() const { return clusters_; }
    /// The innermost cluster holding node `index`.
    const QString& clusterOfNode(int index) const { return nodeCluster_[index]; }
    /// Cluster ids from the outermost (root excluded) down to `id`.
    QStringList chain(const QString& id) const;
    /// Clusters holding more than `collapseAbove` nodes: what opens collapsed.
    QSet<QString> defaultCollapsed(int collapseAbove) const;
    /// The outermost collapsed cluster holding node `index`, or "" if it is visible.
    QString collapsedAncestor(int index, const QSet<QString>& collapsed) const;

private:
    QHash<QString, Cluster> clusters_;
    QVector<QString> nodeCluster_;
};

/// Key of the scene item that stands for a collapsed cluster (node ids and
/// cluster ids live in one namespace in the geometry).
inline QString clusterItemKey(const QString& clusterId) {
    return QStringLiteral("cluster:") + clusterId;
}

} // namespace t2n::ui
