#include "graph/cluster_tree.h"

namespace t2n::ui {

namespace {

QString childId(const QString& parent, const QString& name) {
    return parent.isEmpty() ? name : parent + QLatin1Char('.') + name;
}

void splitLargeClusters(QHash<QString, Cluster>& clusters, QVector<QString>& nodeCluster,
                        int splitAbove) {
    const QStringList ids = clusters.keys();
    for (const QString& id : ids) {
        Cluster& c = clusters[id];
        if (c.nodes.size() <= splitAbove)
            continue;
        const QVector<int> nodes = c.nodes;
        c.nodes.clear();
        for (int start = 0; start < nodes.size(); start += splitAbove) {
            const int end = std::min<int>(start + splitAbove, nodes.size());
            Cluster chunk;
            chunk.id = childId(id, QStringLiteral("#%1").arg(start / splitAbove));
            chunk.title = QStringLiteral("ops %1-%2").arg(start + 1).arg(end);
            chunk.parent = id;
            chunk.depth = c.depth + 1;
            chunk.nodes = nodes.mid(start, end - start);
            chunk.totalNodes = chunk.nodes.size();
            for (int n : chunk.nodes)
                nodeCluster[n] = chunk.id;
            c.children.append(chunk.id);
            clusters.insert(chunk.id, chunk);
        }
    }
}

} // namespace

ClusterTree ClusterTree::build(const GraphData& graph, int splitAbove) {
    ClusterTree tree;
    Cluster root;
    tree.clusters_.insert(QString(), root);
    tree.nodeCluster_.resize(graph.nodes.size());
    for (int i = 0; i < graph.nodes.size(); ++i) {
        QString parent;
        tree.clusters_[parent].totalNodes++;
        int depth = 0;
        for (const QString& name : graph.nodes[i].clusterPath) {
            const QString id = childId(parent, name);
            ++depth;
            auto it = tree.clusters_.find(id);
            if (it == tree.clusters_.end()) {
                Cluster c;
                c.id = id;
                c.title = name;
                c.parent = parent;
                c.depth = depth;
                it = tree.clusters_.insert(id, c);
                tree.clusters_[parent].children.append(id);
            }
            it->totalNodes++;
            parent = id;
        }
        tree.clusters_[parent].nodes.append(i);
        tree.nodeCluster_[i] = parent;
    }
    if (splitAbove > 0)
        splitLargeClusters(tree.clusters_, tree.nodeCluster_, splitAbove);
    return tree;
}

QStringList ClusterTree::chain(const QString& id) const {
    QStringList ids;
    for (QString c = id; !c.isEmpty(); c = clusters_.value(c).parent)
        ids.prepend(c);
    return ids;
}

QSet<QString> ClusterTree::defaultCollapsed(int collapseAbove) const {
    QSet<QString> collapsed;
    for (const Cluster& c : clusters_)
        if (!c.id.isEmpty() && c.totalNodes > collapseAbove)
            collapsed.insert(c.id);
    return collapsed;
}

QString ClusterTree::collapsedAncestor(int index, const QSet<QString>& collapsed) const {
    if (collapsed.isEmpty())
        return {};
    const QStringList ids = chain(nodeCluster_[index]);
    for (const QString& id : ids)
        if (collapsed.contains(id))
            return id;
    return {};
}

} // namespace t2n::ui
