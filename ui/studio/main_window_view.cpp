// MainWindow's Edit and View menus and the conventions of a desktop program:
// Ctrl+Z / Ctrl+Shift+Z undo and redo the export form's edits; the View menu
// is made from the panes (their own actions, such as search and pass
// stepping, then Ctrl+1..9 per tab and a toggle per dock); Ctrl+(Shift+)Tab
// switch the tabs; a cancel says it is under way; a restored window fits its screen.
// Edit → Threads is the threading policy's explicit choice, kept across runs.
#include "studio/export_form.h"
#include "studio/main_window.h"
#include "studio/model_pane.h"
#include "studio/pane_host.h"

#include "t2n/runtime_info.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QMenuBar>
#include <QSettings>
#include <QTabWidget>
#include <QThread>
#include <QUndoStack>

#include <algorithm>

namespace t2n::ui {

void MainWindow::buildEditMenu() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    // The form is the one thing edited here: undoing shows it, so that the
    // change undone is in sight. A focused line edit undoes its own typing first.
    QAction* undo = form_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = form_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redoAction"));
    redo->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    for (QAction* a : {undo, redo}) {
        connect(a, &QAction::triggered, this, [this] { showPane(QStringLiteral("export")); });
        edit->addAction(a);
    }
    // Automatic: the CPUs no other task keeps busy (t2n/runtime_info.h), read
    // at start; a count fixes them, as t2n's --threads does (which, given to
    // the studio, overrides this setting for that run).
    edit->addSeparator();
    QMenu* threads = edit->addMenu(tr("&Threads"));
    threads->setObjectName(QStringLiteral("threadsMenu"));
    auto* group = new QActionGroup(threads);
    const int saved = QSettings().value(QStringLiteral("threads"), 0).toInt();
    auto apply = [](int n) {
        useThreads(n, "the studio's setting (Edit > Threads: " + std::to_string(n) + ")");
    };
    if (saved > 0)
        apply(saved);
    for (int n = 0; n <= std::max(1, QThread::idealThreadCount()); ++n) {
        QAction* a = threads->addAction(n == 0 ? tr("&Automatic (idle CPUs)") : QString::number(n));
        a->setObjectName(QStringLiteral("threads%1").arg(n));
        a->setCheckable(true);
        a->setChecked(n == saved);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [apply, n] {
            QSettings().setValue(QStringLiteral("threads"), n);
            apply(n);
        });
    }
}

QAction* MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (const Placed& p : panes_)
        p.pane->addViewActions(view);

    // Ctrl+1..9 for the tabs, in registry order.
    view->addSeparator();
    int tab = 0;
    for (const Placed& p : panes_)
        if (p.place == Place::Tab) {
            QAction* a = view->addAction(p.title, this, [this, id = p.id] { showPane(id); });
            if (tab < 9)
                a->setShortcut(QKeySequence(Qt::CTRL | (Qt::Key_1 + tab)));
            ++tab;
        }
    view->addAction(
            tr("Next tab"), this,
            [this] { tabs_->setCurrentIndex((tabs_->currentIndex() + 1) % tabs_->count()); })
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Tab));
    view->addAction(tr("Previous tab"), this,
                    [this] {
                        tabs_->setCurrentIndex((tabs_->currentIndex() + tabs_->count() - 1) %
                                               tabs_->count());
                    })
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab));

    // Docks come back from here (not only from the toolbar's context menu).
    view->addSeparator();
    for (const Placed& p : panes_)
        if (auto* dock = qobject_cast<QDockWidget*>(p.frame))
            view->addAction(dock->toggleViewAction());
    return view->findChild<QAction*>(QStringLiteral("findNode"));
}

QString MainWindow::searchCountText() const {
    return modelPane()->searchCountText();
}

void MainWindow::requestCancel() {
    host_->requestCancel();
}

QRect MainWindow::clampedToScreen(const QRect& window, const QRect& available) {
    QRect r(window.topLeft(), window.size().boundedTo(available.size()));
    if (r.right() > available.right())
        r.moveRight(available.right());
    if (r.bottom() > available.bottom())
        r.moveBottom(available.bottom());
    if (r.left() < available.left())
        r.moveLeft(available.left());
    if (r.top() < available.top())
        r.moveTop(available.top());
    return r;
}

} // namespace t2n::ui
