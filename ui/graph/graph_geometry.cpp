#include "graph/graph_geometry.h"

#include <QLineF>

namespace t2n::ui {

void GraphGeometry::reindex() {
    index_.clear();
    index_.reserve(nodes.size());
    for (int i = 0; i < nodes.size(); ++i)
        index_.insert(nodes[i].key, i);
    frameIndex_.clear();
    for (int i = 0; i < frames.size(); ++i)
        frameIndex_.insert(QStringLiteral("cluster:") + frames[i].clusterId, i);
}

void GraphGeometry::appendNode(const NodeGeometry& node) {
    index_.insert(node.key, int(nodes.size()));
    nodes.append(node);
    bounds = bounds.united(node.rect);
}

bool GraphGeometry::itemRect(const QString& key, QRectF* rect) const {
    if (const int i = index_.value(key, -1); i >= 0) {
        *rect = nodes[i].rect;
        return true;
    }
    if (const int f = frameIndex_.value(key, -1); f >= 0) {
        *rect = frames[f].rect;
        return true;
    }
    return false;
}

EdgeGeometry connectBoxes(const QString& fromKey, const QRectF& from, const QString& toKey,
                          const QRectF& to) {
    EdgeGeometry e;
    e.from = fromKey;
    e.to = toKey;
    const bool downwards = to.top() >= from.bottom();
    const QPointF start = downwards ? QPointF(from.center().x(), from.bottom())
                                    : QPointF(from.right(), from.center().y());
    const QPointF tip =
        downwards ? QPointF(to.center().x(), to.top()) : QPointF(to.right(), to.center().y());
    const double bend = std::max(20.0, std::abs(tip.y() - start.y()) / 2);
    const QPointF c1 = downwards ? start + QPointF(0, bend) : start + QPointF(bend, 0);
    const QPointF base = downwards ? tip - QPointF(0, 8) : tip + QPointF(8, 0);
    const QPointF c2 = downwards ? base - QPointF(0, bend) : base + QPointF(bend, 0);
    e.path.moveTo(start);
    e.path.cubicTo(c1, c2, base);
    e.arrowBase = base;
    e.arrowTip = tip;
    return e;
}

} // namespace t2n::ui
