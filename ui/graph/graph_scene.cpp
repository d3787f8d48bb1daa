#include "graph/graph_scene.h"

#include <QGraphicsSceneMouseEvent>
#include <QPainter>

namespace t2n::ui {

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
    // Items never move once placed; BSP indexing pays off for hit tests and painting.
    setItemIndexMethod(BspTreeIndex);
}

void GraphScene::setColors(const GraphColors& colors) {
    colors_ = colors;
    update();
}

void GraphScene::drawBackground(QPainter* painter, const QRectF& rect) {
    painter->fillRect(rect, colors_.background);
}

void GraphScene::show(const GraphGeometry& geometry) {
    QSet<QString> keep;
    keep.reserve(geometry.nodes.size());
    for (const NodeGeometry& g : geometry.nodes) {
        keep.insert(g.key);
        NodeItem* item = nodes_.value(g.key);
        if (!item) {
            const QColor fill =
                g.clusterId.isEmpty() ? opFamilyColor(g.kind) : QColor(0xdf, 0xe6, 0xee);
            item = new NodeItem(g.key, g.rect, g.title, g.subtitle, fill);
            item->setClusterId(g.clusterId);
            addItem(item);
            nodes_.insert(g.key, item);
        }
        item->setRect(g.rect);
        item->setMark(g.mark);
        item->setBadge(g.diffSummary.isEmpty() ? g.badge : g.diffSummary);
        item->setHighlight(highlights_.value(g.key));
        item->setOverlay(overlay_.value(g.key));
    }
    for (auto it = nodes_.begin(); it != nodes_.end();) {
        if (keep.contains(it.key())) {
            ++it;
            continue;
        }
        delete it.value();
        it = nodes_.erase(it);
    }
    QHash<QString, FrameItem*> frames;
    frames.reserve(geometry.frames.size());
    for (const FrameGeometry& f : geometry.frames) {
        FrameItem* frame = frames_.take(f.clusterId);
        if (!frame || frame->boundingRect() != f.rect) {
            delete frame;
            frame = new FrameItem(f.clusterId, f.rect, f.title, f.depth);
            addItem(frame);
        }
        frames.insert(f.clusterId, frame);
    }
    qDeleteAll(frames_);
    frames_ = std::move(frames);
    showEdges(geometry);
    applyFocus();
    setSceneRect(geometry.bounds.adjusted(-40, -40, 40, 40));
}

void GraphScene::showEdges(const GraphGeometry& geometry) {
    QHash<QString, QPair<EdgeItem*, QPainterPath>> next;
    next.reserve(geometry.edges.size());
    for (const EdgeGeometry& e : geometry.edges) {
        const QString key = e.from + QLatin1Char('\n') + e.to;
        auto old = edges_.find(key);
        EdgeItem* item = nullptr;
        if (old != edges_.end() && old->second == e.path) {
            item = old->first;
            edges_.erase(old);
        } else {
            item = new EdgeItem(e.path, e.arrowBase, e.arrowTip, e.label);
            addItem(item);
        }
        item->setMark(e.mark);
        next.insert(key, {item, e.path});
    }
    for (const auto& stale : std::as_const(edges_))
        delete stale.first;
    edges_ = std::move(next);
}

void GraphScene::setHighlights(const QHash<QString, QColor>& colorByKey) {
    highlights_ = colorByKey;
    for (NodeItem* item : std::as_const(nodes_))
        item->setHighlight(highlights_.value(item->key()));
}

void GraphScene::setOverlay(const QHash<QString, QColor>& colorByKey) {
    overlay_ = colorByKey;
    for (NodeItem* item : std::as_const(nodes_))
        item->setOverlay(overlay_.value(item->key()));
}

void GraphScene::setFocusKeys(const QSet<QString>& keys) {
    focus_ = keys;
    applyFocus();
}

void GraphScene::applyFocus() {
    constexpr double kFaded = 0.15;
    for (NodeItem* item : std::as_const(nodes_))
        item->setOpacity(focus_.isEmpty() || focus_.contains(item->key()) ? 1.0 : kFaded);
    for (auto it = edges_.begin(); it != edges_.end(); ++it) {
        const QStringList ends = it.key().split(QLatin1Char('\n'));
        const bool kept =
            focus_.isEmpty() || (focus_.contains(ends.value(0)) && focus_.contains(ends.value(1)));
        it->first->setOpacity(kept ? 1.0 : kFaded);
    }
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
    for (QGraphicsItem* item : items(event->scenePos())) {
        if (auto* node = dynamic_cast<NodeItem*>(item); node && node->isCluster()) {
            event->accept();
            Q_EMIT clusterToggleRequested(node->clusterId());
            return;
        }
        if (auto* frame = dynamic_cast<FrameItem*>(item)) {
            event->accept();
            Q_EMIT clusterToggleRequested(frame->clusterId());
            return;
        }
        if (dynamic_cast<NodeItem*>(item))
            break;
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
}

} // namespace t2n::ui
