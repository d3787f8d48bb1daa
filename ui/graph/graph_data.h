#pragma once
// The UI-side description of a graph (TorchScript snapshot, t2n IR or NNEF
// graph) that the graph view draws. The session fills it from the engine; the
// view never sees engine types.
#include <QHash>
#include <QMap>
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
    /// What a node of the same id is compared on between two snapshots
    /// ("kind", "attributes", "dtype", "shape"): a differing facet makes it
    /// modified. Value names are left out, as passes rename values freely.
    QMap<QString, QString> facets;
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
    /// In both and changed itself: the facets that differ, and "inputs" when
    /// its incoming edges do (a node whose consumers changed is not modified).
    QHash<QString, QStringList> modified;
    bool isEmpty() const {
        return added.isEmpty() && removed.isEmpty() && rewired.isEmpty() && modified.isEmpty();
    }
    /// Added, removed and modified: what the "only changed" filter keeps.
    QSet<QString> changed() const;
};

/// The facets of a node that differ between two versions of it.
QStringList changedFacets(const GraphNode& before, const GraphNode& after);

/// Compares two snapshots by node id, by (from, to) edge pairs and by facets.
GraphDiff diffGraphs(const GraphData& previous, const GraphData& next);

} // namespace t2n::ui
