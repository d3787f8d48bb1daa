// The studio's synced-selection tables over a real engine session, without
// windows: every IR node's line in the IR listing, the
// hardened TorchScript text and graph.nnef is the line those texts print it
// on, the tables agree both ways, and the NNEF graph's edges come from the
// statements' operands.
#include "session/graph_adapters.h"
#include "session/nnef_graph.h"
#include "session/selection_index.h"
#include "session/session_state.h"
#include "suite_macros.h"
#include "support.h"

#include "t2n/session.h"

#include <QRegularExpression>
#include <QTest>

using namespace t2n::ui;

namespace {
QStringList linesOf(const std::string& text) {
    return QString::fromStdString(text).split(QLatin1Char('\n'));
}
} // namespace

class SelectionIndexTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        session_.load(t2n::test::sourceDir() / "resources/sample/sample_cnn.pt");
        t2n::ExportOptions o;
        o.inputs = {t2n::InputSpec::parse("input:1x3x32x32:f32")};
        session_.translate(o);
        state_.hardened = state_.traced = state_.translated = true;
        state_.hardenedText = session_.hardenedText();
        state_.graph = session_.graph();
        state_.nnefText = session_.nnefText();
        state_.provenance = session_.provenance();
        state_.report = session_.report();
        irText_ = state_.graph.print(&irLines_);
        index_ = SelectionIndex(state_.graph, irLines_, finalSnapshot(state_.report.harden),
                                state_.provenance);
    }

    /// Each node's IR line shows its kind and first output, and maps back to the node.
    void irLines() {
        const QStringList ir = linesOf(irText_);
        for (const auto& n : state_.graph.nodes) {
            const int line = index_.irLineOf(n.id);
            QVERIFY(line > 0);
            QCOMPARE(index_.irNodeAtIrLine(line), n.id);
            const QString text = ir.value(line - 1);
            QVERIFY2(text.contains(QStringLiteral(" = %1(").arg(QString::fromStdString(n.kind))),
                     qPrintable(text));
        }
        QCOMPARE(index_.irNodeAtIrLine(1), -1); // "inputs:"
        QCOMPARE(index_.irNodeAtIrLine(100000), -1);
        QCOMPARE(index_.irLineOf(-1), 0);
    }

    /// A node's TorchScript line is the hardened text's line that defines the
    /// value the IR node computes, and that line selects the node.
    void torchScriptLines() {
        const QStringList ts = linesOf(state_.hardenedText);
        int shown = 0;
        for (const auto& n : state_.graph.nodes) {
            const int line = index_.torchLineOf(n.id);
            if (line == 0)
                continue;
            ++shown;
            QCOMPARE(index_.irNodeAtTorchLine(line), n.id);
            if (n.outputs.empty())
                continue;
            const QString name = QString::fromStdString(state_.graph.value(n.outputs[0]).debugName);
            QVERIFY2(ts.value(line - 1).trimmed().startsWith(QStringLiteral("%%1 :").arg(name)),
                     qPrintable(ts.value(line - 1)));
        }
        QVERIFY(shown >= 5); // convolutions, activations, pooling, linear of the sample CNN
    }

    /// graph.nnef lines: each line of a node holds the operation the engine recorded,
    /// and selects that node.
    void nnefLines() {
        const QStringList nnef = linesOf(state_.nnefText);
        int convs = 0;
        for (const auto& n : state_.graph.nodes)
            for (int line : index_.nnefLinesOf(n.id)) {
                QCOMPARE(index_.irNodeAtNnefLine(line), n.id);
                const auto* pl = state_.provenance.atLine(line);
                QVERIFY(pl);
                QVERIFY(nnef.value(line - 1).contains(QString::fromStdString(pl->op) + "("));
                convs += pl->op == "conv" ? 1 : 0;
            }
        QVERIFY(convs >= 2);
        QVERIFY(index_.nnefLinesOf(-1).empty());
    }

    /// Every edge of the NNEF graph runs from the line defining an identifier to a
    /// statement whose arguments name it.
    void nnefEdgesFromOperands() {
        const GraphData data = graphFromNnef(state_.nnefText, state_.provenance, state_.graph);
        const QStringList nnef = linesOf(state_.nnefText);
        QVERIFY(!data.edges.empty());
        for (const auto& e : data.edges) {
            const int from = e.from.mid(5).toInt(), to = e.to.mid(5).toInt();
            const auto* def = state_.provenance.atLine(from);
            QVERIFY(def && !def->identifiers.empty());
            const QString target = nnef.value(to - 1);
            const QString args = target.mid(target.indexOf(QLatin1Char('(')));
            bool named = false;
            for (const auto& id : def->identifiers)
                named = named || QRegularExpression(
                                     QStringLiteral("\\b%1\\b").arg(QString::fromStdString(id)))
                                     .match(args)
                                     .hasMatch();
            QVERIFY2(named, qPrintable(nnef.value(from - 1) + " -> " + target));
        }
    }

private:
    t2n::Session session_;
    SessionState state_;
    std::string irText_;
    std::vector<int> irLines_;
    SelectionIndex index_;
};

T2N_TEST_SUITE(SelectionIndexTest)
#include "tst_selection_index.moc"
