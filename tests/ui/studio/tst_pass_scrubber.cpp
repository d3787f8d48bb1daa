// The pass scrubber as a person uses it, on a hand-made chain of snapshots
// whose every change is known: the slider and Previous/Next walk the passes,
// no node moves between passes, the pinned node stays selected, no-op passes
// can be skipped, each step names the pass, its summary (from the engine's
// pass table), time and node delta, and the change table and Properties
// history say what was added, removed and modified, and how.
#include "graph/graph_view.h"
#include "graph/synthetic_graph.h"
#include "session/node_change_model.h"
#include "session/pass_list_model.h"
#include "studio/pass_scrubber.h"
#include "studio/pass_stepper.h"
#include "suite_macros.h"

#include <QCheckBox>
#include <QPushButton>
#include <QSlider>
#include <QTableView>
#include <QtTest>

using namespace t2n;
using namespace t2n::ui;

namespace {

harden::SnapshotNode node(harden::StableId id, const std::string& kind,
                          std::vector<std::string> inputs, const std::string& out,
                          const std::string& type, const std::string& attrs = {}) {
    harden::SnapshotNode n;
    n.id = id;
    n.kind = kind;
    n.inputs = std::move(inputs);
    n.outputs = {out};
    n.outputTypes = {type};
    std::string args;
    for (const auto& in : n.inputs)
        args += (args.empty() ? "%" : ", %") + in;
    n.text = "%" + out + " : " + type + " = " + kind + attrs + "(" + args + ")";
    return n;
}

std::string floatType(const std::string& dims) {
    return "Float(" + dims + ", strides=[8, 1], requires_grad=0, device=cpu)";
}

/// x -> conv(ts:1, constant k) -> relu_(ts:3) -> add(ts:4, also from conv) -> mul(ts:5).
/// Pass 1 replaces relu_ by relu (ts:6); pass 2 changes nothing; pass 3 gives
/// conv another constant and add another shape; pass 4 removes mul.
harden::HardenDiagnostics chain() {
    using harden::SnapshotEdge;
    harden::GraphSnapshot s0;
    s0.inputs = {"self", "x"};
    s0.nodes = {node(2, "prim::Constant", {}, "k", "int", "[value=1]"),
                node(1, "aten::conv1d", {"x", "k"}, "c", floatType("1, 8")),
                node(3, "aten::relu_", {"c"}, "r", floatType("1, 8")),
                node(4, "aten::add", {"r", "c"}, "a", floatType("1, 8")),
                node(5, "aten::mul", {"a", "a"}, "m", floatType("1, 8"))};
    s0.edges = {SnapshotEdge{harden::kGraphInput, 1, "x"},
                SnapshotEdge{2, 1, "k"},
                SnapshotEdge{1, 3, "c"},
                SnapshotEdge{3, 4, "r"},
                SnapshotEdge{1, 4, "c"},
                SnapshotEdge{4, 5, "a"},
                SnapshotEdge{5, harden::kGraphOutput, "m"}};
    harden::GraphSnapshot s1 = s0;
    s1.nodes[2] = node(6, "aten::relu", {"c"}, "r2", floatType("1, 8"));
    s1.nodes[3].inputs = {"r2", "c"};
    s1.edges[2] = SnapshotEdge{1, 6, "c"};
    s1.edges[3] = SnapshotEdge{6, 4, "r2"};
    harden::GraphSnapshot s3 = s1;
    s3.nodes.push_back(node(7, "prim::Constant", {}, "k2", "int", "[value=2]"));
    s3.nodes[1].inputs = {"x", "k2"};
    s3.nodes[3].outputTypes = {floatType("1, 16")};
    harden::GraphSnapshot s4 = s3;
    s4.nodes.erase(s4.nodes.begin() + 4);
    s4.edges.erase(s4.edges.begin() + 5, s4.edges.end());

    harden::HardenDiagnostics d;
    d.inputSnapshot = s0;
    d.inputGraphText = "graph 0";
    d.nodesBefore = 5;
    auto pass = [&](const char* name, const harden::GraphSnapshot& s, int64_t count, double ms) {
        harden::PassRecord p;
        p.name = name;
        p.counts = {{"rewrites", count}};
        p.seconds = ms / 1000;
        p.snapshot = s;
        p.graphText = "graph " + std::to_string(d.passes.size() + 1);
        p.nodes = int64_t(s.nodes.size());
        d.passes.push_back(p);
    };
    pass("remove_tensor_mutation", s1, 1, 4.9);
    d.passes.back().events = {{3, harden::NodeEventKind::Removed, {}},
                              {6, harden::NodeEventKind::Added, {}}};
    d.passes.back().nodeRemarks = {{3, "made functional"}};
    pass("fold_constant_ifs", s1, 0, 0.1);
    pass("replace_size_calls_with_constants", s3, 1, 0.3);
    pass("eliminate_dead_code", s4, 1, 0.2);
    d.nodesAfter = int64_t(s4.nodes.size());
    return d;
}

QStringList changeRows(const NodeChangeModel& m) {
    QStringList rows;
    for (int r = 0; r < m.rowCount(); ++r)
        rows << m.index(r, NodeChangeModel::Change).data().toString() + QLatin1Char(' ') +
                    m.index(r, 0).data(NodeChangeModel::NodeIdRole).toString() + QLatin1Char(' ') +
                    m.index(r, NodeChangeModel::Details).data().toString();
    return rows;
}

QString propertyRow(const QList<QPair<QString, QString>>& rows, const QString& name) {
    for (const auto& [key, value] : rows)
        if (key == name)
            return value;
    return {};
}

} // namespace

class PassScrubberTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void scrubbingKeepsNodesAndPin() {
        PassStepper stepper;
        stepper.resize(1400, 900);
        stepper.show();
        stepper.setDiagnostics(chain());
        PassScrubber* scrub = stepper.scrubber();
        GraphView* view = stepper.graphView();
        QTRY_VERIFY_WITH_TIMEOUT(stepper.layouts().baseRow() == 1 && !view->isLayoutPending(),
                                 20000);

        // Opens on the first pass that changed something, said in one line.
        QCOMPARE(stepper.currentRow(), 1);
        QCOMPARE(scrub->slider()->maximum(), 4);
        QCOMPARE(scrub->position(), 1);
        QCOMPARE(scrub->title(), QStringLiteral("remove_tensor_mutation"));
        QString summary;
        for (const auto& p : harden::passDescriptions())
            if (p.name == "remove_tensor_mutation")
                summary = QString::fromStdString(p.summary);
        QVERIFY(!summary.isEmpty());
        QCOMPARE(scrub->description(), summary);
        QVERIFY2(scrub->figures().startsWith(QStringLiteral("4.9 ms")),
                 qPrintable(scrub->figures()));
        QVERIFY2(scrub->figures().contains(QStringLiteral("5 \u2192 5 nodes")),
                 qPrintable(scrub->figures()));
        QVERIFY2(
            scrub->figures().contains(QStringLiteral("+1 added, \u22121 removed, ~1 modified")),
            qPrintable(scrub->figures()));
        // relu_ replaced: add takes the new relu (modified), conv only feeds it.
        QCOMPARE(
            changeRows(*stepper.changeModel()),
            QStringList({QStringLiteral("added ts:6 %r2 : Float(1, 8, strides=[8, 1], "
                                        "requires_grad=0, device=cpu) = aten::relu(%c)"),
                         QStringLiteral("modified ts:4 inputs: relu_ (ts:3) \u2192 relu (ts:6)"),
                         QStringLiteral("removed ts:3 %r : Float(1, 8, strides=[8, 1], "
                                        "requires_grad=0, device=cpu) = aten::relu_(%c)")}));

        // Pin the conv by clicking it in the graph, then scrub every way.
        QSignalSpy pinned(&stepper, &PassStepper::pinnedNodeShown);
        view->graphScene()->nodeItem(QStringLiteral("ts:1"))->setSelected(true);
        QCOMPARE(stepper.pinnedNode(), QStringLiteral("ts:1"));
        QCOMPARE(pinned.count(), 1);
        QHash<QString, QRectF> home = t2n::test::itemBoxes(view->geometry(), false);
        for (int position : {2, 3, 4, 0, 3, 1, 4}) {
            if (position == scrub->position() + 1)
                scrub->nextButton()->click();
            else if (position == scrub->position() - 1)
                scrub->previousButton()->click();
            else
                scrub->slider()->setValue(position);
            QCOMPARE(stepper.currentRow(), position);
            QVERIFY(!view->isLayoutPending()); // placed, not laid out again
            const QHash<QString, QRectF> boxes = t2n::test::itemBoxes(view->geometry(), false);
            for (auto it = boxes.cbegin(); it != boxes.cend(); ++it) {
                QVERIFY2(
                    home.value(it.key(), it.value()) == it.value(),
                    qPrintable(QStringLiteral("%1 moved at pass %2").arg(it.key()).arg(position)));
                home.insert(it.key(), it.value());
            }
            QVERIFY(view->graphScene()->nodeItem(QStringLiteral("ts:1"))->isSelected());
            QCOMPARE(view->selectedNode(), QStringLiteral("ts:1"));
        }
        QVERIFY(pinned.count() >= 7); // Properties follows every step

        // Pass 3: the conv got another constant (an attribute), add another shape.
        scrub->slider()->setValue(3);
        QCOMPARE(
            changeRows(*stepper.changeModel()),
            QStringList({QStringLiteral("modified ts:1 attributes: _; value=1 \u2192 _; value=2"),
                         QStringLiteral("modified ts:4 shape: 1, 8 \u2192 1, 16")}));
        QCOMPARE(view->graphScene()->nodeItem(QStringLiteral("ts:1"))->mark(), DiffMark::Modified);
        QCOMPARE(view->graphScene()->nodeItem(QStringLiteral("ts:6"))->mark(), DiffMark::None);
        const auto props = stepper.pinnedProperties();
        QCOMPARE(propertyRow(props, QStringLiteral("this pass")),
                 QStringLiteral("modified: attributes: _; value=1 \u2192 _; value=2"));
        QCOMPARE(propertyRow(props, QStringLiteral("history")),
                 QStringLiteral("3 replace_size_calls_with_constants: modified: attributes: _; "
                                "value=1 \u2192 _; value=2"));

        // Only changed nodes: the rest fade.
        scrub->onlyChanged()->setChecked(true);
        QVERIFY(view->focusSet().contains(QStringLiteral("ts:1")));
        QVERIFY(view->focusSet().contains(QStringLiteral("ts:4")));
        QVERIFY(!view->focusSet().contains(QStringLiteral("ts:6")));
        QVERIFY(view->graphScene()->nodeItem(QStringLiteral("ts:6"))->opacity() < 0.5);
        scrub->onlyChanged()->setChecked(false);
        QCOMPARE(view->graphScene()->nodeItem(QStringLiteral("ts:6"))->opacity(), 1.0);

        // A change-table click pins that node; its history spans the passes.
        stepper.changeTable()->setCurrentIndex(stepper.changeModel()->index(1, 0));
        QCOMPARE(stepper.pinnedNode(), QStringLiteral("ts:4"));
        QCOMPARE(
            propertyRow(stepper.pinnedProperties(), QStringLiteral("history")),
            QStringLiteral("1 remove_tensor_mutation: modified: inputs: relu_ (ts:3) \u2192 relu "
                           "(ts:6)\n"
                           "3 replace_size_calls_with_constants: modified: shape: 1, 8 "
                           "\u2192 1, 16"));
        stepper.pinNode(QStringLiteral("ts:3"));
        QCOMPARE(propertyRow(stepper.pinnedProperties(), QStringLiteral("history")),
                 QStringLiteral("1 remove_tensor_mutation: removed \u2014 made functional"));

        // Skipping no-op passes: the slider walks the three that did something.
        scrub->hideNoOp()->setChecked(true);
        QCOMPARE(scrub->slider()->maximum(), 3);
        QStringList walked;
        scrub->slider()->setValue(0);
        while (scrub->nextButton()->isEnabled()) {
            scrub->nextButton()->click();
            walked << scrub->title();
        }
        QCOMPARE(walked, QStringList({QStringLiteral("remove_tensor_mutation"),
                                      QStringLiteral("replace_size_calls_with_constants"),
                                      QStringLiteral("eliminate_dead_code")}));
        QCOMPARE(changeRows(*stepper.changeModel()).join(QLatin1Char('|')),
                 QStringLiteral("removed ts:5 %m : Float(1, 8, strides=[8, 1], requires_grad=0, "
                                "device=cpu) = aten::mul(%a, %a)"));
    }
};

T2N_TEST_SUITE(PassScrubberTest)
#include "tst_pass_scrubber.moc"
