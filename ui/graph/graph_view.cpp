#include "graph/graph_view.h"

#include "graph/graph_export.h"
#include "graph/graph_minimap.h"
#include "graph/node_info.h"
#include "graph/step_placement.h"
#include "graph/visible_edges.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

namespace t2n::ui {

GraphView::GraphView(QWidget* parent, LayoutOptions options)
    : QGraphicsView(parent), options_(options), layout_(new LayoutService(this)),
      scene_(new GraphScene(this)), searchModel_(new SearchResultModel(this)),
      graph_(std::make_shared<GraphData>()), tree_(std::make_shared<ClusterTree>()) {
    setScene(scene_);
    minimap_ = new GraphMinimap(this);
    setDragMode(ScrollHandDrag);
    setTransformationAnchor(AnchorUnderMouse);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setViewportUpdateMode(SmartViewportUpdate);
    setFocusPolicy(Qt::StrongFocus);
    scene_->setColors(graphColors(palette()));
    connect(layout_, &LayoutService::finished, this, &GraphView::onLayout);
    connect(scene_, &QGraphicsScene::selectionChanged, this, &GraphView::onSceneSelection);
    connect(scene_, &GraphScene::clusterToggleRequested, this, &GraphView::toggleCluster);
}

GraphView::~GraphView() = default;

void GraphView::setGraph(const GraphData& graph) {
    graph_ = std::make_shared<const GraphData>(graph);
    tree_ = std::make_shared<const ClusterTree>(ClusterTree::build(graph, options_.splitAbove));
    collapsed_ = tree_->defaultCollapsed(options_.collapseAbove);
    matches_.clear();
    matchCursor_ = -1;
    searchModel_->clear();
    fitOnLayout_ = true;
    requestLayout();
}

void GraphView::relayout() {
    requestLayout();
}

void GraphView::requestLayout() {
    ticket_ = layout_->request({graph_, tree_, collapsed_});
}

void GraphView::onLayout(quint64 ticket, const GraphGeometry& geometry, qint64 elapsedMs) {
    if (ticket != ticket_)
        return; // superseded by a newer request or a pass step
    shownTicket_ = ticket;
    geometry_ = geometry;
    scene_->show(geometry_);
    applyHighlights();
    if (fitOnLayout_) {
        showStart();
        fitOnLayout_ = false;
    }
    minimap_->invalidate();
    placeMinimap();
    if (!pendingSelection_.isEmpty())
        centreOnNode(std::exchange(pendingSelection_, QString()));
    Q_EMIT layoutFinished(elapsedMs);
}

GraphDiff GraphView::showStep(const GraphData& previous, const GraphData& next) {
    const GraphDiff diff = diffGraphs(previous, next);
    if (geometry_.nodes.isEmpty() || isLayoutPending()) {
        setGraph(next); // nothing laid out to keep stable yet
        return diff;
    }
    auto tree = std::make_shared<const ClusterTree>(ClusterTree::build(next, options_.splitAbove));
    geometry_ = placeStep(geometry_, previous, next, *tree, collapsed_, diff);
    graph_ = std::make_shared<const GraphData>(next);
    tree_ = std::move(tree);
    scene_->show(geometry_);
    applyHighlights();
    minimap_->invalidate();
    return diff;
}

void GraphView::showPlaced(std::shared_ptr<const GraphData> graph,
                           std::shared_ptr<const ClusterTree> tree, const GraphGeometry& geometry) {
    ticket_ = shownTicket_; // a layout still on its way would undo this
    // The selected node (else the middle of the view) stays on the same
    // pixel: the scene rect may grow or shrink with the step, which would
    // otherwise scroll everything.
    const QString pinned = selectedNode();
    QRectF box;
    const QPointF anchor = !pinned.isEmpty() && geometry_.itemRect(pinned, &box)
                               ? box.center()
                               : mapToScene(viewport()->rect().center());
    const QPoint before = mapFromScene(anchor);
    graph_ = std::move(graph);
    tree_ = std::move(tree);
    geometry_ = geometry;
    scene_->show(geometry_);
    applyHighlights();
    const QPoint drift = mapFromScene(anchor) - before;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + drift.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() + drift.y());
    minimap_->invalidate();
    placeMinimap();
}

void GraphView::keepSelected(const QString& id) {
    NodeItem* item = scene_->nodeItem(id);
    if (!item || item->isSelected())
        return;
    selecting_ = true;
    scene_->clearSelection();
    item->setSelected(true);
    selecting_ = false;
}

QString GraphView::selectedNode() const {
    for (QGraphicsItem* item : scene_->selectedItems())
        if (auto* node = dynamic_cast<NodeItem*>(item); node && !node->isCluster())
            return node->key();
    return {};
}

void GraphView::setClusterCollapsed(const QString& clusterId, bool collapsed) {
    if (!tree_->contains(clusterId) || clusterId.isEmpty() ||
        collapsed_.contains(clusterId) == collapsed)
        return;
    if (collapsed)
        collapsed_.insert(clusterId);
    else
        collapsed_.remove(clusterId);
    requestLayout();
}

void GraphView::toggleCluster(const QString& clusterId) {
    setClusterCollapsed(clusterId, !collapsed_.contains(clusterId));
}

int GraphView::visibleNodeCount() const {
    int count = 0;
    for (const NodeGeometry& n : geometry_.nodes)
        count += n.clusterId.isEmpty() && n.mark != DiffMark::Removed;
    return count;
}

void GraphView::selectNode(const QString& id) {
    const int index = graph_->indexById().value(id, -1);
    if (index < 0)
        return;
    bool expanded = false;
    for (const QString& cluster : tree_->chain(tree_->clusterOfNode(index)))
        expanded = collapsed_.remove(cluster) || expanded;
    if (expanded || isLayoutPending()) {
        pendingSelection_ = id;
        if (expanded)
            requestLayout();
        return;
    }
    centreOnNode(id);
}

void GraphView::centreOnNode(const QString& id) {
    NodeItem* item = scene_->nodeItem(id);
    if (!item)
        return;
    selecting_ = true;
    scene_->clearSelection();
    item->setSelected(true);
    selecting_ = false;
    if (transform().m11() < kReadableScale)
        setTransform(QTransform()); // readable size before centring
    centerOn(item->rect().center());
    placeMinimap();
    Q_EMIT viewportMoved();
}

void GraphView::onSceneSelection() {
    if (selecting_)
        return;
    for (QGraphicsItem* item : scene_->selectedItems())
        if (auto* node = dynamic_cast<NodeItem*>(item); node && !node->isCluster()) {
            Q_EMIT nodeSelected(node->key());
            return;
        }
}

int GraphView::search(const QString& text, SearchField field) {
    matches_ = findNodes(*graph_, text, field);
    searchModel_->setResults(graph_, matches_);
    matchCursor_ = matches_.isEmpty() ? -1 : 0;
    if (matchCursor_ >= 0)
        selectNode(graph_->nodes[matches_[0]].id);
    return int(matches_.size());
}

void GraphView::nextMatch() {
    if (matches_.isEmpty())
        return;
    matchCursor_ = (matchCursor_ + 1) % int(matches_.size());
    selectNode(graph_->nodes[matches_[matchCursor_]].id);
}

void GraphView::previousMatch() {
    if (matches_.isEmpty())
        return;
    matchCursor_ = (matchCursor_ + int(matches_.size()) - 1) % int(matches_.size());
    selectNode(graph_->nodes[matches_[matchCursor_]].id);
}

void GraphView::setHighlightSet(const QString& name, const QSet<QString>& ids,
                                const QColor& color) {
    highlightSets_.insert(name, {ids, color});
    applyHighlights();
}

void GraphView::clearHighlightSet(const QString& name) {
    highlightSets_.remove(name);
    applyHighlights();
}

void GraphView::applyHighlights() {
    QHash<QString, QColor> colors;
    if (!highlightSets_.isEmpty()) {
        const QHash<QString, int> index = graph_->indexById();
        for (const auto& [ids, color] : std::as_const(highlightSets_))
            for (const QString& id : ids)
                if (const int i = index.value(id, -1); i >= 0)
                    colors.insert(visibleItem(*graph_, *tree_, collapsed_, i), color);
    }
    scene_->setHighlights(colors);
    QHash<QString, QColor> fills;
    if (!overlay_.isEmpty()) {
        const QHash<QString, int> index = graph_->indexById();
        for (auto it = overlay_.begin(); it != overlay_.end(); ++it)
            if (const int i = index.value(it.key(), -1); i >= 0)
                fills.insert(visibleItem(*graph_, *tree_, collapsed_, i), it.value());
    }
    scene_->setOverlay(fills);
    QSet<QString> focus;
    if (!focus_.isEmpty()) {
        const QHash<QString, int> index = graph_->indexById();
        for (const QString& id : std::as_const(focus_))
            if (const int i = index.value(id, -1); i >= 0)
                focus.insert(visibleItem(*graph_, *tree_, collapsed_, i));
            else if (scene_->nodeItem(id))
                focus.insert(id); // a ghost or a collapsed cluster, by item key
    }
    scene_->setFocusKeys(focus);
}

void GraphView::setFocusSet(const QSet<QString>& ids) {
    focus_ = ids;
    applyHighlights();
}

void GraphView::setNodeOverlay(const QHash<QString, QColor>& colorById) {
    overlay_ = colorById;
    applyHighlights();
}

bool GraphView::exportImage(const QString& path, ExportArea area, QString* error) {
    const QRectF source = area == ExportArea::WholeGraph
                              ? scene_->itemsBoundingRect().adjusted(-10, -10, 10, 10)
                              : mapToScene(viewport()->rect()).boundingRect();
    return exportScene(*scene_, source, path, error);
}

void GraphView::showStart() {
    fitGraph();
    if (transform().m11() >= kReadableScale)
        return; // the whole graph is readable as it is
    // Too small to read when fitted: labels at their size, from the first
    // graph input (the top of the graph), else the top of the bounds.
    setTransform(QTransform());
    const QRectF bounds = scene_->itemsBoundingRect();
    QPointF start(bounds.center().x(), bounds.top());
    for (const GraphNode& n : graph_->nodes)
        if (n.id.startsWith(QStringLiteral("input:")))
            if (NodeItem* item = scene_->nodeItem(n.id)) {
                start = item->rect().center();
                break;
            }
    // The start sits near the top of the viewport (1 pixel = 1 scene unit at
    // this scale), the graph flowing down below it.
    centerOn(start + QPointF(0, viewport()->height() / 2.0 - 60));
    Q_EMIT viewportMoved();
}

void GraphView::fitGraph() {
    const QRectF bounds = scene_->itemsBoundingRect().adjusted(-20, -20, 20, 20);
    if (bounds.isEmpty())
        return;
    fitInView(bounds, Qt::KeepAspectRatio);
    if (transform().m11() > 1.0)
        setTransform(QTransform()); // never magnify a small graph
    centerOn(bounds.center());
    Q_EMIT viewportMoved();
}

void GraphView::zoomBy(double factor) {
    const double current = transform().m11();
    const double next = std::clamp(current * factor, 0.01, 8.0);
    scale(next / current, next / current);
    Q_EMIT viewportMoved();
}

void GraphView::zoomIn() {
    zoomBy(1.25);
}
void GraphView::zoomOut() {
    zoomBy(1 / 1.25);
}

void GraphView::wheelEvent(QWheelEvent* event) {
    zoomBy(std::pow(1.15, event->angleDelta().y() / 120.0));
    event->accept();
}

void GraphView::keyPressEvent(QKeyEvent* event) {
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    if (ctrl && (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal))
        zoomIn();
    else if (ctrl && event->key() == Qt::Key_Minus)
        zoomOut();
    else if (ctrl && event->key() == Qt::Key_0)
        fitGraph();
    else if (event->key() == Qt::Key_F3)
        (event->modifiers() & Qt::ShiftModifier) ? previousMatch() : nextMatch();
    else
        QGraphicsView::keyPressEvent(event);
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    placeMinimap();
    Q_EMIT viewportMoved();
}

void GraphView::setMinimapShown(bool shown) {
    minimapWanted_ = shown;
    placeMinimap();
}

// The overview takes at most a fifth of the view's side and never covers the
// selected node: bottom right, else top right, else hidden; a view too small
// for both has none.
void GraphView::placeMinimap() {
    const QRect area = viewport()->geometry();
    const int w = std::min(180, area.width() / 5), h = std::min(130, area.height() / 5);
    if (!minimapWanted_ || w < 60 || h < 45 || graph_->nodes.isEmpty()) {
        minimap_->hide();
        return;
    }
    minimap_->setFixedSize(w, h);
    QRect selected;
    for (QGraphicsItem* item : scene_->selectedItems())
        selected |=
            mapFromScene(item->sceneBoundingRect()).boundingRect().translated(area.topLeft());
    for (const QPoint corner : {QPoint(area.right() - w - 8, area.bottom() - h - 8),
                                QPoint(area.right() - w - 8, area.top() + 8)}) {
        if (!QRect(corner, QSize(w, h)).intersects(selected)) {
            minimap_->move(corner);
            minimap_->show();
            return;
        }
    }
    minimap_->hide();
}

void GraphView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    Q_EMIT viewportMoved();
}

QString GraphView::itemKeyAt(const QPoint& viewportPos) const {
    for (QGraphicsItem* item : items(viewportPos))
        if (auto* node = dynamic_cast<NodeItem*>(item))
            return node->key();
    return {};
}

QString GraphView::toolTipAt(const QPoint& viewportPos) const {
    const QString key = itemKeyAt(viewportPos);
    if (key.isEmpty())
        return {};
    if (const int i = graph_->indexById().value(key, -1); i >= 0)
        return nodeToolTip(graph_->nodes[i]);
    for (const NodeGeometry& n : geometry_.nodes)
        if (n.key == key && !n.clusterId.isEmpty())
            return tr("module %1: %2\nDouble-click to open it").arg(n.clusterId, n.subtitle);
    return {}; // the ghost of a removed node: its pass step says what it was
}

QMenu* GraphView::contextMenuFor(const QString& key, QWidget* parent) {
    if (NodeItem* item = scene_->nodeItem(key); item && item->isCluster()) {
        auto* menu = new QMenu(parent);
        const QString cluster = item->clusterId();
        menu->addAction(tr("Open module %1").arg(cluster), this,
                        [this, cluster] { setClusterCollapsed(cluster, false); })
            ->setObjectName(QStringLiteral("openModule"));
        return menu;
    }
    const int i = graph_->indexById().value(key, -1);
    if (i < 0)
        return nullptr;
    const GraphNode& node = graph_->nodes[i];
    auto* menu = new QMenu(parent);
    const QString info = nodeInfoText(node), source = nodeSourceLine(node);
    menu->addAction(tr("Copy node info"), this,
                    [info] { QGuiApplication::clipboard()->setText(info); })
        ->setObjectName(QStringLiteral("copyNodeInfo"));
    QAction* copySource = menu->addAction(
        tr("Copy source line"), this, [source] { QGuiApplication::clipboard()->setText(source); });
    copySource->setObjectName(QStringLiteral("copySourceLine"));
    copySource->setEnabled(!source.isEmpty());
    if (source.isEmpty())
        copySource->setToolTip(tr("The model recorded no source line for this node"));
    const QString id = node.id;
    menu->addAction(tr("Show in the other views"), this,
                    [this, id] {
                        selectNode(id);
                        Q_EMIT showInOtherViewsRequested(id);
                    })
        ->setObjectName(QStringLiteral("showInOtherViews"));
    return menu;
}

bool GraphView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    return QGraphicsView::viewportEvent(event);
}

void GraphView::contextMenuEvent(QContextMenuEvent* event) {
    // A scroll area's context menu event is in viewport coordinates.
    std::unique_ptr<QMenu> menu(contextMenuFor(itemKeyAt(event->pos()), this));
    if (!menu) {
        QGraphicsView::contextMenuEvent(event);
        return;
    }
    menu->exec(event->globalPos());
    event->accept();
}

void GraphView::changeEvent(QEvent* event) {
    QGraphicsView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        scene_->setColors(graphColors(palette()));
        minimap_->invalidate();
    }
}

} // namespace t2n::ui
