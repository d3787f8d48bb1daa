#include "graph/graph_colors.h"

#include "text/highlight_style.h"

namespace t2n::ui {

GraphColors lightGraphColors() {
    GraphColors c;
    c.background = Qt::white;
    c.text = Qt::black;
    c.subtitle = QColor(0x44, 0x44, 0x44);
    c.outline = QColor(0x55, 0x5f, 0x6b);
    c.edge = QColor(0x55, 0x5f, 0x6b);
    c.edgeLabel = QColor(0x5a, 0x5a, 0x5a);
    c.frameBorder = QColor(0x9a, 0xa5, 0xb1);
    c.frameTitle = QColor(0x33, 0x3d, 0x48);
    c.selection = QColor(0x1a, 0x73, 0xe8);
    c.badge = QColor(0x80, 0x4a, 0xc0);
    return c;
}

GraphColors graphColors(const QPalette& palette) {
    if (!isDarkPalette(palette))
        return lightGraphColors();
    GraphColors c;
    c.dark = true;
    c.background = palette.color(QPalette::Base);
    c.text = palette.color(QPalette::Text);
    c.subtitle = blend(c.text, c.background, 0.25);
    c.outline = QColor(0x8a, 0x95, 0xa3);
    c.edge = QColor(0x9a, 0xa4, 0xb0);
    c.edgeLabel = QColor(0xa8, 0xa8, 0xa8);
    c.frameBorder = QColor(0x5d, 0x68, 0x74);
    c.frameTitle = QColor(0xc8, 0xd0, 0xd8);
    c.selection = QColor(0x5a, 0xa0, 0xff);
    c.badge = QColor(0x9a, 0x6a, 0xd8);
    return c;
}

QColor GraphColors::frameFill(int depth) const {
    if (!dark) {
        const int shade = std::max(200, 248 - 8 * depth);
        return {shade, shade, std::min(255, shade + 6)};
    }
    return blend(background, QColor(0xa0, 0xb0, 0xc8), std::min(0.25, 0.06 + 0.04 * depth));
}

QColor GraphColors::nodeFill(const QColor& lightFill) const {
    if (!dark || !lightFill.isValid())
        return lightFill;
    // Same hue, muted and dark; a lighter pastel gives a darker fill, so
    // that families told apart by lightness stay apart.
    const float light = lightFill.lightnessF();
    return QColor::fromHslF(lightFill.hslHueF(), std::min(0.45f, lightFill.hslSaturationF() * 0.6f),
                            std::clamp(1.12f - light, 0.16f, 0.40f));
}

QColor GraphColors::mark(DiffMark m) const {
    return m == DiffMark::None ? edge : diffMarkColor(m, dark);
}

QColor diffMarkColor(DiffMark mark, bool dark) {
    switch (mark) {
    case DiffMark::Added:
        return dark ? QColor(0x4c, 0xc4, 0x6a) : QColor(0x2e, 0x9d, 0x4a);
    case DiffMark::Removed:
        return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xd0, 0x30, 0x30);
    case DiffMark::Modified:
        return dark ? QColor(0xff, 0xb0, 0x20) : QColor(0xe0, 0x9a, 0x00);
    case DiffMark::None:
        break;
    }
    return dark ? QColor(0x9a, 0xa4, 0xb0) : QColor(0x55, 0x5f, 0x6b);
}

} // namespace t2n::ui
