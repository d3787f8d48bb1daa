// The hardening chain as a whole: the pass table, the pass manager (observers,
// skips, the rewrite limit, failures), and the scripted fixtures: diagnostics,
// idempotence, outputs equal to the original module's, the freezing fallback,
// the JSON record and the `t2n harden` command.
#include "harden/graph_utils.h"
#include "harden/harden.h"
#include "jit/torch_bridge.h"
#include "load/module_loader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"

#include <torch/csrc/jit/passes/canonicalize.h>
#include <torch/csrc/jit/runtime/interpreter.h>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <regex>
#include <set>

using namespace t2n::test;
namespace harden = t2n::harden;

namespace {
std::vector<at::Tensor> examples(const QString& fixture, uint64_t seed) {
    return t2n::load::makeExampleInputs(fixtureOptions(fixture).inputs, seed);
}

torch::jit::Module load(const QString& fixture) {
    return t2n::load::loadTorchScript(fixtureModel(fixture));
}

// forward()'s outputs as the check flattens them (a returned float is a 0-d
// tensor, a dict's values in insertion order).
std::vector<at::Tensor> flatten(const c10::IValue& v) {
    std::vector<at::Tensor> out;
    t2n::jit::flattenTensors(v, out);
    return out;
}

// Both runs start the default generator from one seed, so that a model that
// draws (torch.distributions' sample()) gives the same draws to both, as
// long as the hardening keeps the draws and their order.
constexpr uint64_t kDrawSeed = 0x7432;

// The hardened graph run the way the trace stage runs it.
std::vector<at::Tensor> runHardened(const harden::PreparedModule& p,
                                    const std::vector<at::Tensor>& inputs) {
    torch::NoGradGuard noGrad;
    torch::manual_seed(kDrawSeed);
    torch::jit::Stack stack{p.module._ivalue()};
    for (const auto& t : inputs)
        stack.emplace_back(t);
    torch::jit::Code code(p.graph, "hardened");
    torch::jit::InterpreterState state(code);
    state.run(stack);
    return flatten(stack.back());
}

std::vector<at::Tensor> runOriginal(torch::jit::Module& m, const std::vector<at::Tensor>& inputs) {
    torch::NoGradGuard noGrad;
    torch::manual_seed(kDrawSeed);
    return flatten(m.forward(std::vector<c10::IValue>(inputs.begin(), inputs.end())));
}

QStringList jsonStrings(const QJsonValue& v) {
    QStringList out;
    for (const auto& s : v.toArray())
        out << s.toString();
    return out;
}

// Graph text up to naming: values renumbered, TorchScript's class-name
// mangling dropped (each clone of a module gets new names).
std::string unmangled(torch::jit::Graph& g) {
    static const std::regex mangle(R"(___torch_mangle_\d+\.)");
    auto canonical = torch::jit::Canonicalize(g.copy(), /*keep_unique_names=*/false);
    return std::regex_replace(harden::graphText(*canonical), mangle, "");
}

bool anyContains(const std::vector<std::string>& texts, const std::string& part) {
    for (const auto& t : texts)
        if (t.find(part) != std::string::npos)
            return true;
    return false;
}

class Recorder : public harden::PassObserver {
public:
    void beforePass(const harden::PassInfo& p, int round, const torch::jit::Graph&) override {
        events.push_back("before " + std::string(p.name) + " " + std::to_string(round));
    }
    void afterPass(const harden::PassInfo& p, const harden::PassRecord& r,
                   const torch::jit::Graph& g) override {
        events.push_back("after " + std::string(p.name) + " " + std::to_string(r.round));
        nodesSeen.push_back(harden::countNodes(g));
    }
    void afterPassFailed(const harden::PassInfo& p, int, const torch::jit::Graph&,
                         const std::string& error) override {
        events.push_back("failed " + std::string(p.name) + ": " + error);
    }
    std::vector<std::string> events;
    std::vector<int64_t> nodesSeen;
};
} // namespace

class HardenChainTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureNames("scripted").isEmpty())
            QSKIP("no scripted fixtures: run the fixtures.generate test first");
    }

    /// Every pass has a unique name, a summary and declared statistics, and the
    /// repeating folding group is one contiguous run of the table.
    void passTableIsConsistent() {
        std::set<std::string> names;
        int groups = 0;
        bool inGroup = false;
        for (const auto& p : harden::passDescriptions()) {
            QVERIFY2(names.insert(p.name).second, p.name.c_str());
            QVERIFY(!p.summary.empty());
            QVERIFY2(!p.statistics.empty(), p.name.c_str());
            if (p.repeats && !inGroup)
                ++groups;
            inGroup = p.repeats;
        }
        QCOMPARE(groups, 1);
        QCOMPARE(harden::passDescriptions().front().name, std::string("freeze_module"));
        QCOMPARE(harden::passDescriptions().back().name, std::string("eliminate_dead_code"));
    }

    /// Observers see every pass that runs, before and after, with the graph the record counts.
    void observersSeeEveryPass() {
        auto m = load("scripted_pat_dim_branch");
        Recorder rec;
        harden::PassObserver* observers[] = {&rec};
        auto p = harden::hardenForExport(m, examples("scripted_pat_dim_branch", 0), {}, observers);
        const auto& passes = p.diagnostics.passes;
        QCOMPARE(rec.events.size(), 2 * passes.size());
        for (size_t i = 0; i < passes.size(); ++i) {
            QCOMPARE(rec.events[2 * i],
                     "before " + passes[i].name + " " + std::to_string(passes[i].round));
            QCOMPARE(rec.events[2 * i + 1],
                     "after " + passes[i].name + " " + std::to_string(passes[i].round));
            QCOMPARE(rec.nodesSeen[i], passes[i].nodes);
            QVERIFY(!passes[i].graphText.empty());
        }
        QCOMPARE(harden::countNodes(*p.graph), p.diagnostics.nodesAfter);
    }

    /// A pass that fails is reported to observers by name; when it failed
    /// because the model itself fails on the example inputs, the error is the
    /// model's (its message and line), not the pass's.
    void failingPassIsNamed() {
        auto m = load("scripted_pat_data_dependent_if");
        Recorder rec;
        harden::PassObserver* observers[] = {&rec};
        try {
            // Length 3 is padded to 4, which view(4, -1, 2) cannot hold.
            harden::hardenForExport(m, {torch::ones({3})}, {}, observers);
            QFAIL("no error");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.stage(), t2n::Stage::Harden);
            QCOMPARE(e.code(), t2n::ErrorCode::ModelRun);
            QVERIFY2(e.message().find("the model failed on the example inputs: RuntimeError: "
                                      "shape '[4, -1, 2]' is invalid") != std::string::npos,
                     e.message().c_str());
            QVERIFY(!rec.events.empty());
            QVERIFY2(rec.events.back().starts_with("failed fold_data_dependent_ifs"),
                     rec.events.back().c_str());
        }
    }

    /// Skipped passes are recorded as skipped; an unknown name is a usage error.
    void skipSet() {
        auto m = load("scripted_pat_data");
        harden::HardenOptions o;
        o.skip = {"strip_prim_data"};
        auto p = harden::hardenForExport(m, examples("scripted_pat_data", 0), o);
        QCOMPARE(p.diagnostics.total("strip_prim_data", "data_reads_stripped"), int64_t(0));
        for (const auto& r : p.diagnostics.passes)
            if (r.name == "strip_prim_data")
                QVERIFY(r.skipped);
        QVERIFY(harden::graphText(*p.graph).find("prim::data") != std::string::npos);
        o.skip = {"no_such_pass"};
        try {
            harden::hardenForExport(m, examples("scripted_pat_data", 0), o);
            QFAIL("accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Usage);
            QVERIFY(e.hint().find("fold_constant_ifs") != std::string::npos);
        }
    }

    /// With a rewrite limit N the chain makes exactly min(N, all) rewrites, and a limit
    /// at the total gives the unlimited graph: the steps of `--harden-step N`.
    void rewriteLimitSteps() {
        auto m = load("scripted_vad_like");
        auto in = examples("scripted_vad_like", 0);
        auto full = harden::hardenForExport(m, in);
        const int64_t total = full.diagnostics.rewrites;
        QVERIFY(total > 10);
        for (int64_t n : {int64_t(0), int64_t(1), int64_t(5), total - 1, total}) {
            harden::HardenOptions o;
            o.rewriteLimit = n;
            auto p = harden::hardenForExport(m, in, o);
            QCOMPARE(p.diagnostics.rewrites, n);
            bool limited = false;
            for (const auto& r : p.diagnostics.passes)
                limited = limited || r.limited;
            QCOMPARE(limited, n < total);
            if (n == total)
                QCOMPARE(unmangled(*p.graph), unmangled(*full.graph));
            // Every step is a graph that still computes the model.
            auto expect = runOriginal(m, in);
            auto got = runHardened(p, in);
            for (size_t i = 0; i < expect.size(); ++i)
                QVERIFY(torch::allclose(expect[i], got[i], 1e-5, 1e-5));
        }
    }

    /// The silero-vad-like model: each pass whose pattern it carries counts something,
    /// with freezing and without; the second run of the chain counts nothing.
    void vadLikeDiagnostics_data() {
        QTest::addColumn<bool>("freeze");
        QTest::newRow("freeze") << true;
        QTest::newRow("no freeze") << false;
    }
    void vadLikeDiagnostics() {
        QFETCH(bool, freeze);
        const QString name = "scripted_vad_like";
        auto m = load(name);
        auto in = examples(name, 0);
        harden::HardenOptions o;
        o.freeze = freeze;
        auto p = harden::hardenForExport(m, in, o);
        const auto& d = p.diagnostics;
        QCOMPARE(d.froze, freeze);
        QCOMPARE(d.manualInline, !freeze);
        auto info = fixtureInfo(name);
        for (const auto& pass : jsonStrings(info[freeze ? "passes" : "passes_no_freeze"])) {
            int64_t n = 0;
            for (const auto& [pn, counts] : d.totals())
                if (pn == pass.toStdString())
                    for (const auto& c : counts)
                        n += c.second;
            QVERIFY2(n > 0, qPrintable(pass));
        }
        auto kinds = harden::graphText(*p.graph);
        for (const char* gone :
             {"prim::If", "prim::RaiseException", "prim::data", "aten::dim", "prim::TupleUnpack"})
            QVERIFY2(kinds.find(gone) == std::string::npos, gone);

        auto again = harden::hardenForExport(p.module, in, o);
        QCOMPARE(again.diagnostics.total(), int64_t(0));
        QCOMPARE(unmangled(*again.graph), unmangled(*p.graph));
    }

    /// Every scripted fixture hardens, a second run changes nothing (freezing on and
    /// off), and the hardened graph computes the original module's outputs on several
    /// seeded inputs (the acceptance fallback until the archive checker lands).
    void scriptedFixturesHarden_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("freeze");
        for (const auto& n : fixtureNames("scripted")) {
            QTest::newRow(qPrintable(n)) << n << true;
            QTest::newRow(qPrintable(n + " no freeze")) << n << false;
        }
    }
    void scriptedFixturesHarden() {
        QFETCH(QString, name);
        QFETCH(bool, freeze);
        auto m = load(name);
        harden::HardenOptions o;
        o.freeze = freeze;
        o.snapshots = false;
        auto p = harden::hardenForExport(m, examples(name, 0), o);
        for (int seed : {0, 1, 2}) {
            auto in = examples(name, static_cast<uint64_t>(seed));
            auto expect = runOriginal(m, in);
            auto got = runHardened(p, in);
            QCOMPARE(got.size(), expect.size());
            for (size_t i = 0; i < expect.size(); ++i)
                QVERIFY2(torch::allclose(expect[i], got[i], 1e-5, 1e-5),
                         qPrintable(QString("seed %1 output %2").arg(seed).arg(i)));
        }
        auto info = fixtureInfo(name);
        const char* key = freeze ? "passes" : "passes_no_freeze";
        for (const auto& pass : jsonStrings(info[key])) {
            int64_t n = 0;
            for (const auto& [pn, counts] : p.diagnostics.totals())
                if (pn == pass.toStdString())
                    for (const auto& c : counts)
                        n += c.second;
            QVERIFY2(n > 0, qPrintable(pass));
        }
        // The fallback removes what made freezing fail, so a second run with freezing
        // on freezes what the first could not; with the same outcome it changes nothing.
        harden::HardenOptions second = o;
        second.freeze = freeze && p.diagnostics.froze;
        auto again = harden::hardenForExport(p.module, examples(name, 0), second);
        QString rewrote; // which passes still rewrote, for the failure message
        for (const auto& [pn, counts] : again.diagnostics.totals())
            for (const auto& c : counts)
                if (c.second > 0)
                    rewrote += QString(" %1:%2=%3").arg(pn.c_str(), c.first.c_str()).arg(c.second);
        QVERIFY2(again.diagnostics.total() == 0, qPrintable("second run rewrote:" + rewrote));
        if (info["value_dependent"].toBool())
            QVERIFY(!p.diagnostics.warnings.empty());
    }

    /// The hardened module is a clone: the caller's module keeps its graph.
    void originalModuleUntouched() {
        auto m = load("scripted_vad_like");
        auto before = harden::graphText(*m.get_method("forward").graph());
        auto p = harden::hardenForExport(m, examples("scripted_vad_like", 0));
        QCOMPARE(harden::graphText(*m.get_method("forward").graph()), before);
        QVERIFY(harden::graphText(*p.graph) != before);
        // The prepared graph is the module's own forward: module.forward() runs it.
        QCOMPARE(p.graph.get(), p.module.get_method("forward").graph().get());
    }

    /// A model freeze_module refuses (prim::ModuleContainerIndex) hardens through the
    /// inline fallback, with a warning that says why freezing failed.
    void freezeFailureFallsBack() {
        const QString name = "scripted_pat_freeze_fails";
        QVERIFY(fixtureInfo(name)["freeze_fails"].toBool());
        auto m = load(name);
        auto in = examples(name, 0);
        auto p = harden::hardenForExport(m, in);
        const auto& d = p.diagnostics;
        QVERIFY(!d.froze);
        QVERIFY(d.manualInline);
        QVERIFY2(d.freezeError.find("ModuleContainerIndex") != std::string::npos,
                 d.freezeError.c_str());
        QVERIFY(anyContains(p.warnings, "freezing failed (Freezing modules containing "
                                        "prim::ModuleContainerIndex is not supported)"));
        QCOMPARE(d.total("inline_unresolvable_submodules", "container_indices_resolved"),
                 int64_t(1));
        auto text = harden::graphText(*p.graph);
        for (const char* gone : {"prim::ModuleContainerIndex", "prim::CallMethod", "prim::If"})
            QVERIFY2(text.find(gone) == std::string::npos, gone);
        QVERIFY(torch::allclose(runOriginal(m, in)[0], runHardened(p, in)[0], 1e-5, 1e-5));
        QVERIFY(harden::summarize(d).find("freezing failed") != std::string::npos);
    }

    /// Without freezing, nn.LSTMCell stays a module call for its module-level extractor.
    void lstmCellKeptWithoutFreezing() {
        harden::HardenOptions o;
        o.freeze = false;
        auto p = harden::hardenForExport(load("scripted_pat_lstm_cell"),
                                         examples("scripted_pat_lstm_cell", 0), o);
        auto text = harden::graphText(*p.graph);
        QVERIFY(text.find("prim::CallMethod[name=\"forward\"]") != std::string::npos);
        QVERIFY(text.find("aten::lstm_cell") == std::string::npos);
    }

    /// The old entry point still works without example inputs; run-based passes say why
    /// they skipped.
    void prepareGraphWithoutInputs() {
        auto p = harden::prepareGraph(load("scripted_pat_dim_branch"), true);
        QVERIFY(p.froze);
        bool remarked = false;
        for (const auto& r : p.diagnostics.passes)
            remarked = remarked || anyContains(r.remarks, "no example inputs");
        QVERIFY(remarked);
    }

    /// The diagnostics serialise to JSON with totals and per-pass records; graph texts on request.
    void diagnosticsJson() {
        auto p =
            harden::hardenForExport(load("scripted_vad_like"), examples("scripted_vad_like", 0));
        auto j = QJsonDocument::fromJson(QByteArray::fromStdString(harden::toJson(p.diagnostics)))
                     .object();
        QCOMPARE(j["froze"].toBool(), true);
        auto totals = j["totals"].toObject();
        QVERIFY(totals["fold_constant_ifs"].toObject()["ifs_folded"].toInt() > 0);
        QCOMPARE(j["passes"].toArray().size(), qsizetype(p.diagnostics.passes.size()));
        QVERIFY(!j["passes"].toArray().first().toObject().contains("graph"));
        auto withGraphs =
            QJsonDocument::fromJson(QByteArray::fromStdString(harden::toJson(p.diagnostics, true)))
                .object();
        auto first = withGraphs["passes"].toArray().first().toObject();
        QVERIFY(first["graph"].toString().startsWith("graph("));
        QVERIFY(withGraphs["input_graph"].toString().startsWith("graph("));
    }

    /// `t2n harden` writes NN-passname.txt snapshots and the diagnostics JSON.
    void cliHarden() {
        auto help = run(QString::fromStdString(t2nBinary().string()), {"harden", "--help"});
        if (help.exitCode != 0)
            QSKIP("this t2n binary has no harden command yet");
        auto dir = freshDir("harden_cli");
        QStringList args{"harden",
                         QString::fromStdString(fixtureModel("scripted_vad_like").string())};
        args << fixtureInputArgs("scripted_vad_like") << "--diagnostics"
             << QString::fromStdString((dir / "diag.json").string()) << "--dump-dir"
             << QString::fromStdString((dir / "steps").string());
        auto r = run(QString::fromStdString(t2nBinary().string()), args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(std::filesystem::exists(dir / "steps" / "00-input.txt"));
        QVERIFY(std::filesystem::exists(dir / "steps" / "01-freeze_module.txt"));
        auto files = QDir(QString::fromStdString((dir / "steps").string())).entryList(QDir::Files);
        QVERIFY(files.last().endsWith("-eliminate_dead_code.txt"));
        QFile f(QString::fromStdString((dir / "diag.json").string()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        auto doc = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(doc["froze"].toBool());
        QVERIFY(
            doc["totals"].toObject()["strip_prim_data"].toObject()["data_reads_stripped"].toInt() >
            0);
    }
};

T2N_TEST_SUITE(HardenChainTest)
#include "tst_harden_chain.moc"
