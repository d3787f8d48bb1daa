#include "graph/graph_minimap.h"

#include "graph/graph_view.h"

#include <QMouseEvent>
#include <QPainter>

namespace t2n::ui {

GraphMinimap::GraphMinimap(GraphView* view) : QWidget(view), view_(view) {
    setFixedSize(180, 130);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
    connect(view, &GraphView::viewportMoved, this, qOverload<>(&QWidget::update));
}

void GraphMinimap::invalidate() {
    dirty_ = true;
    update();
}

QRectF GraphMinimap::target() const {
    const QRectF scene = view_->scene()->sceneRect();
    const QRectF area = QRectF(rect()).adjusted(3, 3, -3, -3);
    if (scene.isEmpty())
        return area;
    const double scale = std::min(area.width() / scene.width(), area.height() / scene.height());
    QRectF fitted(0, 0, scene.width() * scale, scene.height() * scale);
    fitted.moveCenter(area.center());
    return fitted;
}

QPointF GraphMinimap::toScene(QPointF p) const {
    const QRectF scene = view_->scene()->sceneRect();
    const QRectF t = target();
    return {scene.left() + (p.x() - t.left()) * scene.width() / t.width(),
            scene.top() + (p.y() - t.top()) * scene.height() / t.height()};
}

QRectF GraphMinimap::visibleRect() const {
    const QRectF scene = view_->scene()->sceneRect();
    const QRectF t = target();
    if (scene.isEmpty())
        return {};
    const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
    const double sx = t.width() / scene.width();
    const double sy = t.height() / scene.height();
    return QRectF(t.left() + (visible.left() - scene.left()) * sx,
                  t.top() + (visible.top() - scene.top()) * sy, visible.width() * sx,
                  visible.height() * sy)
        .intersected(t);
}

void GraphMinimap::paintEvent(QPaintEvent*) {
    if (dirty_ || overview_.size() != size()) {
        overview_ = QPixmap(size());
        overview_.fill(palette().color(QPalette::Base)); // dark themes too
        QPainter p(&overview_);
        view_->scene()->render(&p, target(), view_->scene()->sceneRect());
        dirty_ = false;
    }
    QPainter painter(this);
    painter.drawPixmap(0, 0, overview_);
    painter.setPen(QPen(QColor(0x80, 0x80, 0x80), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(rect().adjusted(0, 0, -1, -1));
    painter.setPen(QPen(QColor(0x1a, 0x73, 0xe8), 1.5));
    painter.setBrush(QColor(0x1a, 0x73, 0xe8, 40));
    painter.drawRect(visibleRect());
}

void GraphMinimap::moveViewTo(QPointF p) {
    view_->centerOn(toScene(p));
    update();
}

void GraphMinimap::mousePressEvent(QMouseEvent* event) {
    moveViewTo(event->position());
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton)
        moveViewTo(event->position());
}

void GraphMinimap::mouseReleaseEvent(QMouseEvent* event) {
    event->accept();
}

} // namespace t2n::ui
