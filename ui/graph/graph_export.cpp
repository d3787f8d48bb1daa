#include "graph/graph_export.h"

#include "graph/graph_scene.h"

#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace t2n::ui {

bool exportScene(QGraphicsScene& scene, const QRectF& source, const QString& path, QString* error,
                 int maxPixels) {
    auto fail = [&](const QString& why) {
        if (error)
            *error = QStringLiteral("export %1: %2").arg(path, why);
        return false;
    };
    if (source.isEmpty())
        return fail(QStringLiteral("nothing to draw (empty area)"));
    // An image is a document (a bug report, a slide): light whatever the
    // screen's palette; the canvas gets its own colours back afterwards.
    auto* graphScene = qobject_cast<GraphScene*>(&scene);
    const GraphColors shown = graphScene ? graphScene->colors() : GraphColors{};
    if (graphScene)
        graphScene->setColors(lightGraphColors());
    struct Restore {
        GraphScene* scene;
        GraphColors colors;
        ~Restore() {
            if (scene)
                scene->setColors(colors);
        }
    } restore{graphScene, shown};
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(source.size().toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
        svg.setTitle(QStringLiteral("t2n graph"));
        QPainter painter;
        if (!painter.begin(&svg))
            return fail(QStringLiteral("cannot write the SVG file"));
        scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
        painter.end();
        return QFileInfo(path).size() > 0 || fail(QStringLiteral("the SVG file is empty"));
    }
    const double scale = std::min(2.0, maxPixels / std::max(source.width(), source.height()));
    QImage image((source.size() * scale).toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(image.rect()), source);
    painter.end();
    if (!image.save(path))
        return fail(
            QStringLiteral("cannot write the image (unknown format or unwritable folder?)"));
    return true;
}

} // namespace t2n::ui
