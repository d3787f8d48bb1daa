#include "graph/graph_layout.h"

#include "graph/visible_edges.h"

#include <algorithm>
#include <climits>
#include <functional>

namespace t2n::ui {

QString shortKind(const QString& kind) {
    const int sep = kind.lastIndexOf(QLatin1String("::"));
    return sep < 0 ? kind : kind.mid(sep + 2);
}

NodeGeometry opGeometry(const GraphNode& node, int index, const QRectF& rect) {
    NodeGeometry g;
    g.key = node.id;
    g.nodeIndex = index;
    g.rect = rect;
    // Adapters label a node "kind\nshape" (or "name\nshape"): the first line
    // is the bold title, the rest the subtitle; a one-line label gets the op
    // kind beneath it unless it already is the kind. Each half of the box
    // holds one line.
    const qsizetype newline = node.label.indexOf(QLatin1Char('\n'));
    if (newline >= 0) {
        g.title = node.label.left(newline);
        g.subtitle = node.label.mid(newline + 1).replace(QLatin1Char('\n'), QLatin1Char(' '));
    } else {
        g.title = node.label;
        const QString kind = shortKind(node.kind);
        g.subtitle = kind == node.label ? QString() : kind;
    }
    g.kind = node.kind;
    g.badge = node.badge;
    return g;
}

QSizeF GraphLayout::nodeSize(const GraphNode& node) {
    qsizetype chars = shortKind(node.kind).size();
    for (const QString& line : node.label.split(QLatin1Char('\n')))
        chars = std::max(chars, line.size());
    return {std::clamp(chars * 6.5 + 24.0, 60.0, 240.0), 38.0};
}

QSizeF GraphLayout::collapsedSize(const Cluster& cluster) {
    return {std::clamp(cluster.title.size() * 7.5 + 40.0, 90.0, 260.0), 46.0};
}

const DotBlock& GraphLayout::runCached(const QVector<QSizeF>& sizes,
                                       const QVector<QPair<int, int>>& edges) {
    QByteArray key;
    key.reserve(int(sizes.size() * 8 + edges.size() * 8));
    for (const QSizeF& s : sizes)
        key += QByteArray::number(qRound(s.width())) + 'x' +
               QByteArray::number(qRound(s.height())) + ';';
    key += '|';
    for (const auto& e : edges)
        key += QByteArray::number(e.first) + '>' + QByteArray::number(e.second) + ';';
    auto it = m_cache.find(key);
    if (it != m_cache.end() && m_cacheEnabled) {
        ++m_cacheHits;
        return *it;
    }
    ++m_dotRuns;
    return *m_cache.insert(key, runDot(sizes, edges));
}

namespace {

struct BlockEdge {
    QString from; ///< item keys inside the block
    QString to;
    QString label;
    int count = 0;
};

// One expanded cluster being laid out.
struct Block {
    QStringList items; ///< item keys: node ids or clusterItemKey(child)
    QVector<QSizeF> sizes;
    QVector<BlockEdge> edges;
    const DotBlock* dot = nullptr;
};

struct Pass {
    const GraphData& graph;
    const ClusterTree& tree;
    const QSet<QString>& collapsed;
    QHash<QString, Block> blocks;
    QHash<QString, int> firstNode; ///< per cluster: smallest node index inside
    QHash<QString, int> nodeIndex;
    GraphGeometry out;
};

int firstNodeOf(Pass& pass, const QString& clusterId) {
    auto it = pass.firstNode.find(clusterId);
    if (it != pass.firstNode.end())
        return *it;
    const Cluster& c = pass.tree.cluster(clusterId);
    int first = INT_MAX;
    for (int n : c.nodes)
        first = std::min(first, n);
    for (const QString& child : c.children)
        first = std::min(first, firstNodeOf(pass, child));
    pass.firstNode.insert(clusterId, first);
    return first;
}

// Each edge belongs to the block of the lowest cluster holding both ends.
void assignEdges(Pass& pass) {
    for (const ItemEdge& e : visibleEdges(pass.graph, pass.tree, pass.collapsed)) {
        Block& block = pass.blocks.find(e.block).value();
        block.edges.append({e.from, e.to, e.label, int(e.members.size())});
    }
}

QSizeF frameSize(const DotBlock& dot) {
    return dot.size + QSizeF(2 * GraphLayout::framePadding,
                             2 * GraphLayout::framePadding + GraphLayout::frameTitle);
}

} // namespace

GraphGeometry GraphLayout::layout(const GraphData& graph, const ClusterTree& tree,
                                  const QSet<QString>& collapsed) {
    Pass pass{graph, tree, collapsed, {}, {}, graph.indexById(), {}};
    // Every block exists before the recursion, so references into the hash stay valid.
    for (const Cluster& c : tree.clusters())
        pass.blocks.insert(c.id, Block());
    assignEdges(pass);

    // Bottom-up: children before parents, so that expanded children have sizes.
    std::function<QSizeF(const QString&)> layOut = [&](const QString& clusterId) -> QSizeF {
        const Cluster& c = tree.cluster(clusterId);
        Block& block = pass.blocks.find(clusterId).value();
        QVector<QPair<int, QString>> order; // (first node index, item key)
        for (const QString& child : c.children)
            order.append({firstNodeOf(pass, child), clusterItemKey(child)});
        for (int n : c.nodes)
            order.append({n, graph.nodes[n].id});
        std::sort(order.begin(), order.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        QHash<QString, int> slot;
        for (const auto& [first, key] : order) {
            slot.insert(key, int(block.items.size()));
            block.items.append(key);
            if (key.startsWith(QLatin1String("cluster:"))) {
                const QString childId = key.mid(8);
                block.sizes.append(collapsed.contains(childId)
                                       ? collapsedSize(tree.cluster(childId))
                                       : layOut(childId));
            } else {
                block.sizes.append(nodeSize(graph.nodes[first]));
            }
        }
        QVector<QPair<int, int>> edges;
        for (const BlockEdge& e : std::as_const(block.edges))
            edges.append({slot.value(e.from), slot.value(e.to)});
        block.dot = &runCached(block.sizes, edges);
        return frameSize(*block.dot);
    };
    layOut(QString());

    // Top-down: place each block's items at its origin.
    std::function<void(const QString&, QPointF)> place = [&](const QString& clusterId,
                                                             QPointF origin) {
        const Block& block = pass.blocks.find(clusterId).value();
        for (int i = 0; i < block.items.size(); ++i) {
            const QString& key = block.items[i];
            const QSizeF size = block.sizes[i];
            const QRectF rect(origin + block.dot->centers[i] -
                                  QPointF(size.width() / 2, size.height() / 2),
                              size);
            if (!key.startsWith(QLatin1String("cluster:"))) {
                const int index = pass.nodeIndex.value(key);
                pass.out.nodes.append(opGeometry(graph.nodes[index], index, rect));
                continue;
            }
            const QString childId = key.mid(8);
            if (collapsed.contains(childId)) {
                const Cluster& child = tree.cluster(childId);
                NodeGeometry box;
                box.key = key;
                box.clusterId = childId;
                box.rect = rect;
                box.title = child.title;
                box.subtitle = QStringLiteral("%1 ops").arg(child.totalNodes);
                pass.out.nodes.append(box);
                continue;
            }
            const Cluster& child = tree.cluster(childId);
            pass.out.frames.append({childId, child.title, rect, child.depth});
            place(childId, rect.topLeft() + QPointF(framePadding, framePadding + frameTitle));
        }
        for (int i = 0; i < block.edges.size(); ++i) {
            const BlockEdge& be = block.edges[i];
            const DotSpline& s = block.dot->splines[i];
            if (s.points.size() < 4)
                continue;
            EdgeGeometry e;
            e.from = be.from;
            e.to = be.to;
            e.count = be.count;
            e.label = be.count > 1 ? QStringLiteral("\u00d7%1").arg(be.count) : be.label;
            e.path.moveTo(origin + s.points[0]);
            for (int k = 1; k + 2 < s.points.size(); k += 3)
                e.path.cubicTo(origin + s.points[k], origin + s.points[k + 1],
                               origin + s.points[k + 2]);
            e.arrowBase = origin + s.points.last();
            e.arrowTip = origin + s.arrowTip;
            pass.out.edges.append(e);
        }
    };
    place(QString(), QPointF(0, 0));

    pass.out.bounds = QRectF(QPointF(0, 0), pass.blocks.find(QString()).value().dot->size);
    pass.out.reindex();
    return pass.out;
}

} // namespace t2n::ui
