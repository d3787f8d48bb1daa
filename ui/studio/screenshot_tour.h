// `t2n-studio --screenshot DIR MODEL`: opens the model, walks the main views
// (model side by side, a pass diff, the export form, a validation result)
// and writes one PNG per view into DIR. Works offscreen, for review and CI.
#pragma once

#include "t2n/input_spec.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace t2n::ui {

class MainWindow;

struct ScreenshotResult {
    QStringList written; ///< PNG paths, in tour order (error.png when a job failed)
    QString error;       ///< why the tour failed, if it did: the run then exits non-zero
};

/// Runs the tour on `window` (shown at a fixed size); blocks with an event
/// loop until each view has its content.
ScreenshotResult runScreenshotTour(MainWindow& window, const QString& dir, const QString& model,
                                   const std::vector<InputSpec>& inputs);

} // namespace t2n::ui
