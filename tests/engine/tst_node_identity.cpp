// Stable node ids through the hardening chain: kept by passes that leave a
// node alone, events (removed / added / rewired) recorded for the folds on
// IR snippets, remarks attached to the node they are about, pointer reuse
// not mistaken for identity, and identity carried through freeze_module's
// clone of the graph on a scripted module.
#include "harden/graph_utils.h"
#include "harden/harden.h"
#include "harden/node_identity.h"
#include "harden/pass_manager.h"
#include "harden_test_util.h"
#include "load/module_loader.h"
#include "suite_macros.h"
#include "support.h"

#include <map>
#include <set>
#include <sstream>

using namespace t2n::harden;
using t2n::test::parseGraph;

namespace {
// Runs the chain on a bare graph with every pass but `only` skipped; returns
// the input snapshot and the first record of `only`.
struct OnePass {
    GraphSnapshot before;
    PassRecord record;
    ChainRun run;
};
OnePass runOnly(const char* ir, const std::string& only) {
    PassContext ctx(parseGraph(ir));
    HardenOptions o;
    for (const auto& p : passDescriptions())
        if (p.name != only)
            o.skip.insert(p.name);
    OnePass out;
    out.run = runPasses(ctx, o);
    out.before = out.run.inputSnapshot;
    for (const auto& r : out.run.records)
        if (r.name == only && !r.skipped) {
            out.record = r;
            break;
        }
    return out;
}

StableId idOfKind(const GraphSnapshot& s, const std::string& kind, int nth = 0) {
    for (const auto& n : s.nodes)
        if (n.kind == kind && nth-- == 0)
            return n.id;
    return -1;
}

struct DiagnosticsProbe {
    explicit DiagnosticsProbe(std::vector<PassRecord> records) { d.passes = std::move(records); }
    HardenDiagnostics d;
};

// node id -> event name, for comparisons against an expected map.
std::map<StableId, std::string> eventsOf(const PassRecord& r) {
    std::map<StableId, std::string> out;
    for (const auto& e : r.events)
        out[e.node] = std::string(nodeEventName(e.what));
    return out;
}
} // namespace

class NodeIdentityTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// A pass that changes nothing keeps every id, records no event, and its snapshot
    /// equals the input snapshot node for node.
    void noOpPassKeepsIds() {
        auto r = runOnly(t2n::test::kReluOnly, "fold_constant_ifs");
        QVERIFY(r.record.events.empty());
        QCOMPARE(r.record.snapshot.nodes.size(), r.before.nodes.size());
        for (size_t i = 0; i < r.before.nodes.size(); ++i) {
            QCOMPARE(r.record.snapshot.nodes[i].id, r.before.nodes[i].id);
            QCOMPARE(r.record.snapshot.nodes[i].text, r.before.nodes[i].text);
        }
        // The snapshot itself: one relu fed by the graph input, feeding the output.
        const auto& relu = r.before.nodes.at(0);
        QCOMPARE(relu.kind, std::string("aten::relu"));
        QCOMPARE(relu.inputs, std::vector<std::string>{"x"});
        QCOMPARE(relu.outputTypes, std::vector<std::string>{"Tensor"});
        QCOMPARE(r.before.inputs, std::vector<std::string>{"x"});
        bool in = false, out = false;
        for (const auto& e : r.before.edges) {
            in = in || (e.from == kGraphInput && e.to == relu.id && e.value == "x");
            out = out || (e.from == relu.id && e.to == kGraphOutput && e.value == relu.outputs[0]);
        }
        QVERIFY(in && out);
    }

    /// fold_constant_ifs: the If and its dropped branch are removed, the kept branch's
    /// node moves out (rewired), its user reads the moved node (rewired); the If's
    /// removal carries the pass's remark, and the node history tells it.
    void foldConstantIfsEvents() {
        auto r = runOnly(R"IR(
graph(%x : Tensor):
  %c : bool = prim::Constant[value=1]()
  %y : Tensor = prim::If(%c)
    block0():
      %a : Tensor = aten::relu(%x)
      -> (%a)
    block1():
      %b : Tensor = aten::neg(%x)
      -> (%b)
  %z : Tensor = aten::mul(%y, %y)
  return (%z))IR",
                         "fold_constant_ifs");
        StableId ifId = idOfKind(r.before, "prim::If");
        StableId relu = idOfKind(r.before, "aten::relu");
        StableId neg = idOfKind(r.before, "aten::neg");
        StableId mul = idOfKind(r.before, "aten::mul");
        QCOMPARE(r.before.find(relu)->parent, ifId);
        QCOMPARE(r.before.find(neg)->block, 1);
        std::map<StableId, std::string> expect{
            {ifId, "removed"}, {neg, "removed"}, {relu, "rewired"}, {mul, "rewired"}};
        QCOMPARE(eventsOf(r.record), expect);
        QCOMPARE(r.record.snapshot.find(relu)->parent, StableId(-1));
        QVERIFY(!r.record.snapshot.find(ifId));
        DiagnosticsProbe probe{r.run.records};
        auto history = nodeHistory(probe.d, ifId);
        QCOMPARE(history.size(), size_t(1));
        QCOMPARE(history[0].pass, std::string("fold_constant_ifs"));
        QCOMPARE(history[0].what, NodeEventKind::Removed);
        QVERIFY2(history[0].text.find("branch 0 kept") != std::string::npos,
                 history[0].text.c_str());
        QVERIFY(nodeHistory(probe.d, idOfKind(r.before, "prim::Constant")).empty());
    }

    /// fold_tuple_index: the TupleIndex goes, its user now reads the element directly.
    void foldTupleIndexEvents() {
        auto r = runOnly(R"IR(
graph(%x : Tensor):
  %a : Tensor = aten::relu(%x)
  %b : Tensor = aten::neg(%x)
  %t : (Tensor, Tensor) = prim::TupleConstruct(%a, %b)
  %i : int = prim::Constant[value=1]()
  %e : Tensor = prim::TupleIndex(%t, %i)
  %r : Tensor = aten::sigmoid(%e)
  return (%r))IR",
                         "fold_tuple_index_through_tuple_construct");
        std::map<StableId, std::string> expect{{idOfKind(r.before, "prim::TupleIndex"), "removed"},
                                               {idOfKind(r.before, "aten::sigmoid"), "rewired"}};
        QCOMPARE(eventsOf(r.record), expect);
        const auto* sig = r.record.snapshot.find(idOfKind(r.before, "aten::sigmoid"));
        // It now reads the value the neg node (the tuple's element 1) computes.
        QCOMPARE(sig->inputs, r.before.find(idOfKind(r.before, "aten::neg"))->outputs);
    }

    /// fold_tuple_unpack: the TupleUnpack goes, both users are rewired.
    void foldTupleUnpackEvents() {
        auto r = runOnly(R"IR(
graph(%x : Tensor):
  %a : Tensor = aten::relu(%x)
  %b : Tensor = aten::neg(%x)
  %t : (Tensor, Tensor) = prim::TupleConstruct(%a, %b)
  %p : Tensor, %q : Tensor = prim::TupleUnpack(%t)
  %r : Tensor = aten::mul(%q, %p)
  return (%r))IR",
                         "fold_tuple_unpack_through_tuple_construct");
        std::map<StableId, std::string> expect{{idOfKind(r.before, "prim::TupleUnpack"), "removed"},
                                               {idOfKind(r.before, "aten::mul"), "rewired"}};
        QCOMPARE(eventsOf(r.record), expect);
    }

    /// Scalar folding adds a constant (a fresh id, never one of the input graph's) and
    /// removes the arithmetic; its user is rewired.
    void scalarFoldAddsNode() {
        auto r = runOnly(R"IR(
graph(%x : Tensor):
  %two : int = prim::Constant[value=2]()
  %four : int = aten::mul(%two, %two)
  %y : Tensor = aten::mul(%x, %four)
  return (%y))IR",
                         "fold_constant_scalar_arithmetic");
        StableId arith = idOfKind(r.before, "aten::mul", 0);
        StableId user = idOfKind(r.before, "aten::mul", 1);
        int added = 0;
        std::set<StableId> before;
        for (const auto& n : r.before.nodes)
            before.insert(n.id);
        for (const auto& e : r.record.events) {
            if (e.what != NodeEventKind::Added)
                continue;
            ++added;
            QVERIFY(!before.count(e.node));
            QCOMPARE(r.record.snapshot.find(e.node)->kind, std::string("prim::Constant"));
            QVERIFY(r.record.snapshot.find(e.node)->text.find("value=4") != std::string::npos);
        }
        QCOMPARE(added, 1);
        auto ev = eventsOf(r.record);
        QCOMPARE(ev[arith], std::string("removed"));
        QCOMPARE(ev[user], std::string("rewired"));
    }

    /// A node replaced by a new node of the same kind is a new node (removed + added),
    /// even when the allocator hands the new node the old one's address.
    void replacementIsNotIdentity() {
        auto g = parseGraph(t2n::test::kReluOnly);
        NodeIdentity ids;
        ids.start(*g);
        for (int i = 0; i < 20; ++i) {
            auto* old = *g->nodes().begin();
            StableId oldId = ids.idOf(old);
            torch::jit::WithInsertPoint guard(old);
            auto* fresh = g->insertNode(g->create(c10::aten::relu, {g->inputs()[0]}));
            old->output()->replaceAllUsesWith(fresh->output());
            old->destroy();
            QCOMPARE(ids.idOf(fresh), StableId(-1));
            auto events = ids.update(*g);
            QCOMPARE(events.size(), size_t(2));
            QCOMPARE(events[0].node, oldId);
            QCOMPARE(events[0].what, NodeEventKind::Removed);
            QCOMPARE(events[1].what, NodeEventKind::Added);
            QVERIFY(events[1].node > oldId);
        }
    }

    /// freeze_module clones the graph: the top-level nodes keep their ids, the calls are
    /// removed, the inlined submodule nodes are added with the submodule's path; the IR
    /// nodes name ids of the final snapshot.
    void identitySurvivesFreezing() {
        const QString name = "scripted_pat_tuple_state";
        auto m = t2n::load::loadTorchScript(t2n::test::fixtureModel(name));
        auto in = t2n::load::makeExampleInputs(t2n::test::fixtureOptions(name).inputs, 0);
        auto p = hardenForExport(m, in);
        const auto& d = p.diagnostics;
        QVERIFY(d.froze);
        const PassRecord& freeze = d.passes.at(0);
        QCOMPARE(freeze.name, std::string("freeze_module"));
        std::map<std::string, int> removedKinds, addedKinds;
        std::set<StableId> removed;
        for (const auto& e : freeze.events) {
            if (e.what == NodeEventKind::Removed) {
                removed.insert(e.node);
                ++removedKinds[d.inputSnapshot.find(e.node)->kind];
            }
            if (e.what == NodeEventKind::Added) {
                const auto* n = freeze.snapshot.find(e.node);
                QVERIFY(!d.inputSnapshot.find(e.node));
                ++addedKinds[n->kind];
                if (n->kind == "aten::linear")
                    QCOMPARE(n->modulePath, std::string("cell.lin"));
            }
        }
        QCOMPARE(removedKinds["prim::CallMethod"], 2);
        QCOMPARE(addedKinds["aten::linear"], 2);
        // The calls named their receiver.
        QCOMPARE(d.inputSnapshot.find(idOfKind(d.inputSnapshot, "prim::CallMethod"))->modulePath,
                 std::string("cell"));
        // Every node of forward() that is not a call or attribute read survives with its id.
        int kept = 0;
        for (const auto& n : d.inputSnapshot.nodes) {
            if (n.kind == "prim::CallMethod" || n.kind == "prim::GetAttr")
                continue;
            const auto* after = freeze.snapshot.find(n.id);
            QVERIFY2(after || removed.count(n.id), n.text.c_str());
            if (after) {
                QCOMPARE(after->kind, n.kind);
                ++kept;
            }
        }
        QVERIFY(kept >= 3); // the tuple (h, c), hc[0] and the add
        QVERIFY(freeze.snapshot.find(idOfKind(d.inputSnapshot, "aten::add")));
        // Ids of the final graph: what the last snapshot shows and the IR will carry.
        std::set<StableId> last;
        for (const auto& n : d.passes.back().snapshot.nodes)
            last.insert(n.id);
        QCOMPARE(p.nodeIds.size(), last.size());
        for (const auto& [node, id] : p.nodeIds)
            QVERIFY(last.count(id));
    }

    /// Each snapshot node's line is the line TorchScript prints it on: inputs one per
    /// line, nested blocks with their "blockN():" and "-> (...)" lines, and a string
    /// constant holding a newline (printed escaped) counted as one line.
    void snapshotLinesAreThePrintout() {
        auto graph = parseGraph(R"IR(
graph(%x : Tensor, %y : Tensor, %n : int):
  %s : str = prim::Constant[value="a\nb"]()
  %one : int = prim::Constant[value=1]()
  %t : bool = prim::Constant[value=1]()
  %c : bool = aten::Bool(%x)
  %z : Tensor = prim::If(%c)
    block0():
      %a : Tensor = aten::add(%x, %y, %one)
      -> (%a)
    block1():
      %b : Tensor = prim::Loop(%n, %t, %y)
        block0(%i : int, %acc : Tensor):
          %m : Tensor = aten::mul(%acc, %x)
          -> (%t, %m)
      -> (%b)
  %r : Tensor = aten::relu(%z)
  %o : (Tensor, str) = prim::TupleConstruct(%r, %s)
  return (%o)
)IR");
        NodeIdentity identity;
        identity.start(*graph);
        const GraphSnapshot snap = snapshotOf(*graph, identity);
        std::vector<std::string> lines{""}; // 1-based
        std::istringstream text(graphText(*graph));
        for (std::string l; std::getline(text, l);)
            lines.push_back(l);
        QCOMPARE(snap.nodes.size(), size_t(10));
        for (const auto& n : snap.nodes) {
            QVERIFY(n.line > 0 && n.line < static_cast<int>(lines.size()));
            const std::string& l = lines[static_cast<size_t>(n.line)];
            const std::string lhs = "%" + n.outputs.at(0) + " : ";
            QVERIFY2(l.find_first_not_of(' ') == l.find(lhs), (l + " <- " + n.kind).c_str());
            QVERIFY2(l.find(" = " + n.kind) != std::string::npos, l.c_str());
        }
        QCOMPARE(snap.nodes.back().line, static_cast<int>(lines.size()) - 2); // then "return"
    }
};

T2N_TEST_SUITE(NodeIdentityTest)
#include "tst_node_identity.moc"
