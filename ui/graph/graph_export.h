#pragma once
// Writing a graph scene as PNG or SVG: the whole graph or a part of it.
#include <QRectF>
#include <QString>

class QGraphicsScene;

namespace t2n::ui {

/// Renders `source` (scene coordinates) of `scene` into `path`; the format
/// follows the suffix (.svg, else a raster format such as .png). A PNG is at
/// most `maxPixels` on its longer side. Returns false with `error` set.
bool exportScene(QGraphicsScene& scene, const QRectF& source, const QString& path,
                 QString* error = nullptr, int maxPixels = 8000);

} // namespace t2n::ui
