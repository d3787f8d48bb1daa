#pragma once
// Hierarchical layout: every expanded cluster is laid out by its own `dot`
// run over its direct nodes and child clusters (a collapsed child is one box,
// an expanded one a box the size of its own layout), bottom-up, and the
// results are stacked top-down. Each run is cached by its content (box sizes
// and edges), so repeated blocks (ResNet stages) and clusters untouched by an
// expand/collapse cost nothing and keep their inner positions.
#include "graph/cluster_tree.h"
#include "graph/dot_runner.h"
#include "graph/graph_geometry.h"

#include <QSizeF>

namespace t2n::ui {

struct LayoutOptions {
    int collapseAbove = 40; ///< clusters holding more nodes open collapsed
    int splitAbove = 300;   ///< clusters with more direct nodes are chunked
};

class GraphLayout {
public:
    /// Not thread-safe (one instance per layout thread); Graphviz itself is
    /// serialised inside runDot.
    GraphGeometry layout(const GraphData& graph, const ClusterTree& tree,
                         const QSet<QString>& collapsed);

    int dotRuns() const { return dotRuns_; }
    /// Off: every block runs dot (to measure the worst case, no repeated blocks).
    void setCacheEnabled(bool enabled) { cacheEnabled_ = enabled; }
    int cacheHits() const { return cacheHits_; }

    static QSizeF nodeSize(const GraphNode& node);
    static QSizeF collapsedSize(const Cluster& cluster);
    static constexpr double framePadding = 10;
    static constexpr double frameTitle = 18;

private:
    const DotBlock& runCached(const QVector<QSizeF>& sizes, const QVector<QPair<int, int>>& edges);

    QHash<QByteArray, DotBlock> cache_;
    int dotRuns_ = 0;
    int cacheHits_ = 0;
    bool cacheEnabled_ = true;
};

/// "conv2d" for "aten::conv2d": what a node shows under its name.
QString shortKind(const QString& kind);
/// The box of an op node at `rect`.
NodeGeometry opGeometry(const GraphNode& node, int index, const QRectF& rect);

} // namespace t2n::ui
