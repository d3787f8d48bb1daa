#pragma once
// The colours a graph canvas is drawn in, for a light or a dark palette (the
// palette's base colour decides, as for the code views). Op-family fills and
// value overlays are chosen as light pastels; on a dark canvas they keep
// their hue and turn dark, so that the palette's light text reads on them.
// Exported images are documents: they are drawn in the light colours.
#include "graph/graph_geometry.h"

#include <QColor>
#include <QPalette>

namespace t2n::ui {

struct GraphColors {
    bool dark = false;
    QColor background, text, subtitle, outline, edge, edgeLabel;
    QColor frameBorder, frameTitle, selection, badge;

    /// Fill of a module frame nested `depth` deep (deeper: more contrast).
    QColor frameFill(int depth) const;
    /// A fill chosen for a light canvas (op family, value overlay), for this one.
    QColor nodeFill(const QColor& lightFill) const;
    /// Outline of an added, removed or modified node or edge; `edge` for none.
    QColor mark(DiffMark mark) const;
};

GraphColors graphColors(const QPalette& palette);
/// The colours of exported images, whatever the screen's palette.
GraphColors lightGraphColors();

/// Added green, removed red, modified amber (brighter on a dark background):
/// the graph's marks, also the legend's and the change table's colours.
QColor diffMarkColor(DiffMark mark, bool dark = false);

} // namespace t2n::ui
