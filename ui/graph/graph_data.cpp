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

// Node ids interned to numbers shared by both snapshots, so that edges compare
// as integer pairs rather than strings.
struct Interned {
    QHash<QString, quint32> ids;
    quint32 of(const QString& id) {
        auto it = ids.constFind(id);
        if (it == ids.cend())
            it = ids.insert(id, quint32(ids.size()));
        return *it;
    }
};

quint64 edgeKey(quint32 from, quint32 to) {
    return (quint64(from) << 32) | to;
}

QSet<quint64> edgeKeys(const GraphData& graph, Interned& interned) {
    QSet<quint64> keys;
    keys.reserve(graph.edges.size());
    for (const GraphEdge& e : graph.edges)
        keys.insert(edgeKey(interned.of(e.from), interned.of(e.to)));
    return keys;
}

} // namespace

GraphDiff diffGraphs(const GraphData& previous, const GraphData& next) {
    GraphDiff diff;
    Interned interned;
    interned.ids.reserve(previous.nodes.size() + next.nodes.size() / 8);
    QSet<quint32> before;
    for (const GraphNode& n : previous.nodes)
        before.insert(interned.of(n.id));
    QSet<quint32> after;
    for (const GraphNode& n : next.nodes) {
        const quint32 id = interned.of(n.id);
        after.insert(id);
        if (!before.contains(id))
            diff.added.insert(n.id);
    }
    for (const GraphNode& n : previous.nodes)
        if (!after.contains(interned.ids.value(n.id)))
            diff.removed.insert(n.id);

    // A surviving node is rewired when an edge at it exists in one snapshot only.
    const QSet<quint64> oldEdges = edgeKeys(previous, interned);
    const QSet<quint64> newEdges = edgeKeys(next, interned);
    QSet<quint32> touched;
    for (quint64 e : oldEdges)
        if (!newEdges.contains(e))
            touched << quint32(e >> 32) << quint32(e & 0xffffffffu);
    for (quint64 e : newEdges)
        if (!oldEdges.contains(e))
            touched << quint32(e >> 32) << quint32(e & 0xffffffffu);
    for (const GraphNode& n : next.nodes) {
        const quint32 id = interned.ids.value(n.id);
        if (touched.contains(id) && before.contains(id))
            diff.rewired.insert(n.id);
    }
    return diff;
}

} // namespace t2n::ui
