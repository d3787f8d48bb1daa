// The pane interface, offscreen: a view registered by the test alone (one
// class and one registry row, nothing in MainWindow) follows a node selected
// in another view, gets its View menu entry (a dock toggle, or a tab with the
// next Ctrl+N), and is told each new state.
#include "graph/graph_view.h"
#include "session/graph_adapters.h"
#include "session/session_controller.h"
#include "studio/main_window.h"
#include "studio/pane_host.h"
#include "studio/sample_model.h"
#include "suite_macros.h"
#include "text/code_view.h"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QTest>

using namespace t2n::ui;
using t2n::test::openSample;

namespace {
/// The smallest pane: a label that says which IR node is selected.
class SelectedNodePane : public Pane {
public:
    SelectedNodePane(PaneHost& host, QWidget* parent) : Pane(host), label_(new QLabel(parent)) {
        label_->setObjectName(QStringLiteral("selectedNodeLabel"));
    }
    QWidget* widget() const override { return label_; }
    void showState(const t2n::ui::SessionState& st) override {
        ++states_;
        label_->setText(st.modelPath);
    }
    void followNode(int irNode) override {
        followed_ = irNode;
        label_->setText(QString::fromStdString(host().state()->graph.node(irNode).kind));
    }
    int followed_ = -1;
    int states_ = 0;

private:
    QLabel* label_;
};

PaneRegistry withTestPane(Place place) {
    PaneRegistry panes = studioPanes();
    panes.add({QStringLiteral("selectedNode"), QStringLiteral("Selected &node"), place,
               Follow::State | Follow::Node, 0,
               [](PaneHost& h, QWidget* parent) { return new SelectedNodePane(h, parent); }});
    return panes;
}

QAction* viewAction(MainWindow& w, const QString& text) {
    for (QAction* menu : w.menuBar()->actions())
        if (menu->text() == QStringLiteral("&View"))
            for (QAction* a : menu->menu()->actions())
                if (a->text() == text)
                    return a;
    return nullptr;
}
} // namespace

class PanesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// A dock pane follows a node clicked in the IR text and in the NNEF
    /// graph, and its dock comes and goes from the View menu.
    void aRegisteredPaneFollowsTheSelection() {
        MainWindow w(withTestPane(Place::BottomDock));
        auto* pane = dynamic_cast<SelectedNodePane*>(w.pane(QStringLiteral("selectedNode")));
        QVERIFY(pane);
        QAction* toggle = viewAction(w, QStringLiteral("Selected node"));
        QVERIFY(toggle);
        QVERIFY(toggle->isCheckable());
        const int statesBefore = pane->states_;
        QVERIFY(openSample(w));
        QVERIFY(pane->states_ > statesBefore);
        QCOMPARE(pane->widget()->property("text").toString(), w.controller()->state()->modelPath);

        // A click on a line of the IR text, in another pane.
        const int node = 1;
        const int line = w.paneHost()->index().irLineOf(node);
        QVERIFY(line > 0);
        Q_EMIT w.irTextView()->lineClicked(line);
        QCOMPARE(pane->followed_, node);
        QCOMPARE(pane->widget()->property("text").toString(),
                 QString::fromStdString(w.controller()->state()->graph.node(node).kind));
        // The IR graph's own node click goes the same way.
        Q_EMIT w.irGraph()->nodeSelected(irNodeKey(0));
        QCOMPARE(pane->followed_, 0);
        QCOMPARE(w.selectedIrNode(), 0);

        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(pane->widget()->isVisible());
        toggle->trigger();
        QVERIFY(!pane->widget()->isVisible());
        toggle->trigger();
        QVERIFY(pane->widget()->isVisible());
    }

    /// A tab pane comes after the studio's four, with Ctrl+5.
    void aRegisteredTabGetsTheNextShortcut() {
        MainWindow w(withTestPane(Place::Tab));
        QCOMPARE(w.tabs()->count(), 5);
        QCOMPARE(w.tabs()->tabText(4), QStringLiteral("Selected node"));
        QAction* tab = viewAction(w, QStringLiteral("Selected &node"));
        QVERIFY(tab);
        QCOMPARE(tab->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_5));
        tab->trigger();
        QCOMPARE(w.tabs()->currentIndex(), 4);
        // The studio's own tabs keep Ctrl+1..4, in the registry's order.
        QCOMPARE(viewAction(w, QStringLiteral("&Model"))->shortcut(),
                 QKeySequence(Qt::CTRL | Qt::Key_1));
        QCOMPARE(viewAction(w, QStringLiteral("&Results"))->shortcut(),
                 QKeySequence(Qt::CTRL | Qt::Key_4));
    }
};

T2N_TEST_SUITE(PanesTest)
#include "tst_panes.moc"
