// Provenance of graph.nnef lines on a scripted ResNet-18: every operation
// line maps to an IR node and a stable TorchScript node, the conv lines map
// to aten::conv2d nodes at both levels, and the inverse lookups agree.
#include "suite_macros.h"
#include "support.h"
#include "t2n/session.h"

#include <QTest>

#include <sstream>

using namespace t2n::test;

namespace {
const QString kModel = "scripted_tv_resnet18";

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}
} // namespace

class ProvenanceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo(kModel).isEmpty())
            QSKIP("no scripted fixtures: run the fixtures.generate test first");
    }

    void resnetLinesMapToNodes() {
        t2n::Session s;
        s.load(fixtureModel(kModel));
        auto o = fixtureOptions(kModel);
        s.translate(o);
        const auto p = s.provenance();
        const auto text = linesOf(s.nnefText());
        const auto& g = s.graph();
        const auto& last = s.report().harden.passes.back().snapshot;
        QVERIFY(!last.nodes.empty());

        int convLines = 0;
        int opLines = 0;
        for (const auto& l : p.lines) {
            // The line is the statement that defines the identifiers, with the op.
            const std::string& t = text.at(static_cast<size_t>(l.line - 1));
            QVERIFY2(t.find(l.op) != std::string::npos, t.c_str());
            for (const auto& id : l.identifiers) {
                QVERIFY2(t.find(id) != std::string::npos && t.find(id) < t.find('='), t.c_str());
                QCOMPARE(p.defining(id), &l);
            }
            QCOMPARE(p.atLine(l.line), &l);
            if (l.op == "external" || l.op == "tract_core_external" || l.op == "variable")
                continue; // graph plumbing: no node
            ++opLines;
            QVERIFY2(l.irNode >= 0, t.c_str());
            QVERIFY2(l.torchNode >= 0, t.c_str());
            QVERIFY(last.find(l.torchNode));
            const auto ir = p.linesOfIrNode(l.irNode);
            QVERIFY(std::find(ir.begin(), ir.end(), l.line) != ir.end());
            const auto torch = p.linesOfTorchNode(l.torchNode);
            QVERIFY(std::find(torch.begin(), torch.end(), l.line) != torch.end());
            if (l.op == "conv") {
                ++convLines;
                QCOMPARE(g.node(l.irNode).kind, std::string("aten::conv2d"));
                QCOMPARE(last.find(l.torchNode)->kind, std::string("aten::conv2d"));
            }
        }
        // ResNet-18: 20 convolutions (17 in the blocks and stem, 3 downsamples).
        int irConvs = 0;
        for (const auto& n : g.nodes)
            irConvs += n.kind == "aten::conv2d" ? 1 : 0;
        QCOMPARE(irConvs, 20);
        QCOMPARE(convLines, irConvs);
        QVERIFY(opLines > 40);
        QVERIFY(!p.atLine(1)); // "version 1.0;"
    }
};

T2N_TEST_SUITE(ProvenanceTest)
#include "tst_provenance.moc"
