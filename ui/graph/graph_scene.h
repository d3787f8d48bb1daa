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
    NodeItem* nodeItem(const QString& key) const { return m_nodes.value(key); }
    const QHash<QString, NodeItem*>& nodeItems() const { return m_nodes; }
    int edgeCount() const { return int(m_edges.size()); }
    /// Outline colours by item key (a collapsed cluster takes the colour of what it hides).
    void setHighlights(const QHash<QString, QColor>& colorByKey);
    /// Fill colours by item key that replace the op-family colours (value overlays).
    void setOverlay(const QHash<QString, QColor>& colorByKey);
    /// Item keys drawn at full strength; every other node and edge is faded
    /// ("only what failed"). Empty: nothing faded.
    void setFocusKeys(const QSet<QString>& keys);

Q_SIGNALS:
    /// Double-click on a collapsed cluster (expand) or on a frame's title (collapse).
    void clusterToggleRequested(const QString& clusterId);

protected:
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void showEdges(const GraphGeometry& geometry);
    void applyFocus();

    QHash<QString, NodeItem*> m_nodes;
    QHash<QString, QPair<EdgeItem*, QPainterPath>> m_edges; ///< by "from\nto", with the source path
    QHash<QString, FrameItem*> m_frames;                    ///< by cluster id
    QHash<QString, QColor> m_highlights;
    QHash<QString, QColor> m_overlay;
    QSet<QString> m_focus;
};

} // namespace t2n::ui
