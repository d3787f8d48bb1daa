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

QStringList changedFacets(const GraphNode& before, const GraphNode& after) {
    QStringList what;
    for (auto it = after.facets.cbegin(); it != after.facets.cend(); ++it)
        if (before.facets.value(it.key()) != it.value())
            what << it.key();
    for (auto it = before.facets.cbegin(); it != before.facets.cend(); ++it)
        if (!after.facets.contains(it.key()))
            what << it.key();
    return what;
}

QSet<QString> GraphDiff::changed() const {
    QSet<QString> ids = added + removed;
    for (auto it = modified.cbegin(); it != modified.cend(); ++it)
        ids.insert(it.key());
    return ids;
}

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

    // A surviving node is rewired when an edge at it exists in one snapshot
    // only; its inputs changed when that edge ends at it.
    const QSet<quint64> oldEdges = edgeKeys(previous, interned);
    const QSet<quint64> newEdges = edgeKeys(next, interned);
    QSet<quint32> touched;
    QSet<quint32> newInputs;
    auto touch = [&](quint64 e) {
        touched << quint32(e >> 32) << quint32(e & 0xffffffffu);
        newInputs << quint32(e & 0xffffffffu);
    };
    for (quint64 e : oldEdges)
        if (!newEdges.contains(e))
            touch(e);
    for (quint64 e : newEdges)
        if (!oldEdges.contains(e))
            touch(e);
    const QHash<QString, int> oldIndex = previous.indexById();
    for (const GraphNode& n : next.nodes) {
        const quint32 id = interned.ids.value(n.id);
        if (!before.contains(id))
            continue;
        if (touched.contains(id))
            diff.rewired.insert(n.id);
        QStringList what = changedFacets(previous.nodes[oldIndex.value(n.id)], n);
        if (newInputs.contains(id))
            what << QStringLiteral("inputs");
        if (!what.isEmpty())
            diff.modified.insert(n.id, what);
    }
    return diff;
}

} // namespace t2n::ui
