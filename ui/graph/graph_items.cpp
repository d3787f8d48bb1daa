#include "graph/graph_items.h"

#include "graph/graph_layout.h"
#include "graph/graph_scene.h"

#include <QLineF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <utility>

namespace t2n::ui {

namespace {

bool startsWithAny(const QString& kind, std::initializer_list<const char*> prefixes) {
    for (const char* p : prefixes)
        if (kind.startsWith(QLatin1String(p)))
            return true;
    return false;
}

// Below this zoom, text is unreadable: draw boxes only (and draw fast).
constexpr double textLod = 0.35;

/// The canvas colours of the item's scene (light outside a GraphScene).
const GraphColors& canvasColors(const QGraphicsItem* item) {
    static const GraphColors light = lightGraphColors();
    const auto* scene = qobject_cast<const GraphScene*>(item->scene());
    return scene ? scene->colors() : light;
}

} // namespace

QColor opFamilyColor(const QString& kind) {
    const QString k = shortKind(kind).toLower();
    if (kind.startsWith(QLatin1String("prim::")) || k == QLatin1String("constant"))
        return {0xf2, 0xf2, 0xf2};
    if (startsWithAny(k, {"conv", "max_pool", "avg_pool", "adaptive_", "pool"}))
        return {0xcf, 0xe2, 0xf3};
    if (k.contains(QLatin1String("norm")))
        return {0xd9, 0xd2, 0xe9};
    if (startsWithAny(k, {"relu", "gelu", "sigmoid", "tanh", "softmax", "log_softmax", "silu",
                          "hardtanh", "elu", "leaky", "selu", "mish", "hardswish"}))
        return {0xfc, 0xe5, 0xcd};
    // Teal, not the pink-red it once was: red on a graph means a failure.
    if (startsWithAny(k, {"matmul", "linear", "mm", "bmm", "addmm", "einsum", "baddbmm"}))
        return {0xc9, 0xe8, 0xe4};
    if (startsWithAny(k, {"add", "sub", "mul", "div", "pow", "neg", "exp", "log", "sqrt", "rsqrt",
                          "abs", "clamp", "where"}))
        return {0xd9, 0xea, 0xd3};
    if (startsWithAny(k, {"mean", "sum", "max", "min", "amax", "amin", "prod", "argmax", "argmin"}))
        return {0xff, 0xf2, 0xcc};
    if (startsWithAny(k, {"view",   "reshape",    "flatten", "permute", "transpose", "cat",
                          "stack",  "slice",      "select",  "size",    "squeeze",   "unsqueeze",
                          "expand", "contiguous", "index",   "chunk",   "split",     "t",
                          "repeat", "narrow",     "pad"}))
        return {0xe8, 0xe8, 0xe8};
    return {0xe3, 0xee, 0xf9};
}

NodeItem::NodeItem(QString key, const QRectF& rect, QString title, QString subtitle, QColor fill)
    : key_(std::move(key)), rect_(rect), title_(std::move(title)), subtitle_(std::move(subtitle)),
      fill_(fill) {
    setFlag(ItemIsSelectable);
    setZValue(2);
}

void NodeItem::setRect(const QRectF& rect) {
    if (rect == rect_)
        return;
    prepareGeometryChange();
    rect_ = rect;
}

void NodeItem::setBadge(const QString& badge) {
    if (badge == badge_)
        return;
    badge_ = badge;
    update();
}

void NodeItem::setMark(DiffMark mark) {
    if (mark == mark_)
        return;
    mark_ = mark;
    setOpacity(mark == DiffMark::Removed ? 0.45 : 1.0);
    update();
}

void NodeItem::setHighlight(const QColor& color) {
    if (color == highlight_)
        return;
    highlight_ = color;
    update();
}

void NodeItem::setOverlay(const QColor& color) {
    if (color == overlay_)
        return;
    overlay_ = color;
    update();
}

QRectF NodeItem::boundingRect() const {
    return rect_.adjusted(-6, -10, 6, 6);
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const GraphColors& colors = canvasColors(this);
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool marked = mark_ != DiffMark::None;
    QPen pen(marked ? colors.mark(mark_) : colors.outline, marked ? 2.5 : 1.0);
    if (mark_ == DiffMark::Removed)
        pen.setStyle(Qt::DashLine);
    if (isSelected())
        pen = QPen(colors.selection, 3);
    // A selected node's own outline is the selection's; its highlight or,
    // failing that, its diff mark goes around it (a pinned node stays
    // selected from pass to pass and still shows what each pass did to it).
    const QColor ring = highlight_.isValid()     ? highlight_
                        : marked && isSelected() ? colors.mark(mark_)
                                                 : QColor();
    if (ring.isValid()) {
        painter->setPen(QPen(ring, 4));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(rect_.adjusted(-4, -4, 4, 4), 8, 8);
    }
    painter->setPen(pen);
    const QColor body = colors.nodeFill(fill());
    painter->setBrush(mark_ == DiffMark::Added ? body.lighter(104) : body);
    if (lod < textLod) { // a few pixels wide: plain boxes are indistinguishable and much cheaper
        const bool smooth = painter->testRenderHint(QPainter::Antialiasing);
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->drawRect(rect_);
        painter->setRenderHint(QPainter::Antialiasing, smooth);
        return;
    }
    painter->drawRoundedRect(rect_, 6, 6);
    if (isCluster())
        painter->drawRoundedRect(rect_.adjusted(3, 3, -3, -3), 4, 4);
    painter->setPen(colors.text);
    QFont font = painter->font();
    font.setPointSizeF(8.5);
    font.setBold(true);
    painter->setFont(font);
    const QRectF top = subtitle_.isEmpty() ? rect_.adjusted(4, 3, -4, -3)
                                           : QRectF(rect_.left() + 4, rect_.top() + 3,
                                                    rect_.width() - 8, rect_.height() / 2 - 2);
    painter->drawText(top, Qt::AlignCenter, title_);
    font.setBold(false);
    font.setPointSizeF(7.5);
    painter->setFont(font);
    painter->setPen(colors.subtitle);
    const QRectF bottom(rect_.left() + 4, rect_.center().y(), rect_.width() - 8,
                        rect_.height() / 2 - 3);
    painter->drawText(bottom, Qt::AlignCenter, subtitle_);
    if (!badge_.isEmpty()) {
        const QRectF badge(rect_.right() - 46, rect_.top() - 9, 50, 14);
        painter->setPen(Qt::NoPen);
        const QColor back = marked ? colors.mark(mark_) : colors.badge;
        painter->setBrush(back);
        painter->drawRoundedRect(badge, 7, 7);
        painter->setPen(back.lightness() > 150 ? QColor(Qt::black) : QColor(Qt::white));
        painter->drawText(badge, Qt::AlignCenter, badge_);
    }
}

FrameItem::FrameItem(QString clusterId, const QRectF& rect, QString title, int depth)
    : clusterId_(std::move(clusterId)), rect_(rect), title_(std::move(title)), depth_(depth) {
    setZValue(0);
}

void FrameItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const GraphColors& colors = canvasColors(this);
    painter->setPen(QPen(colors.frameBorder, 1, Qt::SolidLine));
    painter->setBrush(colors.frameFill(depth_));
    painter->drawRoundedRect(rect_, 8, 8);
    if (option->levelOfDetailFromTransform(painter->worldTransform()) < textLod)
        return;
    QFont font = painter->font();
    font.setPointSizeF(8);
    painter->setFont(font);
    painter->setPen(colors.frameTitle);
    painter->drawText(rect_.adjusted(8, 2, -8, 0), Qt::AlignLeft | Qt::AlignTop,
                      QStringLiteral("\u25be ") + title_);
}

EdgeItem::EdgeItem(const QPainterPath& path, QPointF arrowBase, QPointF arrowTip, QString label)
    : path_(path), label_(std::move(label)) {
    const QLineF axis(arrowTip, arrowBase);
    if (axis.length() > 0.1) {
        QLineF side = axis.unitVector();
        side.setLength(8);
        const QPointF back = side.p2();
        const QPointF normal = QPointF(-(back.y() - arrowTip.y()), back.x() - arrowTip.x()) * 0.45;
        arrow_ << arrowTip << back + normal << back - normal;
    }
    path_.lineTo(arrowTip);
    bounds_ = path_.boundingRect().united(arrow_.boundingRect()).adjusted(-4, -4, 60, 4);
    setZValue(1);
}

void EdgeItem::setMark(DiffMark mark) {
    if (mark == mark_)
        return;
    mark_ = mark;
    update();
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const GraphColors& colors = canvasColors(this);
    const QColor color = colors.mark(mark_);
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool smooth = painter->testRenderHint(QPainter::Antialiasing);
    if (lod < textLod)
        painter->setRenderHint(QPainter::Antialiasing, false);
    QPen pen(color, mark_ == DiffMark::None ? 1.0 : 2.2);
    if (mark_ == DiffMark::Removed)
        pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path_);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawPolygon(arrow_);
    painter->setRenderHint(QPainter::Antialiasing, smooth);
    if (label_.isEmpty() || lod < 0.6)
        return;
    QFont font = painter->font();
    font.setPointSizeF(7);
    painter->setFont(font);
    painter->setPen(colors.edgeLabel);
    painter->drawText(path_.pointAtPercent(0.5) + QPointF(4, 3), label_);
}

} // namespace t2n::ui
