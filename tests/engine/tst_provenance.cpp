// Provenance of graph.nnef lines on a scripted ResNet-18: every operation
// line maps to an IR node and a stable TorchScript node, the conv lines map
// to aten::conv2d nodes at both levels, and the inverse lookups agree.
#include "reader/model_reader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/session.h"

#include <QTest>

#include <algorithm>
#include <sstream>

using namespace t2n::test;

namespace {
const QString kScriptedResnet18 = "scripted_tv_resnet18";

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

// Identifiers an expression of the read-back document reads, in order, each once.
void identifiersIn(const t2n::nnef::ast::Expr& e, std::vector<std::string>& out) {
    using Kind = t2n::nnef::ast::Expr::Kind;
    if (e.kind == Kind::Identifier && std::find(out.begin(), out.end(), e.text) == out.end())
        out.push_back(e.text);
    for (const auto& item : e.items)
        if (item)
            identifiersIn(*item, out);
    for (const auto& [name, arg] : e.args)
        identifiersIn(*arg, out);
}
} // namespace

class ProvenanceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo(kScriptedResnet18).isEmpty())
            QSKIP("no scripted fixtures: run the fixtures.generate test first");
    }

    void resnetLinesMapToNodes() {
        t2n::Session s;
        s.load(fixtureModel(kScriptedResnet18));
        auto o = fixtureOptions(kScriptedResnet18);
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

    /// The operands of each line are the identifiers its statement reads, as t2n's
    /// independent reader parses graph.nnef; the IR listing's node lines and the
    /// hardened TorchScript snapshot's node lines are where those texts print the node.
    void operandsAndNodeLines() {
        t2n::Session s;
        s.load(fixtureModel(kScriptedResnet18));
        s.translate(fixtureOptions(kScriptedResnet18));
        const auto p = s.provenance();
        const auto doc =
            t2n::nnef::parseDocument(s.nnefText(), "graph.nnef", t2n::nnef::ReadMode::Tract);
        int checked = 0;
        for (const auto& a : doc.graph.body) {
            const auto* l = p.atLine(a.loc.line);
            QVERIFY(l);
            std::vector<std::string> expected;
            for (const auto& [name, arg] : a.rhs->args)
                identifiersIn(*arg, expected);
            QCOMPARE(l->operands, expected);
            checked += expected.empty() ? 0 : 1;
        }
        QVERIFY(checked > 40);

        const auto& g = s.graph();
        std::vector<int> nodeLines;
        const auto ir = linesOf(g.print(&nodeLines));
        QCOMPARE(nodeLines.size(), g.nodes.size());
        for (const auto& n : g.nodes) {
            const std::string& l =
                ir.at(static_cast<size_t>(nodeLines[static_cast<size_t>(n.id)] - 1));
            QVERIFY2(l.find(" = " + n.kind + "(") != std::string::npos, l.c_str());
            if (!n.outputs.empty())
                QVERIFY2(l.find("%" + g.value(n.outputs[0]).debugName + " : ") != std::string::npos,
                         l.c_str());
        }

        const auto torch = linesOf(s.hardenedText());
        const auto& last = s.report().harden.passes.back().snapshot;
        for (const auto& n : last.nodes) {
            const std::string& l = torch.at(static_cast<size_t>(n.line - 1));
            QVERIFY2(l.find(" = " + n.kind) != std::string::npos, l.c_str());
            if (!n.outputs.empty())
                QCOMPARE(l.find_first_not_of(' '), l.find("%" + n.outputs[0] + " : "));
        }
    }
};

T2N_TEST_SUITE(ProvenanceTest)
#include "tst_provenance.moc"
