#include "graph/graph_data.h"

namespace t2n::ui {

QHash<QString, int> GraphData::indexById() const {
    QHash<QString, int> index;
    index.reserve(nodes.size());
    for (int i = 0; i < nodes.size(); ++i)
        index.insert(nodes[i].id, i);
    return index;
}

namespace {

// Per node: the sorted list of "in:<id>" / "out:<id>" neighbour keys, so that two
// snapshots compare by connectivity without caring about edge order.
QHash<QString, QStringList> neighbourKeys(const GraphData& graph) {
    QHash<QString, QStringList> keys;
    for (const GraphEdge& e : graph.edges) {
        keys[e.from].append(QStringLiteral("out:") + e.to);
        keys[e.to].append(QStringLiteral("in:") + e.from);
    }
    for (QStringList& list : keys)
        list.sort();
    return keys;
}

} // namespace

GraphDiff diffGraphs(const GraphData& previous, const GraphData& next) {
    GraphDiff diff;
    QSet<QString> before;
    QSet<QString> after;
    for (const GraphNode& n : previous.nodes)
        before.insert(n.id);
    for (const GraphNode& n : next.nodes)
        after.insert(n.id);
    for (const QString& id : after)
        if (!before.contains(id))
            diff.added.insert(id);
    for (const QString& id : before)
        if (!after.contains(id))
            diff.removed.insert(id);

    const QHash<QString, QStringList> oldKeys = neighbourKeys(previous);
    const QHash<QString, QStringList> newKeys = neighbourKeys(next);
    for (const QString& id : after)
        if (before.contains(id) && oldKeys.value(id) != newKeys.value(id))
            diff.rewired.insert(id);
    return diff;
}

} // namespace t2n::ui
