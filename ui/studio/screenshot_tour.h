// `t2n-studio --screenshot DIR MODEL|RECIPE|BUNDLE`: opens the export (the
// model prepared with the recipe's options; an existing output is checked
// again), walks the main views (model side by side, a pass diff, the export
// form, the result) and writes one PNG per view into DIR. A failed export is
// a state like any other: the views then show the reason and the nodes
// concerned, and the exit status says it failed. Works offscreen.
#pragma once

#include "t2n/recipe.h"

#include <QString>
#include <QStringList>

namespace t2n::ui {

class MainWindow;

struct ScreenshotResult {
    QStringList written; ///< PNG paths, in tour order
    QString error;       ///< why the export failed or the tour stopped early, if it did
    int exitCode = 0;    ///< t2n's exit code for the export (1: the check failed)
};

/// Runs the tour on `window` (shown at a fixed size); blocks with an event
/// loop until each view has its content. Without an output in `recipe`, the
/// export goes to DIR/MODEL.nnef.tgz.
ScreenshotResult runScreenshotTour(MainWindow& window, const QString& dir,
                                   const ExportRecipe& recipe);

} // namespace t2n::ui
