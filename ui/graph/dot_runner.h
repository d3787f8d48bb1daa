#pragma once
// One Graphviz `dot` run over boxes of fixed size. Graphviz is not
// thread-safe: runs are serialised by a process-wide lock, and the studio
// calls this from its single layout thread only.
#include <QPair>
#include <QPointF>
#include <QSizeF>
#include <QVector>

namespace t2n::ui {

struct DotSpline {
    QVector<QPointF> points; ///< B-spline control points: p0, then (c1, c2, p) triples
    QPointF arrowTip;        ///< where the arrow head points (the head's box border)
};

/// Positions in a local frame: origin at the top-left of the bounding box, y down.
struct DotBlock {
    QVector<QPointF> centers;   ///< one per box
    QVector<DotSpline> splines; ///< one per edge
    QSizeF size;
};

/// Lays out boxes `sizes` (points) with the directed `edges` (box indices, no
/// self loops, no duplicates), ranks top to bottom.
DotBlock runDot(const QVector<QSizeF>& sizes, const QVector<QPair<int, int>>& edges);

} // namespace t2n::ui
