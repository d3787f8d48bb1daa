#pragma once
// The UI-side description of a graph (TorchScript snapshot, t2n IR or NNEF
// graph) that the graph view draws. The session fills it from the engine; the
// view never sees engine types.
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

namespace t2n::ui {

struct GraphNode {
    QString id; ///< stable across snapshots: same id = same node
    QString label;
    QString kind;            ///< op kind, e.g. "aten::conv2d"
    QStringList clusterPath; ///< module path split on '.', e.g. {"layer1","0","conv1"}
    QVariantMap properties;  ///< dtype, shape, attributes, module path, source line...
    QString badge;           ///< short remark drawn on the node, may be empty
};

struct GraphEdge {
    QString from;
    QString to;
    QString label; ///< e.g. a shape
};

struct GraphData {
    QVector<GraphNode> nodes;
    QVector<GraphEdge> edges;

    /// Index of each node id in `nodes`.
    QHash<QString, int> indexById() const;
};

/// What changed between two snapshots, by node id.
struct GraphDiff {
    QSet<QString> added;   ///< in next only
    QSet<QString> removed; ///< in previous only
    QSet<QString> rewired; ///< in both, with a different set of incoming or outgoing edges
    bool isEmpty() const { return added.isEmpty() && removed.isEmpty() && rewired.isEmpty(); }
};

/// Compares two snapshots by node id and by (from, to) edge pairs.
GraphDiff diffGraphs(const GraphData& previous, const GraphData& next);

} // namespace t2n::ui
