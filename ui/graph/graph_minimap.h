#pragma once
// A small overview of the whole graph in a corner of the view, with the part
// currently visible outlined; click or drag to move the view there.
#include <QPixmap>
#include <QWidget>

namespace t2n::ui {

class GraphView;

class GraphMinimap : public QWidget {
    Q_OBJECT
public:
    explicit GraphMinimap(GraphView* view);

    /// The scene changed: redraw the overview at the next paint.
    void invalidate();
    /// Where the view's visible part is, in minimap pixels.
    QRectF visibleRect() const;
    QPointF toScene(QPointF minimapPoint) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QRectF target() const; ///< where the scene is drawn, aspect kept
    void moveViewTo(QPointF minimapPoint);

    GraphView* view_;
    QPixmap overview_;
    bool dirty_ = true;
};

} // namespace t2n::ui
