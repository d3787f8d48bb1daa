#include "graph/graph_view.h"

#include "graph/graph_export.h"
#include "graph/graph_minimap.h"
#include "graph/step_placement.h"
#include "graph/visible_edges.h"

#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>

namespace t2n::ui {

GraphView::GraphView(QWidget* parent, LayoutOptions options)
    : QGraphicsView(parent), m_options(options), m_layout(new LayoutService(this)),
      m_scene(new GraphScene(this)), m_searchModel(new SearchResultModel(this)),
      m_graph(std::make_shared<GraphData>()), m_tree(std::make_shared<ClusterTree>()) {
    setScene(m_scene);
    m_minimap = new GraphMinimap(this);
    setDragMode(ScrollHandDrag);
    setTransformationAnchor(AnchorUnderMouse);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setViewportUpdateMode(SmartViewportUpdate);
    setFocusPolicy(Qt::StrongFocus);
    connect(m_layout, &LayoutService::finished, this, &GraphView::onLayout);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &GraphView::onSceneSelection);
    connect(m_scene, &GraphScene::clusterToggleRequested, this, &GraphView::toggleCluster);
}

GraphView::~GraphView() = default;

void GraphView::setGraph(const GraphData& graph) {
    m_graph = std::make_shared<const GraphData>(graph);
    m_tree = std::make_shared<const ClusterTree>(ClusterTree::build(graph, m_options.splitAbove));
    m_collapsed = m_tree->defaultCollapsed(m_options.collapseAbove);
    m_matches.clear();
    m_matchCursor = -1;
    m_searchModel->clear();
    m_fitOnLayout = true;
    requestLayout();
}

void GraphView::relayout() {
    requestLayout();
}

void GraphView::requestLayout() {
    m_ticket = m_layout->request({m_graph, m_tree, m_collapsed});
}

void GraphView::onLayout(quint64 ticket, const GraphGeometry& geometry, qint64 elapsedMs) {
    if (ticket != m_ticket)
        return; // superseded by a newer request or a pass step
    m_shownTicket = ticket;
    m_geometry = geometry;
    m_scene->show(m_geometry);
    applyHighlights();
    if (m_fitOnLayout) {
        showStart();
        m_fitOnLayout = false;
    }
    m_minimap->invalidate();
    if (!m_pendingSelection.isEmpty())
        centreOnNode(std::exchange(m_pendingSelection, QString()));
    Q_EMIT layoutFinished(elapsedMs);
}

GraphDiff GraphView::showStep(const GraphData& previous, const GraphData& next) {
    const GraphDiff diff = diffGraphs(previous, next);
    if (m_geometry.nodes.isEmpty() || isLayoutPending()) {
        setGraph(next); // nothing laid out to keep stable yet
        return diff;
    }
    auto tree = std::make_shared<const ClusterTree>(ClusterTree::build(next, m_options.splitAbove));
    m_geometry = placeStep(m_geometry, previous, next, *tree, m_collapsed, diff);
    m_graph = std::make_shared<const GraphData>(next);
    m_tree = std::move(tree);
    m_scene->show(m_geometry);
    applyHighlights();
    m_minimap->invalidate();
    return diff;
}

void GraphView::setClusterCollapsed(const QString& clusterId, bool collapsed) {
    if (!m_tree->contains(clusterId) || clusterId.isEmpty() ||
        m_collapsed.contains(clusterId) == collapsed)
        return;
    if (collapsed)
        m_collapsed.insert(clusterId);
    else
        m_collapsed.remove(clusterId);
    requestLayout();
}

void GraphView::toggleCluster(const QString& clusterId) {
    setClusterCollapsed(clusterId, !m_collapsed.contains(clusterId));
}

int GraphView::visibleNodeCount() const {
    int count = 0;
    for (const NodeGeometry& n : m_geometry.nodes)
        count += n.clusterId.isEmpty() && n.mark != DiffMark::Removed;
    return count;
}

void GraphView::selectNode(const QString& id) {
    const int index = m_graph->indexById().value(id, -1);
    if (index < 0)
        return;
    bool expanded = false;
    for (const QString& cluster : m_tree->chain(m_tree->clusterOfNode(index)))
        expanded = m_collapsed.remove(cluster) || expanded;
    if (expanded || isLayoutPending()) {
        m_pendingSelection = id;
        if (expanded)
            requestLayout();
        return;
    }
    centreOnNode(id);
}

void GraphView::centreOnNode(const QString& id) {
    NodeItem* item = m_scene->nodeItem(id);
    if (!item)
        return;
    m_selecting = true;
    m_scene->clearSelection();
    item->setSelected(true);
    m_selecting = false;
    if (transform().m11() < kReadableScale)
        setTransform(QTransform()); // readable size before centring
    centerOn(item->rect().center());
    Q_EMIT viewportMoved();
}

void GraphView::onSceneSelection() {
    if (m_selecting)
        return;
    for (QGraphicsItem* item : m_scene->selectedItems())
        if (auto* node = dynamic_cast<NodeItem*>(item); node && !node->isCluster()) {
            Q_EMIT nodeSelected(node->key());
            return;
        }
}

int GraphView::search(const QString& text, SearchField field) {
    m_matches = findNodes(*m_graph, text, field);
    m_searchModel->setResults(m_graph, m_matches);
    m_matchCursor = m_matches.isEmpty() ? -1 : 0;
    if (m_matchCursor >= 0)
        selectNode(m_graph->nodes[m_matches[0]].id);
    return int(m_matches.size());
}

void GraphView::nextMatch() {
    if (m_matches.isEmpty())
        return;
    m_matchCursor = (m_matchCursor + 1) % int(m_matches.size());
    selectNode(m_graph->nodes[m_matches[m_matchCursor]].id);
}

void GraphView::previousMatch() {
    if (m_matches.isEmpty())
        return;
    m_matchCursor = (m_matchCursor + int(m_matches.size()) - 1) % int(m_matches.size());
    selectNode(m_graph->nodes[m_matches[m_matchCursor]].id);
}

void GraphView::setHighlightSet(const QString& name, const QSet<QString>& ids,
                                const QColor& color) {
    m_highlightSets.insert(name, {ids, color});
    applyHighlights();
}

void GraphView::clearHighlightSet(const QString& name) {
    m_highlightSets.remove(name);
    applyHighlights();
}

void GraphView::applyHighlights() {
    QHash<QString, QColor> colors;
    if (!m_highlightSets.isEmpty()) {
        const QHash<QString, int> index = m_graph->indexById();
        for (const auto& [ids, color] : std::as_const(m_highlightSets))
            for (const QString& id : ids)
                if (const int i = index.value(id, -1); i >= 0)
                    colors.insert(visibleItem(*m_graph, *m_tree, m_collapsed, i), color);
    }
    m_scene->setHighlights(colors);
    QHash<QString, QColor> fills;
    if (!m_overlay.isEmpty()) {
        const QHash<QString, int> index = m_graph->indexById();
        for (auto it = m_overlay.begin(); it != m_overlay.end(); ++it)
            if (const int i = index.value(it.key(), -1); i >= 0)
                fills.insert(visibleItem(*m_graph, *m_tree, m_collapsed, i), it.value());
    }
    m_scene->setOverlay(fills);
    QSet<QString> focus;
    if (!m_focus.isEmpty()) {
        const QHash<QString, int> index = m_graph->indexById();
        for (const QString& id : std::as_const(m_focus))
            if (const int i = index.value(id, -1); i >= 0)
                focus.insert(visibleItem(*m_graph, *m_tree, m_collapsed, i));
    }
    m_scene->setFocusKeys(focus);
}

void GraphView::setFocusSet(const QSet<QString>& ids) {
    m_focus = ids;
    applyHighlights();
}

void GraphView::setNodeOverlay(const QHash<QString, QColor>& colorById) {
    m_overlay = colorById;
    applyHighlights();
}

bool GraphView::exportImage(const QString& path, ExportArea area, QString* error) {
    const QRectF source = area == ExportArea::WholeGraph
                              ? m_scene->itemsBoundingRect().adjusted(-10, -10, 10, 10)
                              : mapToScene(viewport()->rect()).boundingRect();
    return exportScene(*m_scene, source, path, error);
}

void GraphView::showStart() {
    fitGraph();
    if (transform().m11() >= kReadableScale)
        return; // the whole graph is readable as it is
    // Too small to read when fitted: labels at their size, from the first
    // graph input (the top of the graph), else the top of the bounds.
    setTransform(QTransform());
    const QRectF bounds = m_scene->itemsBoundingRect();
    QPointF start(bounds.center().x(), bounds.top());
    for (const GraphNode& n : m_graph->nodes)
        if (n.id.startsWith(QStringLiteral("input:")))
            if (NodeItem* item = m_scene->nodeItem(n.id)) {
                start = item->rect().center();
                break;
            }
    // The start sits near the top of the viewport (1 pixel = 1 scene unit at
    // this scale), the graph flowing down below it.
    centerOn(start + QPointF(0, viewport()->height() / 2.0 - 60));
    Q_EMIT viewportMoved();
}

void GraphView::fitGraph() {
    const QRectF bounds = m_scene->itemsBoundingRect().adjusted(-20, -20, 20, 20);
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
    const QRect area = viewport()->geometry();
    m_minimap->move(area.right() - m_minimap->width() - 8, area.bottom() - m_minimap->height() - 8);
    Q_EMIT viewportMoved();
}

void GraphView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    Q_EMIT viewportMoved();
}

} // namespace t2n::ui
