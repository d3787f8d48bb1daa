// The studio's desktop conventions, offscreen: search says "n of m" and
// steps both ways, selecting each hit in every view; Ctrl+1..4 switch tabs;
// the graph overview can be hidden and never covers the selected node; a
// restored window fits its screen; a cancel says it is under way; a node's
// context menu shows it in the other views; Edit > Threads sets the engine's
// threads and is remembered.
#include "graph/graph_items.h"
#include "graph/graph_minimap.h"
#include "graph/graph_view.h"
#include "session/graph_adapters.h"
#include "session/session_controller.h"
#include "studio/main_window.h"
#include "studio/pass_stepper.h"
#include "studio/sample_model.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/runtime_info.h"

#include <QAction>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>
#include <QTest>

using namespace t2n::ui;
using t2n::test::openSample;

class DesktopConventionsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Edit > Threads: a count is what the engine runs with from then on,
    /// kept for the next start; Automatic gives the choice back to the
    /// threading policy (the idle CPUs, unless the environment says).
    void threadsSetting() {
        QSettings().remove(QStringLiteral("threads"));
        {
            MainWindow w;
            auto* one = w.findChild<QAction*>(QStringLiteral("threads1"));
            auto* automatic = w.findChild<QAction*>(QStringLiteral("threads0"));
            QVERIFY(one && automatic);
            QVERIFY(automatic->isChecked());
            one->trigger();
            QCOMPARE(t2n::runtimeInfo().intraOpThreads, 1);
            QVERIFY2(t2n::runtimeInfo().intraOpSource.find("studio's setting") != std::string::npos,
                     t2n::runtimeInfo().intraOpSource.c_str());
        }
        QCOMPARE(QSettings().value(QStringLiteral("threads")).toInt(), 1);
        MainWindow again;
        QVERIFY(again.findChild<QAction*>(QStringLiteral("threads1"))->isChecked());
        again.findChild<QAction*>(QStringLiteral("threads0"))->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("threads")).toInt(), 0);
        QVERIFY2(t2n::runtimeInfo().intraOpSource.find("studio's setting") == std::string::npos,
                 t2n::runtimeInfo().intraOpSource.c_str());
    }

    /// Enter steps forward, Shift+Enter back, the count follows, and each hit
    /// is the node selected everywhere (the sample has two convolutions).
    void searchCountsAndSteps() {
        MainWindow w;
        w.show();
        QVERIFY(openSample(w));
        QTRY_VERIFY_WITH_TIMEOUT(!w.irGraph()->isLayoutPending(), 30000);
        auto* search = w.findChild<QLineEdit*>(QStringLiteral("graphSearch"));
        QVERIFY(search);
        search->setText(QStringLiteral("_convolution"));
        QTest::keyClick(search, Qt::Key_Return);
        QCOMPARE(w.searchCountText(), QStringLiteral("1 of 2"));
        const int first = w.selectedIrNode();
        QVERIFY(first >= 0);
        QCOMPARE(QString::fromStdString(w.controller()->state()->graph.node(first).kind),
                 QStringLiteral("aten::_convolution"));
        QTest::keyClick(search, Qt::Key_Return);
        QCOMPARE(w.searchCountText(), QStringLiteral("2 of 2"));
        QVERIFY(w.selectedIrNode() != first);
        QTest::keyClick(search, Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(w.searchCountText(), QStringLiteral("1 of 2"));
        QCOMPARE(w.selectedIrNode(), first);
        search->setText(QStringLiteral("no such node"));
        QTest::keyClick(search, Qt::Key_Return);
        QCOMPARE(w.searchCountText(), QStringLiteral("no match"));
    }

    /// Ctrl+1..4 are the tabs, from wherever the keyboard is.
    void tabShortcuts() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        for (int i : {2, 4, 1, 3}) {
            QTest::keyClick(&w, Qt::Key(Qt::Key_0 + i), Qt::ControlModifier);
            QCOMPARE(w.tabs()->currentIndex(), i - 1);
        }
    }

    /// The overview hides on request, and otherwise moves off the selection.
    void overviewNeverCoversTheSelection() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(openSample(w));
        GraphView* g = w.irGraph();
        QTRY_VERIFY_WITH_TIMEOUT(!g->isLayoutPending(), 30000);
        for (const auto& n : w.controller()->state()->graph.nodes) {
            w.selectIrNode(n.id);
            QCoreApplication::processEvents();
            const auto selected = g->scene()->selectedItems();
            if (selected.isEmpty() || !g->minimap()->isVisible())
                continue;
            const QRect node = g->mapFromScene(selected.first()->sceneBoundingRect())
                                   .boundingRect()
                                   .translated(g->viewport()->geometry().topLeft());
            QVERIFY2(!g->minimap()->geometry().intersects(node), n.kind.c_str());
        }
        auto* toggle = w.findChild<QAction*>(QStringLiteral("minimapToggle"));
        QVERIFY(toggle);
        toggle->setChecked(false);
        QVERIFY(!g->minimap()->isVisible());
        toggle->setChecked(true);
        QVERIFY(g->minimap()->isVisible());
    }

    /// A window saved larger than the screen (another monitor, another scale
    /// factor) comes back inside it.
    void geometryClampedToTheScreen() {
        const QRect screen(0, 0, 1024, 700);
        QCOMPARE(MainWindow::clampedToScreen(QRect(100, 50, 1600, 1000), screen), screen);
        QCOMPARE(MainWindow::clampedToScreen(QRect(900, 600, 400, 300), screen),
                 QRect(624, 400, 400, 300));
        QCOMPARE(MainWindow::clampedToScreen(QRect(-50, -20, 400, 300), screen),
                 QRect(0, 0, 400, 300));
        {
            MainWindow big;
            const QRect avail = big.screen()->availableGeometry();
            big.resize(avail.width() + 900, avail.height() + 700);
            big.move(avail.topLeft() + QPoint(300, 200));
            big.show();
            big.close(); // saves the geometry
        }
        MainWindow w;
        w.restoreLayout();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect avail = w.screen()->availableGeometry();
        QVERIFY2(avail.contains(w.frameGeometry()),
                 qPrintable(QStringLiteral("%1,%2 %3x%4")
                                .arg(w.frameGeometry().x())
                                .arg(w.frameGeometry().y())
                                .arg(w.frameGeometry().width())
                                .arg(w.frameGeometry().height())));
        QSettings().remove(QStringLiteral("windowGeometry"));
        QSettings().remove(QStringLiteral("windowState"));
    }

    /// "Show in the other views" on a TorchScript graph node selects its IR
    /// node everywhere; from the pass graph it also brings the Model tab.
    void showInOtherViews() {
        MainWindow w;
        w.show();
        QVERIFY(openSample(w));
        int node = -1;
        int64_t torchNode = -1;
        for (const auto& n : w.controller()->state()->graph.nodes)
            if (n.torchNode >= 0 && w.torchScriptGraph()->graph().indexById().contains(
                                        QStringLiteral("ts:%1").arg(n.torchNode))) {
                node = n.id;
                torchNode = n.torchNode;
                break;
            }
        QVERIFY(node >= 0);
        const QString key = QStringLiteral("ts:%1").arg(torchNode);
        std::unique_ptr<QMenu> menu(w.torchScriptGraph()->contextMenuFor(key));
        QVERIFY(menu);
        auto* show = menu->findChild<QAction*>(QStringLiteral("showInOtherViews"));
        QVERIFY(show);
        show->trigger();
        QCOMPARE(w.selectedIrNode(), node);
        QTRY_COMPARE_WITH_TIMEOUT(w.irGraph()->selectedNode(), irNodeKey(node), 30000);

        w.selectIrNode(node == 0 ? 1 : 0); // elsewhere first
        w.tabs()->setCurrentIndex(MainWindow::PassesTab);
        GraphView* passes = w.passStepper()->graphView();
        if (!passes->graph().indexById().contains(key))
            QSKIP("the pass graph shown does not hold that node");
        std::unique_ptr<QMenu> fromPasses(passes->contextMenuFor(key));
        fromPasses->findChild<QAction*>(QStringLiteral("showInOtherViews"))->trigger();
        QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::ModelTab));
        QCOMPARE(w.selectedIrNode(), node);
    }

    /// Cancel is acknowledged at once, beside the Export button.
    void cancelSaysItIsUnderWay() {
        MainWindow w;
        w.show();
        QVERIFY(openSample(w));
        const auto dir = t2n::test::freshDir(QStringLiteral("conventions_cancel"));
        w.exportTo(QString::fromStdString((dir / "x.nnef.tgz").string()));
        auto* bar = w.findChild<QProgressBar*>(QStringLiteral("exportProgress"));
        QVERIFY(bar && !bar->isHidden());
        w.requestCancel();
        QVERIFY(bar->format().contains(QStringLiteral("cancelling")));
        QVERIFY(w.controller()->waitIdle());
        QVERIFY(bar->isHidden());
        QVERIFY(!std::filesystem::exists(dir / "x.nnef.tgz"));
    }
};

T2N_TEST_SUITE(DesktopConventionsTest)
#include "tst_desktop_conventions.moc"
