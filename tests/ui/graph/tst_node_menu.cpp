// What a graph tells about a node without a click, and its context menu,
// offscreen: the tooltip says kind, name and value, module and source line;
// "Copy node info" and "Copy source line" fill the clipboard; "Show in the
// other views" selects the node and asks the window for the rest. The
// canvas follows a dark palette, and its exported images stay light.
#include "graph/graph_colors.h"
#include "graph/graph_view.h"
#include "graph/node_info.h"
#include "layout_wait.h"
#include "suite_macros.h"
#include "synthetic_graph.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace t2n::ui;
using t2n::test::waitForLayout;

namespace {
/// A conv with everything the adapters record, a relu with no source line.
GraphData twoNodes() {
    GraphData g;
    t2n::test::addNode(g, QStringLiteral("ir:1"), QStringLiteral("aten::_convolution"),
                       {QStringLiteral("features"), QStringLiteral("0")}, QString());
    GraphNode& conv = g.nodes.back();
    conv.properties.insert(QStringLiteral("kind"), conv.kind);
    conv.properties.insert(QStringLiteral("name"), QStringLiteral("%input.4"));
    conv.properties.insert(QStringLiteral("value"), QStringLiteral("f32[1x16x32x32]"));
    conv.properties.insert(QStringLiteral("source"), QStringLiteral("model.py:42"));
    conv.properties.insert(QStringLiteral("source text"), QStringLiteral("x = self.conv(x)"));
    t2n::test::addNode(g, QStringLiteral("ir:2"), QStringLiteral("aten::relu"), {}, QString());
    t2n::test::addEdge(g, QStringLiteral("ir:1"), QStringLiteral("ir:2"));
    return g;
}

QAction* actionNamed(QMenu* menu, const char* name) {
    return menu ? menu->findChild<QAction*>(QString::fromLatin1(name)) : nullptr;
}
} // namespace

class NodeMenuTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        view_ = std::make_unique<GraphView>();
        view_->resize(600, 500);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
        view_->setGraph(twoNodes());
        QVERIFY(waitForLayout(*view_));
    }
    void cleanup() { view_.reset(); }

    /// Short plain lines, in the order they are asked for.
    void toolTipSaysWhatTheNodeIs() {
        const QString tip = nodeToolTip(twoNodes().nodes[0]);
        QCOMPARE(tip, QStringLiteral("aten::_convolution\n%input.4: f32[1x16x32x32]\nmodule "
                                     "features.0\nsource model.py:42: x = self.conv(x)"));
        QCOMPARE(nodeSourceLine(twoNodes().nodes[1]), QString());
        // The view shows it for the box under the mouse, nothing off the boxes.
        NodeItem* item = view_->graphScene()->nodeItem(QStringLiteral("ir:1"));
        QVERIFY(item);
        const QPoint at = view_->mapFromScene(item->rect().center());
        QCOMPARE(view_->toolTipAt(at), tip);
        QCOMPARE(view_->toolTipAt(QPoint(1, 1)), QString());
    }

    void copyMenuFillsTheClipboard() {
        std::unique_ptr<QMenu> menu(view_->contextMenuFor(QStringLiteral("ir:1")));
        QVERIFY(menu);
        actionNamed(menu.get(), "copyNodeInfo")->trigger();
        const QString info = QGuiApplication::clipboard()->text();
        QCOMPARE(info, nodeInfoText(twoNodes().nodes[0]));
        QVERIFY(info.contains(QStringLiteral("id ir:1")));
        actionNamed(menu.get(), "copySourceLine")->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(),
                 QStringLiteral("model.py:42: x = self.conv(x)"));
        // No source line recorded: nothing to copy, and the menu says so.
        std::unique_ptr<QMenu> relu(view_->contextMenuFor(QStringLiteral("ir:2")));
        QVERIFY(!actionNamed(relu.get(), "copySourceLine")->isEnabled());
        QVERIFY(!view_->contextMenuFor(QStringLiteral("no such node")));
    }

    void showInOtherViewsSelectsAndAsks() {
        QSignalSpy asked(view_.get(), &GraphView::showInOtherViewsRequested);
        std::unique_ptr<QMenu> menu(view_->contextMenuFor(QStringLiteral("ir:2")));
        actionNamed(menu.get(), "showInOtherViews")->trigger();
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first().first().toString(), QStringLiteral("ir:2"));
        QCOMPARE(view_->selectedNode(), QStringLiteral("ir:2"));
    }

    /// A dark palette: dark canvas, dark fills of the same hue, light text;
    /// an exported image is still the light document.
    void canvasFollowsThePalette() {
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x23, 0x23, 0x23));
        dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
        view_->setPalette(dark);
        const GraphColors& colors = view_->graphScene()->colors();
        QVERIFY(colors.dark);
        QCOMPARE(colors.background, QColor(0x23, 0x23, 0x23));
        const QColor pastel = opFamilyColor(QStringLiteral("aten::_convolution"));
        const QColor fill = colors.nodeFill(pastel);
        QVERIFY(fill.lightness() < 110);
        QCOMPARE(fill.hslHue(), pastel.hslHue());
        QVERIFY(colors.text.lightness() - fill.lightness() > 120); // readable
        const QImage shown = view_->viewport()->grab().toImage();
        QVERIFY(QColor(shown.pixel(2, 2)).lightness() < 60);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("g.png"));
        QVERIFY(view_->exportImage(png, GraphView::ExportArea::WholeGraph));
        QCOMPARE(QImage(png).pixel(1, 1), qRgb(255, 255, 255));
        QVERIFY(view_->graphScene()->colors().dark); // the canvas is dark again
        view_->setPalette(QPalette());
        QVERIFY(!view_->graphScene()->colors().dark);
    }

private:
    std::unique_ptr<GraphView> view_;
};

T2N_TEST_SUITE(NodeMenuTest)
#include "tst_node_menu.moc"
