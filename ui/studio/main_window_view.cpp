// MainWindow's Edit and View menus and the conventions of a desktop program:
// Ctrl+Z / Ctrl+Shift+Z undo and redo the export form's edits; every
// dock, the toolbar and the graph overview can be shown or hidden, Ctrl+1..4
// and Ctrl+(Shift+)Tab switch the tabs, search says "n of m" and steps with
// Enter / Shift+Enter / F3 from anywhere, selecting each hit in every view;
// a cancel says it is under way; a restored window fits its screen.
#include "graph/graph_search.h"
#include "graph/graph_view.h"
#include "session/session_controller.h"
#include "studio/export_form.h"
#include "studio/main_window.h"
#include "studio/pass_stepper.h"

#include <QAction>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>

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
        connect(a, &QAction::triggered, this, [this] { tabs_->setCurrentIndex(ExportTab); });
        edit->addAction(a);
    }
}

QAction* MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* find = view->addAction(tr("&Find node…"), this, [this] {
        tabs_->setCurrentIndex(ModelTab);
        search_->setFocus();
        search_->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    view->addAction(tr("Find &next"), this, [this] { stepSearch(1); })
        ->setShortcut(QKeySequence::FindNext);
    view->addAction(tr("Find pre&vious"), this, [this] { stepSearch(-1); })
        ->setShortcut(QKeySequence::FindPrevious);
    view->addAction(tr("&Fit graph"), irGraph_, &GraphView::fitGraph)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* next = view->addAction(tr("&Next pass"), this, [this] {
        tabs_->setCurrentIndex(PassesTab);
        stepper_->step(1);
    });
    next->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    QAction* prev = view->addAction(tr("&Previous pass"), this, [this] {
        tabs_->setCurrentIndex(PassesTab);
        stepper_->step(-1);
    });
    prev->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));

    view->addSeparator();
    const QString names[] = {tr("&Model"), tr("P&asses"), tr("&Export"), tr("&Results")};
    for (int i = 0; i < tabs_->count() && i < 4; ++i)
        view->addAction(names[i], this, [this, i] { tabs_->setCurrentIndex(i); })
            ->setShortcut(QKeySequence(Qt::CTRL | (Qt::Key_1 + i)));
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

    // Docks and the overview come back from here (not only from the toolbar's
    // context menu); the overview's choice is remembered.
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    QAction* minimap = view->addAction(tr("Graph &overview"));
    minimap->setObjectName(QStringLiteral("minimapToggle"));
    minimap->setCheckable(true);
    minimap->setChecked(QSettings().value(QStringLiteral("minimap"), true).toBool());
    auto showMinimap = [this](bool on) {
        for (GraphView* g : {irGraph_, tsGraph_, nnefGraph_})
            g->setMinimapShown(on);
        QSettings().setValue(QStringLiteral("minimap"), on);
    };
    connect(minimap, &QAction::toggled, this, showMinimap);
    for (GraphView* g : {irGraph_, tsGraph_, nnefGraph_})
        g->setMinimapShown(minimap->isChecked());
    return find;
}

QString MainWindow::searchCountText() const {
    return searchCount_->text();
}

void MainWindow::stepSearch(int direction) {
    const QString text = search_->text().trimmed();
    if (text.isEmpty()) {
        searchCount_->clear();
        return;
    }
    tabs_->setCurrentIndex(ModelTab);
    int count = irGraph_->searchModel()->rowCount();
    if (text != lastSearch_) {
        lastSearch_ = text;
        count = irGraph_->search(text);
        if (direction < 0 && count > 0)
            irGraph_->previousMatch();
    } else if (direction > 0) {
        irGraph_->nextMatch();
    } else {
        irGraph_->previousMatch();
    }
    if (count == 0) {
        searchCount_->setText(tr("no match"));
        stage_->setText(tr("No node matches '%1'").arg(text));
        return;
    }
    searchCount_->setText(tr("%1 of %2").arg(irGraph_->currentMatch() + 1).arg(count));
    // The hit in every view: texts, the other graphs, Properties.
    const QString id = irGraph_->searchModel()->nodeId(irGraph_->currentMatch());
    if (id.startsWith(QStringLiteral("ir:")))
        selectIrNode(id.mid(3).toInt());
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == search_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
            (key->modifiers() & Qt::ShiftModifier)) {
            stepSearch(-1);
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::requestCancel() {
    controller_->cancel();
    // The engine stops at its next poll (between passes, nodes, tensors):
    // until then the buttons say it heard.
    cancel_->setEnabled(false);
    exportCancel_->setEnabled(false);
    exportProgress_->setFormat(tr("cancelling… (stops at the next step; nothing is written)"));
    stage_->setText(tr("Cancelling… nothing will be written"));
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
