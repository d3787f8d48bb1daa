#include "studio/screenshot_tour.h"

#include "graph/graph_view.h"
#include "session/frozen_sizes_model.h"
#include "session/node_change_model.h"
#include "session/pass_list_model.h"
#include "session/session_controller.h"
#include "studio/frozen_sizes_view.h"
#include "studio/main_window.h"
#include "studio/pass_scrubber.h"
#include "studio/pass_stepper.h"
#include "studio/results_panel.h"

#include "t2n/error.h"

#include <QApplication>
#include <QCheckBox>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>

#include <optional>

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

/// The pass scrubber mid-way: on the pass that modified the most nodes, with
/// its first modified node pinned (Properties tells its history); then the
/// same pass filtered to what changed, with that node's row in the table.
template <typename Shoot> void shootScrubber(MainWindow& w, Shoot&& shoot) {
    PassStepper* stepper = w.passStepper();
    w.tabs()->setCurrentIndex(MainWindow::PassesTab);
    if (auto* views = stepper->findChild<QTabWidget*>(QStringLiteral("passViews")))
        views->setCurrentIndex(0); // the graph under the scrubber
    int best = -1;
    qsizetype most = 0;
    for (int row = 1; row < stepper->model()->rowCount(); ++row) {
        if (stepper->model()->index(row, 0).data(PassListModel::IsNoOpRole).toBool())
            continue;
        stepper->showRow(row);
        if (stepper->lastGraphStep().modified.size() > most) {
            most = stepper->lastGraphStep().modified.size();
            best = row;
        }
    }
    if (best < 0)
        return;
    stepper->showRow(best);
    waitFor([&] { return stepper->layouts().baseRow() >= 0; }, 60000);
    stepper->showRow(best); // placed on the layout that just landed
    for (int r = 0; r < stepper->changeModel()->rowCount(); ++r) {
        const QModelIndex idx = stepper->changeModel()->index(r, 0);
        if (idx.data(NodeChangeModel::ChangeRole).toInt() == int(NodeChange::Modified)) {
            stepper->changeTable()->setCurrentIndex(idx); // pins it and shows it
            break;
        }
    }
    shoot(QStringLiteral("05-pass-scrubber.png"));
    stepper->scrubber()->onlyChanged()->setChecked(true);
    shoot(QStringLiteral("06-modified-node-diff.png"));
    stepper->scrubber()->onlyChanged()->setChecked(false);
}
/// Fusion's usual dark palette, as dark desktop themes give it.
QPalette fusionDarkPalette() {
    QPalette p;
    const QColor window(0x35, 0x35, 0x35), base(0x23, 0x23, 0x23), text(0xe8, 0xe8, 0xe8);
    const QColor accent(0x2a, 0x82, 0xda), muted(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, QColor(0x19, 0x19, 0x19));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, muted);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, accent);
    p.setColor(QPalette::Highlight, accent);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::Midlight, QColor(0x42, 0x42, 0x42));
    p.setColor(QPalette::Mid, QColor(0x2a, 0x2a, 0x2a));
    p.setColor(QPalette::Dark, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Shadow, Qt::black);
    for (auto role : {QPalette::Text, QPalette::ButtonText, QPalette::WindowText})
        p.setColor(QPalette::Disabled, role, muted);
    return p;
}

/// The model, the pass scrubber and the result in a dark theme (Fusion, a
/// dark palette), then the light theme back at 1024x700, the smallest window
/// the studio is made for.
template <typename Shoot> void shootThemesAndSizes(MainWindow& w, Shoot&& shoot) {
    const QString style = QApplication::style()->name();
    const QPalette palette = QApplication::palette();
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(fusionDarkPalette());
    w.tabs()->setCurrentIndex(MainWindow::ModelTab);
    shoot(QStringLiteral("07-dark-palette-model.png"));
    w.tabs()->setCurrentIndex(MainWindow::PassesTab);
    if (auto* views = w.passStepper()->findChild<QTabWidget*>(QStringLiteral("passViews")))
        views->setCurrentIndex(0);
    shoot(QStringLiteral("08-dark-palette-passes.png"));
    w.tabs()->setCurrentIndex(MainWindow::ResultsTab);
    shoot(QStringLiteral("09-dark-palette-results.png"));
    QApplication::setStyle(QStyleFactory::create(style));
    QApplication::setPalette(palette);
    w.resize(1024, 700);
    w.tabs()->setCurrentIndex(MainWindow::ModelTab);
    shoot(QStringLiteral("10-1024x700.png"));
}
} // namespace

ScreenshotResult runScreenshotTour(MainWindow& w, const QString& dir, const ExportRecipe& recipe) {
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
    std::optional<JobError> failure;
    QObject::connect(w.controller(), &SessionController::jobFailed, &w,
                     [&](SessionController::Job, const JobError& e) {
                         if (!failure)
                             failure = e;
                     });
    auto checkFailed = [&] {
        const CheckReport& c = w.controller()->state()->report.check;
        return c.ran && !c.passed;
    };
    auto shootModel = [&](bool failed) {
        w.tabs()->setCurrentIndex(MainWindow::ModelTab);
        waitFor(
            [&] {
                return !w.irGraph()->isLayoutPending() && !w.torchScriptGraph()->isLayoutPending();
            },
            60000);
        // The graphs as a user sees them on open (readable, from the first
        // input); after a failure the first failed node is centred and the
        // failed nodes stand out.
        if (failed)
            w.setOnlyFailedShown(true);
        shoot(QStringLiteral("01-model-side-by-side.png"));
    };
    auto shootPassesAndForm = [&] {
        w.tabs()->setCurrentIndex(MainWindow::PassesTab);
        const int changing = w.passStepper()->firstChangingRow();
        w.passStepper()->showRow(changing >= 0 ? changing : 0);
        if (auto* views = w.passStepper()->findChild<QTabWidget*>(QStringLiteral("passViews")))
            views->setCurrentIndex(1); // the text diff
        shoot(QStringLiteral("02-pass-diff.png"));
        shootScrubber(w, shoot);
        w.tabs()->setCurrentIndex(MainWindow::ExportTab);
        shoot(QStringLiteral("03-export-form.png"));
    };

    // Open: load, prepare with the recipe's options, and check its output
    // again when it exists (the tour, asked for on the command line, does
    // what a user would: opening alone checks nothing). A failure there (not
    // TorchScript, unsupported operators, a model that fails on its inputs,
    // a failed check) ends the story: its views are the tour.
    w.openRecipe(recipe);
    if (!w.controller()->waitIdle(600000)) {
        result.error = QStringLiteral("opening the model timed out");
        result.exitCode = 1;
        return result;
    }
    if (!failure && !w.offeredCheck().isEmpty()) {
        w.checkArchive(w.offeredCheck());
        if (!w.controller()->waitIdle(600000)) {
            result.error = QStringLiteral("checking the archive timed out");
            result.exitCode = 1;
            return result;
        }
    }
    const bool opened = !failure && !w.controller()->state()->report.check.ran;
    if (opened) {
        shootModel(false);
        shootPassesAndForm();
        QString out = QString::fromStdString(recipe.output.string());
        if (out.isEmpty())
            out = QDir(dir).filePath(
                QFileInfo(QString::fromStdString(recipe.model.string())).completeBaseName() +
                QStringLiteral(".nnef.tgz"));
        w.exportTo(out);
        if (!w.controller()->waitIdle(600000))
            result.error = QStringLiteral("the export timed out");
    }
    const bool failed = failure || checkFailed();
    if (!opened || failed)
        shootModel(failed);
    if (!opened)
        shootPassesAndForm();
    w.tabs()->setCurrentIndex(MainWindow::ResultsTab);
    shoot(QStringLiteral("04-validation-result.png"));
    // A dynamic axis that failed: the table of values whose sizes froze, its
    // first row picked, then that value's node as the click shows it.
    FrozenSizesView* frozen = w.results()->frozenSizes();
    if (frozen->model()->rowCount() > 0) {
        const QModelIndex first = frozen->model()->index(0, 0);
        frozen->table()->selectRow(0);
        shoot(QStringLiteral("11-frozen-sizes.png"));
        Q_EMIT frozen->table()->clicked(first);
        w.tabs()->setCurrentIndex(MainWindow::ModelTab);
        waitFor([&] { return !w.irGraph()->isLayoutPending(); }, 60000);
        shoot(QStringLiteral("12-frozen-size-node.png"));
    }
    shootThemesAndSizes(w, shoot);

    if (failure) {
        result.error = failure->rendered;
        result.exitCode = failure->code > 0 ? failure->code : 1;
    } else if (checkFailed()) {
        result.error = w.results()->verdictHeadline();
        result.exitCode = 1;
    } else if (!result.error.isEmpty() || result.written.size() < 4) {
        result.exitCode = 1;
    }
    return result;
}

} // namespace t2n::ui
