#pragma once
// The scene of one graph view: keeps one item per geometry item and updates
// them in place, so a pass step touches only what changed.
#include "graph/graph_items.h"

#include <QGraphicsScene>

namespace t2n::ui {

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);

    /// Shows `geometry`, reusing items whose key (and, for edges, path) is unchanged.
    void show(const GraphGeometry& geometry);
    NodeItem* nodeItem(const QString& key) const { return nodes_.value(key); }
    const QHash<QString, NodeItem*>& nodeItems() const { return nodes_; }
    int edgeCount() const { return int(edges_.size()); }
    /// Outline colours by item key (a collapsed cluster takes the colour of what it hides).
    void setHighlights(const QHash<QString, QColor>& colorByKey);
    /// Fill colours by item key that replace the op-family colours (value overlays).
    void setOverlay(const QHash<QString, QColor>& colorByKey);
    /// Item keys drawn at full strength; every other node and edge is faded
    /// ("only what failed"). Empty: nothing faded.
    void setFocusKeys(const QSet<QString>& keys);
    /// The canvas colours (the view's palette's, or light ones for an export).
    const GraphColors& colors() const { return colors_; }
    void setColors(const GraphColors& colors);

Q_SIGNALS:
    /// Double-click on a collapsed cluster (expand) or on a frame's title (collapse).
    void clusterToggleRequested(const QString& clusterId);

protected:
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
    void showEdges(const GraphGeometry& geometry);
    void applyFocus();

    QHash<QString, NodeItem*> nodes_;
    QHash<QString, QPair<EdgeItem*, QPainterPath>> edges_; ///< by "from\nto", with the source path
    QHash<QString, FrameItem*> frames_;                    ///< by cluster id
    QHash<QString, QColor> highlights_;
    QHash<QString, QColor> overlay_;
    QSet<QString> focus_;
    GraphColors colors_ = lightGraphColors();
};

} // namespace t2n::ui
