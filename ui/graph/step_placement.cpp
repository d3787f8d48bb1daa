#include "graph/step_placement.h"

#include "graph/graph_layout.h"
#include "graph/visible_edges.h"

#include <cmath>

namespace t2n::ui {

namespace {

using EdgeKey = QPair<QString, QString>;

struct ClusterChanges {
    int added = 0;
    int removed = 0;
    int modified = 0;
};

// Node boxes bucketed by a coarse grid, so that finding a free spot looks at
// the boxes nearby only.
class OccupancyGrid {
public:
    explicit OccupancyGrid(const GraphGeometry& geometry) {
        for (const NodeGeometry& n : geometry.nodes)
            add(n.rect);
    }
    void add(const QRectF& r) {
        forCells(r, [&](quint64 key) {
            cells_[key].append(r);
            return true;
        });
    }
    bool isFree(const QRectF& r) const {
        return forCells(r, [&](quint64 key) {
            for (const QRectF& other : cells_.value(key))
                if (other.intersects(r))
                    return false;
            return true;
        });
    }

private:
    static constexpr double cell = 160;
    template <typename F> static bool forCells(const QRectF& r, F&& visit) {
        for (auto x = qint64(std::floor(r.left() / cell));
             x <= qint64(std::floor(r.right() / cell)); ++x)
            for (auto y = qint64(std::floor(r.top() / cell));
                 y <= qint64(std::floor(r.bottom() / cell)); ++y)
                if (!visit((quint64(quint32(x)) << 32) | quint32(y)))
                    return false;
        return true;
    }
    QHash<quint64, QVector<QRectF>> cells_;
};

// Finds a free spot for `size` around `anchor`, sliding right, then left.
QRectF freeSpot(const OccupancyGrid& grid, const QRectF& bounds, QPointF anchor, QSizeF size) {
    const double step = size.width() + 16;
    for (int attempt = 0; attempt < 24; ++attempt) {
        const double dx = (attempt % 2 ? -1 : 1) * ((attempt + 1) / 2) * step;
        const QRectF rect(anchor + QPointF(dx - size.width() / 2, -size.height() / 2), size);
        if (grid.isFree(rect.adjusted(-6, -6, 6, 6)))
            return rect;
    }
    return QRectF(QPointF(bounds.right() + 20, anchor.y()), size);
}

// Below its placed predecessors, else above its successors, else under everything.
QPointF anchorFor(const GraphGeometry& geometry, const QStringList& preds, const QStringList& succs,
                  QSizeF size) {
    const double gap = 28 + size.height() / 2;
    QRectF r;
    double x = 0;
    double y = -1e300;
    int found = 0;
    for (const QString& p : preds)
        if (geometry.itemRect(p, &r)) {
            x += r.center().x();
            y = std::max(y, r.bottom() + gap);
            ++found;
        }
    if (found > 0)
        return {x / found, y};
    y = 1e300;
    for (const QString& s : succs)
        if (geometry.itemRect(s, &r)) {
            x += r.center().x();
            y = std::min(y, r.top() - gap);
            ++found;
        }
    if (found > 0)
        return {x / found, y};
    return {geometry.bounds.center().x(), geometry.bounds.bottom() + gap};
}

void placeAdded(GraphGeometry& out, const GraphData& next, const ClusterTree& tree,
                const QSet<QString>& collapsed, const GraphDiff& diff, const GraphGeometry* known,
                QHash<QString, ClusterChanges>& changes) {
    if (diff.added.isEmpty())
        return;
    const QHash<QString, int> index = next.indexById();
    QHash<QString, QStringList> preds;
    QHash<QString, QStringList> succs;
    auto item = [&](const QString& id) {
        const int i = index.value(id, -1);
        return i < 0 ? QString() : visibleItem(next, tree, collapsed, i);
    };
    for (const GraphEdge& e : next.edges) {
        if (diff.added.contains(e.to))
            preds[e.to].append(item(e.from));
        if (diff.added.contains(e.from))
            succs[e.from].append(item(e.to));
    }
    OccupancyGrid grid(out);
    for (int i = 0; i < next.nodes.size(); ++i) {
        const GraphNode& node = next.nodes[i];
        if (!diff.added.contains(node.id))
            continue;
        const QString outer = tree.collapsedAncestor(i, collapsed);
        if (!outer.isEmpty() && out.indexOf(clusterItemKey(outer)) >= 0) {
            changes[outer].added++;
            continue;
        }
        const QSizeF size = GraphLayout::nodeSize(node);
        QRectF rect;
        if (!known || !known->itemRect(node.id, &rect) || !grid.isFree(rect))
            rect = freeSpot(grid, out.bounds, anchorFor(out, preds[node.id], succs[node.id], size),
                            size);
        grid.add(rect);
        NodeGeometry g = opGeometry(node, i, rect);
        g.mark = DiffMark::Added;
        out.appendNode(g);
    }
}

QString summary(const ClusterChanges& c) {
    QStringList parts;
    if (c.added)
        parts << QStringLiteral("+%1").arg(c.added);
    if (c.removed)
        parts << QStringLiteral("\u2212%1").arg(c.removed);
    if (c.modified)
        parts << QStringLiteral("~%1").arg(c.modified);
    return parts.join(QLatin1Char(' '));
}

} // namespace

GraphGeometry placeStep(const GraphGeometry& previousGeometry, const GraphData& previous,
                        const GraphData& next, const ClusterTree& nextTree,
                        const QSet<QString>& collapsed, const GraphDiff& diff,
                        const GraphGeometry* known) {
    GraphGeometry out;
    out.frames = previousGeometry.frames;
    out.bounds = previousGeometry.bounds;
    out.nodes.reserve(previousGeometry.nodes.size() + diff.added.size());
    const QHash<QString, int> nextIndex = next.indexById();
    const QHash<QString, int> prevIndex = previous.indexById();
    QHash<QString, ClusterChanges> changes;

    for (const NodeGeometry& g : previousGeometry.nodes) {
        if (g.mark == DiffMark::Removed)
            continue; // ghost of an earlier step
        NodeGeometry n = g;
        n.mark = DiffMark::None;
        n.diffSummary.clear();
        if (n.clusterId.isEmpty()) {
            n.nodeIndex = nextIndex.value(n.key, -1);
            if (n.nodeIndex < 0)
                n.mark = DiffMark::Removed;
            else if (diff.modified.contains(n.key))
                n.mark = DiffMark::Modified;
        }
        out.nodes.append(n);
    }
    out.reindex();

    // Changes hidden inside collapsed clusters are summed up on the cluster box.
    const bool hidden = !collapsed.isEmpty();
    const ClusterTree prevTree =
        hidden && !diff.removed.isEmpty() ? ClusterTree::build(previous) : ClusterTree();
    for (const QString& id : hidden ? diff.removed : QSet<QString>()) {
        const QString outer = prevTree.collapsedAncestor(prevIndex.value(id), collapsed);
        if (!outer.isEmpty())
            changes[outer].removed++;
    }
    for (const QString& id : hidden ? diff.modified.keys() : QStringList()) {
        const QString outer = nextTree.collapsedAncestor(nextIndex.value(id), collapsed);
        if (!outer.isEmpty())
            changes[outer].modified++;
    }
    placeAdded(out, next, nextTree, collapsed, diff, known, changes);
    for (auto it = changes.cbegin(); it != changes.cend(); ++it)
        if (const int i = out.indexOf(clusterItemKey(it.key())); i >= 0) {
            out.nodes[i].mark = DiffMark::Modified;
            out.nodes[i].diffSummary = summary(it.value());
        }

    QSet<EdgeKey> oldGraphEdges;
    for (const GraphEdge& e : previous.edges)
        oldGraphEdges.insert({e.from, e.to});
    QHash<EdgeKey, int> oldPaths;
    for (int i = 0; i < previousGeometry.edges.size(); ++i)
        if (previousGeometry.edges[i].mark != DiffMark::Removed)
            oldPaths.insert({previousGeometry.edges[i].from, previousGeometry.edges[i].to}, i);

    QSet<EdgeKey> drawn;
    for (const ItemEdge& ie : visibleEdges(next, nextTree, collapsed)) {
        bool fresh = false;
        bool touchesAdded = false;
        for (int m : ie.members) {
            const GraphEdge& e = next.edges[m];
            fresh = fresh || !oldGraphEdges.contains({e.from, e.to});
            touchesAdded = touchesAdded || diff.added.contains(e.from) || diff.added.contains(e.to);
        }
        const EdgeKey key(ie.from, ie.to);
        drawn.insert(key);
        const auto old = oldPaths.constFind(key);
        EdgeGeometry e;
        if (old != oldPaths.cend() && !touchesAdded) {
            e = previousGeometry.edges[*old];
        } else {
            QRectF a;
            QRectF b;
            if (!out.itemRect(ie.from, &a) || !out.itemRect(ie.to, &b))
                continue;
            e = connectBoxes(ie.from, a, ie.to, b);
        }
        e.count = int(ie.members.size());
        e.label = e.count > 1 ? QStringLiteral("\u00d7%1").arg(e.count) : ie.label;
        e.mark = !fresh ? DiffMark::None : touchesAdded ? DiffMark::Added : DiffMark::Modified;
        out.edges.append(e);
    }
    // Edges that disappeared stay as dashed ghosts between the boxes still drawn.
    QRectF unused;
    for (auto it = oldPaths.cbegin(); it != oldPaths.cend(); ++it)
        if (!drawn.contains(it.key()) && out.itemRect(it.key().first, &unused) &&
            out.itemRect(it.key().second, &unused)) {
            EdgeGeometry e = previousGeometry.edges[*it];
            e.mark = DiffMark::Removed;
            out.edges.append(e);
        }
    return out;
}

} // namespace t2n::ui
