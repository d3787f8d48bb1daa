#pragma once
// The QGraphicsItems of the graph view: op boxes, collapsed clusters, cluster
// frames and edges. They paint from their own data only; GraphScene keeps them.
#include "graph/graph_geometry.h"

#include <QColor>
#include <QGraphicsItem>

namespace t2n::ui {

/// Fill colour of an op box by op family ("aten::conv2d" -> conv/pool blue...).
QColor opFamilyColor(const QString& kind);
QColor diffMarkColor(DiffMark mark);

/// An op box, or a collapsed cluster (double border, "N ops" line).
class NodeItem : public QGraphicsItem {
public:
    NodeItem(QString key, const QRectF& rect, QString title, QString subtitle, QColor fill);

    const QString& key() const { return m_key; }
    bool isCluster() const { return !m_clusterId.isEmpty(); }
    const QString& clusterId() const { return m_clusterId; }
    void setClusterId(const QString& id) { m_clusterId = id; }
    void setRect(const QRectF& rect);
    const QRectF& rect() const { return m_rect; }
    void setBadge(const QString& badge);
    void setMark(DiffMark mark);
    DiffMark mark() const { return m_mark; }
    void setHighlight(const QColor& color); ///< invalid colour: none
    QColor highlight() const { return m_highlight; }
    /// Fill that replaces the op-family colour (a value overlay); invalid: none.
    void setOverlay(const QColor& color);
    QColor fill() const { return m_overlay.isValid() ? m_overlay : m_fill; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString m_key;
    QString m_clusterId;
    QRectF m_rect;
    QString m_title;
    QString m_subtitle;
    QString m_badge;
    QColor m_fill;
    QColor m_highlight;
    QColor m_overlay;
    DiffMark m_mark = DiffMark::None;
};

/// An expanded cluster: a frame with a title bar (double-click collapses it).
class FrameItem : public QGraphicsItem {
public:
    FrameItem(QString clusterId, const QRectF& rect, QString title, int depth);
    const QString& clusterId() const { return m_clusterId; }
    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString m_clusterId;
    QRectF m_rect;
    QString m_title;
    int m_depth;
};

/// An edge: the spline, its arrow head and an optional label at its middle.
class EdgeItem : public QGraphicsItem {
public:
    EdgeItem(const QPainterPath& path, QPointF arrowBase, QPointF arrowTip, QString label);
    const QPainterPath& path() const { return m_path; }
    void setMark(DiffMark mark);
    DiffMark mark() const { return m_mark; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QPainterPath m_path;
    QPolygonF m_arrow;
    QString m_label;
    QRectF m_bounds;
    DiffMark m_mark = DiffMark::None;
};

} // namespace t2n::ui
