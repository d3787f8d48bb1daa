#pragma once
// The laid-out graph view: pan (drag), zoom (wheel, Ctrl +/-), fit, minimap,
// collapsible module clusters, search, synced selection, highlight sets, pass
// step diffs and PNG/SVG export; node tooltips and a node context menu; the
// canvas follows the palette (dark themes). Layout runs on the LayoutService thread; the
// view shows the previous geometry until the new one arrives.
#include "graph/graph_scene.h"
#include "graph/graph_search.h"
#include "graph/layout_service.h"

#include <QGraphicsView>

class QMenu;

namespace t2n::ui {

class GraphMinimap;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr, LayoutOptions options = {});
    ~GraphView() override;

    /// Shows `graph`, laid out with the default collapsed clusters (async:
    /// layoutFinished follows).
    void setGraph(const GraphData& graph);
    /// Steps from the graph shown (`previous`) to `next` without a layout:
    /// unchanged nodes keep their boxes, changes are marked. Synchronous.
    GraphDiff showStep(const GraphData& previous, const GraphData& next);
    /// Shows `graph` in `geometry` placed beforehand (StepLayouts), keeping
    /// the zoom, the scroll position and the selection. Synchronous.
    void showPlaced(std::shared_ptr<const GraphData> graph, std::shared_ptr<const ClusterTree> tree,
                    const GraphGeometry& geometry);
    /// Lays out the current graph again (e.g. to tidy up after many steps).
    void relayout();
    const LayoutOptions& options() const { return options_; }

    const GraphData& graph() const { return *graph_; }
    const GraphGeometry& geometry() const { return geometry_; }
    GraphScene* graphScene() const { return scene_; }
    GraphMinimap* minimap() const { return minimap_; }
    /// Whether the overview may be shown (it still hides where it would
    /// cover the selection or the view is too small for it).
    void setMinimapShown(bool shown);
    bool minimapShown() const { return minimapWanted_; }
    bool isLayoutPending() const { return ticket_ != shownTicket_; }

    QSet<QString> collapsedClusters() const { return collapsed_; }
    void setClusterCollapsed(const QString& clusterId, bool collapsed);
    /// Op boxes drawn (collapsed clusters and ghosts excluded).
    int visibleNodeCount() const;

    SearchResultModel* searchModel() const { return searchModel_; }
    /// Finds nodes, selects the first match; returns the number of matches.
    int search(const QString& text, SearchField field = SearchField::Any);
    int currentMatch() const { return matchCursor_; }

    /// A named set of node ids outlined in `color` (e.g. "diverging" red).
    void setHighlightSet(const QString& name, const QSet<QString>& ids, const QColor& color);
    void clearHighlightSet(const QString& name);
    /// Fill colours by node id that replace the op-family colours, e.g. each
    /// node coloured by its numeric error; empty clears. A collapsed cluster
    /// takes the colour of the last node it hides that has one.
    void setNodeOverlay(const QHash<QString, QColor>& colorById);
    /// Only these nodes (or drawn item keys: ghosts, collapsed clusters) at
    /// full strength, the rest faded (a filter such as "only what failed");
    /// empty shows everything.
    void setFocusSet(const QSet<QString>& ids);
    const QSet<QString>& focusSet() const { return focus_; }
    const QHash<QString, QColor>& nodeOverlay() const { return overlay_; }

    /// The tooltip of the node (or collapsed module) under a viewport point, or "".
    QString toolTipAt(const QPoint& viewportPos) const;
    /// The context menu of item `key` (a node: copy its info or source line,
    /// show it in the other views; a collapsed module: open it); null for
    /// anything else. The caller owns it.
    QMenu* contextMenuFor(const QString& key, QWidget* parent = nullptr);
    /// The drawn item key under a viewport point, or "".
    QString itemKeyAt(const QPoint& viewportPos) const;

    enum class ExportArea { WholeGraph, VisiblePart };
    bool exportImage(const QString& path, ExportArea area, QString* error = nullptr);

public Q_SLOTS:
    /// Selects, expands the clusters hiding it, and centres node `id` (no nodeSelected echo).
    void selectNode(const QString& id);
    /// The selected node's id, or "" (a collapsed cluster is not a node).
    QString selectedNode() const;
    /// Selects node `id` when it is drawn, without scrolling and without
    /// nodeSelected (a pinned node coming back in a later pass).
    void keepSelected(const QString& id);
    void nextMatch();
    void previousMatch();
    void fitGraph();
    void zoomIn();
    void zoomOut();
    void toggleCluster(const QString& clusterId);

Q_SIGNALS:
    void nodeSelected(const QString& id);
    void layoutFinished(qint64 elapsedMs);
    void viewportMoved();
    /// "Show in the other views" on node `id`: selected here already; the
    /// window selects it everywhere else (and brings those views forward).
    void showInOtherViewsRequested(const QString& id);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool viewportEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void requestLayout();
    void onLayout(quint64 ticket, const GraphGeometry& geometry, qint64 elapsedMs);
    void onSceneSelection();
    void applyHighlights();
    void zoomBy(double factor);
    /// The view of a newly laid-out graph: fitted when that is readable, else
    /// at 1:1 from the first graph input.
    void showStart();
    void centreOnNode(const QString& id);

    LayoutOptions options_;
    LayoutService* layout_;
    GraphScene* scene_;
    GraphMinimap* minimap_;
    SearchResultModel* searchModel_;
    std::shared_ptr<const GraphData> graph_;
    std::shared_ptr<const ClusterTree> tree_;
    QSet<QString> collapsed_;
    GraphGeometry geometry_;
    quint64 ticket_ = 0;
    quint64 shownTicket_ = 0;
    bool fitOnLayout_ = true;
    /// Below this scale node labels are too small to read.
    static constexpr double kReadableScale = 0.6;
    void placeMinimap();

    bool selecting_ = false;
    bool minimapWanted_ = true;
    QString pendingSelection_;
    QVector<int> matches_;
    int matchCursor_ = -1;
    QHash<QString, QPair<QSet<QString>, QColor>> highlightSets_;
    QHash<QString, QColor> overlay_;
    QSet<QString> focus_;
};

} // namespace t2n::ui
