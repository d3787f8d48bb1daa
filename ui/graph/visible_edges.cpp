#include "graph/visible_edges.h"

namespace t2n::ui {

namespace {

// The chain of clusters of a node, cut after its first collapsed cluster.
QStringList visibleChain(const ClusterTree& tree, const QSet<QString>& collapsed, int node,
                         bool* hidden) {
    QStringList chain = tree.chain(tree.clusterOfNode(node));
    *hidden = false;
    for (int k = 0; k < chain.size(); ++k)
        if (collapsed.contains(chain[k])) {
            chain = chain.mid(0, k + 1);
            *hidden = true;
            break;
        }
    return chain;
}

} // namespace

QString visibleItem(const GraphData& graph, const ClusterTree& tree, const QSet<QString>& collapsed,
                    int index) {
    const QString outer = tree.collapsedAncestor(index, collapsed);
    return outer.isEmpty() ? graph.nodes[index].id : clusterItemKey(outer);
}

QVector<ItemEdge> visibleEdges(const GraphData& graph, const ClusterTree& tree,
                               const QSet<QString>& collapsed) {
    const int n = int(graph.nodes.size());
    // Chains are shared by all nodes of a cluster: compute once per cluster.
    QHash<QString, int> chainOfCluster;
    QVector<QPair<QStringList, bool>> chainList; // (chain, cut at a collapsed cluster)
    QVector<int> chainOf(n);
    for (int i = 0; i < n; ++i) {
        const QString& c = tree.clusterOfNode(i);
        auto it = chainOfCluster.find(c);
        if (it == chainOfCluster.end()) {
            bool hidden = false;
            QStringList chain = visibleChain(tree, collapsed, i, &hidden);
            it = chainOfCluster.insert(c, int(chainList.size()));
            chainList.append({chain, hidden});
        }
        chainOf[i] = *it;
    }
    auto element = [&](int node, int k) {
        const QStringList& chain = chainList[chainOf[node]].first;
        return k < chain.size() ? clusterItemKey(chain[k]) : graph.nodes[node].id;
    };
    // How many leading items two nodes share: equal chains share them all
    // (the nodes themselves differ); else compare cluster ids, never building keys.
    auto shared = [&](int u, int v) {
        const QStringList& cu = chainList[chainOf[u]].first;
        const QStringList& cv = chainList[chainOf[v]].first;
        if (chainOf[u] == chainOf[v])
            return int(cu.size());
        int k = 0;
        while (k < cu.size() && k < cv.size() && cu[k] == cv[k])
            ++k;
        return k;
    };
    auto length = [&](int node) {
        const auto& [chain, hidden] = chainList[chainOf[node]];
        return chain.size() + (hidden ? 0 : 1);
    };

    const QHash<QString, int> index = graph.indexById();
    QVector<ItemEdge> out;
    QHash<QPair<QString, QString>, int> bundle;
    for (int ei = 0; ei < graph.edges.size(); ++ei) {
        const GraphEdge& e = graph.edges[ei];
        const int u = index.value(e.from, -1);
        const int v = index.value(e.to, -1);
        if (u < 0 || v < 0 || u == v)
            continue;
        const int lu = int(length(u));
        const int lv = int(length(v));
        const int k = shared(u, v);
        if (k == lu || k == lv)
            continue; // both ends inside one collapsed cluster
        const QPair<QString, QString> pair(element(u, k), element(v, k));
        auto it = bundle.find(pair);
        if (it == bundle.end()) {
            it = bundle.insert(pair, int(out.size()));
            out.append({k == 0 ? QString() : chainList[chainOf[u]].first[k - 1],
                        pair.first,
                        pair.second,
                        e.label,
                        {}});
        }
        out[*it].members.append(ei);
    }
    return out;
}

} // namespace t2n::ui
