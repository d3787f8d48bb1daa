#pragma once
// The QGraphicsItems of the graph view: op boxes, collapsed clusters, cluster
// frames and edges. They paint from their own data only; GraphScene keeps them.
#include "graph/graph_colors.h"

#include <QColor>
#include <QGraphicsItem>

namespace t2n::ui {

/// Fill colour of an op box by op family ("aten::conv2d" -> conv/pool blue...),
/// for a light canvas (GraphColors::nodeFill gives the dark one).
QColor opFamilyColor(const QString& kind);

/// An op box, or a collapsed cluster (double border, "N ops" line).
class NodeItem : public QGraphicsItem {
public:
    NodeItem(QString key, const QRectF& rect, QString title, QString subtitle, QColor fill);

    const QString& key() const { return key_; }
    bool isCluster() const { return !clusterId_.isEmpty(); }
    const QString& clusterId() const { return clusterId_; }
    void setClusterId(const QString& id) { clusterId_ = id; }
    void setRect(const QRectF& rect);
    const QRectF& rect() const { return rect_; }
    void setBadge(const QString& badge);
    void setMark(DiffMark mark);
    DiffMark mark() const { return mark_; }
    void setHighlight(const QColor& color); ///< invalid colour: none
    QColor highlight() const { return highlight_; }
    /// Fill that replaces the op-family colour (a value overlay); invalid: none.
    void setOverlay(const QColor& color);
    QColor fill() const { return overlay_.isValid() ? overlay_ : fill_; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString key_;
    QString clusterId_;
    QRectF rect_;
    QString title_;
    QString subtitle_;
    QString badge_;
    QColor fill_;
    QColor highlight_;
    QColor overlay_;
    DiffMark mark_ = DiffMark::None;
};

/// An expanded cluster: a frame with a title bar (double-click collapses it).
class FrameItem : public QGraphicsItem {
public:
    FrameItem(QString clusterId, const QRectF& rect, QString title, int depth);
    const QString& clusterId() const { return clusterId_; }
    QRectF boundingRect() const override { return rect_; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString clusterId_;
    QRectF rect_;
    QString title_;
    int depth_;
};

/// An edge: the spline, its arrow head and an optional label at its middle.
class EdgeItem : public QGraphicsItem {
public:
    EdgeItem(const QPainterPath& path, QPointF arrowBase, QPointF arrowTip, QString label);
    const QPainterPath& path() const { return path_; }
    void setMark(DiffMark mark);
    DiffMark mark() const { return mark_; }
    QRectF boundingRect() const override { return bounds_; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QPainterPath path_;
    QPolygonF arrow_;
    QString label_;
    QRectF bounds_;
    DiffMark mark_ = DiffMark::None;
};

} // namespace t2n::ui
