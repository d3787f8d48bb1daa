#include "studio/screenshot_tour.h"

#include "graph/graph_view.h"
#include "session/session_controller.h"
#include "studio/main_window.h"
#include "studio/pass_stepper.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QTabWidget>

namespace t2n::ui {

namespace {
/// Processes events until `done` or the timeout; false on timeout.
template <typename Done> bool waitFor(Done&& done, int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    // One more round so that the last layout and repaints land.
    QCoreApplication::processEvents();
    return true;
}
} // namespace

ScreenshotResult runScreenshotTour(MainWindow& w, const QString& dir, const QString& model,
                                   const std::vector<InputSpec>& inputs) {
    ScreenshotResult result;
    QDir().mkpath(dir);
    w.resize(1600, 1000);
    w.show();
    auto shoot = [&](const QString& name) {
        QCoreApplication::processEvents();
        const QString path = QDir(dir).filePath(name);
        if (w.grab().save(path))
            result.written << path;
        else
            result.error = QStringLiteral("could not write %1").arg(path);
    };
    bool failed = false;
    QObject::connect(w.controller(), &SessionController::jobFailed, &w,
                     [&](SessionController::Job, const JobError& e) {
                         failed = true;
                         result.error = e.rendered;
                     });

    // A failed job is shown in the window (never in a modal dialog): the
    // tour writes that view out and stops, and the caller exits non-zero.
    auto stopWithError = [&](const QString& why) {
        if (result.error.isEmpty())
            result.error = why;
        w.tabs()->setCurrentIndex(MainWindow::ResultsTab);
        shoot(QStringLiteral("error.png"));
        return result;
    };

    w.openModel(model, inputs);
    if (!w.controller()->waitIdle(300000))
        return stopWithError(QStringLiteral("opening the model timed out"));
    if (failed)
        return stopWithError(QStringLiteral("the model could not be opened"));
    w.tabs()->setCurrentIndex(MainWindow::ModelTab);
    waitFor([&] { return !w.irGraph()->isLayoutPending(); }, 60000);
    w.irGraph()->fitGraph();
    shoot(QStringLiteral("01-model-side-by-side.png"));

    w.tabs()->setCurrentIndex(MainWindow::PassesTab);
    const int changing = w.passStepper()->firstChangingRow();
    w.passStepper()->showRow(changing >= 0 ? changing : 0);
    shoot(QStringLiteral("02-pass-diff.png"));

    w.tabs()->setCurrentIndex(MainWindow::ExportTab);
    shoot(QStringLiteral("03-export-form.png"));

    const QString out =
        QDir(dir).filePath(QFileInfo(model).completeBaseName() + QStringLiteral(".nnef.tgz"));
    w.exportTo(out);
    if (!w.controller()->waitIdle(600000))
        result.error = QStringLiteral("the export timed out");
    w.tabs()->setCurrentIndex(MainWindow::ResultsTab);
    shoot(QStringLiteral("04-validation-result.png"));
    const StatePtr state = w.controller()->state();
    if (result.error.isEmpty() && state && state->report.check.ran && !state->report.check.passed)
        result.error = QStringLiteral("the export's check failed: nothing was written");
    return result;
}

} // namespace t2n::ui
