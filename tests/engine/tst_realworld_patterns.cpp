// What genuine TorchScript files do that our own models did not (issue 39),
// on small fixtures with the same pattern (tests/fixtures/realworld_models.py):
// a non-tensor forward() argument given with --input (Silero VAD's `sr: int`,
// which crashed the graph runner) is folded as a constant and named in the
// report; the graph runner refuses a tensor where the graph reads an int
// instead of crashing; a quantized CNN given no input is proposed the size
// its weights state, with no candidate reaching qnnpack at a wrong size (it
// crashed there); state kept in module attributes is carried as inputs
// and outputs, or refused; and a crash in a candidate's run ends a child process,
// not t2n.
#include "export_test_util.h"
#include "harden/remove_view_mutation.h"
#include "harden_test_util.h"
#include "jit/graph_runner.h"
#include "load/isolated_run.h"
#include "load/module_loader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <caffe2/serialize/inline_container.h>
#include <csignal>
#include <sstream>
#include <torch/csrc/jit/ir/irparser.h>

using namespace t2n::test;

namespace {

std::filesystem::path realworldWork(const std::string& name) {
    auto dir = workRoot() / "realworld_patterns";
    std::filesystem::create_directories(dir);
    return dir / name;
}

t2n::ExportOptions withInputs(std::initializer_list<const char*> specs) {
    t2n::ExportOptions o;
    for (const char* s : specs)
        o.inputs.push_back(t2n::InputSpec::parse(s));
    return o;
}

bool anyWarningContains(const t2n::ExportReport& r, const std::string& words) {
    return std::any_of(r.warnings.begin(), r.warnings.end(),
                       [&](const std::string& w) { return w.find(words) != std::string::npos; });
}

} // namespace

class RealworldPatternsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureNames(QStringLiteral("realworld")).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    void sampleRateArgument_data() {
        QTest::addColumn<QString>("x");
        QTest::addColumn<QString>("sr");
        QTest::newRow("16 kHz") << "x:1x512:f32"
                                << "sr:scalar:i64=16000";
        QTest::newRow("8 kHz") << "x:1x256:f32"
                               << "sr:scalar:i64=8000";
        QTest::newRow("32 kHz folded to 16") << "x:1x1024:f32"
                                             << "sr:scalar:i64=32000";
    }

    /// Silero VAD's `sr: int` given with --input: the archive takes x only,
    /// matches the model called with that sr, and the report says so.
    void sampleRateArgument() {
        QFETCH(QString, x);
        QFETCH(QString, sr);
        t2n::ExportOptions o;
        o.inputs = {t2n::InputSpec::parse(x.toStdString()),
                    t2n::InputSpec::parse(sr.toStdString())};
        t2n::Session s;
        s.load(fixtureModel("rw_sample_rate"));
        const auto report = s.exportModel(realworldWork("sample_rate.nnef.tgz"), o);
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
        QCOMPARE(report.inputs.size(), size_t{1});
        const std::string value = sr.toStdString().substr(sr.indexOf('=') + 1);
        QVERIFY2(anyWarningContains(report, "specialised for sr = " + value),
                 qPrintable(QString::fromStdString(report.warnings.empty() ? "no warning"
                                                                           : report.warnings[0])));
        // The same fact as data, for the studio and the JSON report.
        QCOMPARE(report.specialisedFor.size(), size_t{1});
        QVERIFY2(report.specialisedFor[0].find("sr = " + value) != std::string::npos,
                 report.specialisedFor[0].c_str());
        QVERIFY(report.toJson().find("\"specialised_for\"") != std::string::npos);
    }

    /// float, bool and Optional[int] arguments reach the graph as such.
    void scalarKinds() {
        t2n::Session s;
        s.load(fixtureModel("rw_scalar_kinds"));
        const auto report =
            s.exportModel(realworldWork("scalar_kinds.nnef.tgz"),
                          withInputs({"x:2x6:f32", "gain:scalar:f32=0.5", "center:scalar:bool=1",
                                      "limit:scalar:i64=4"}));
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
        QCOMPARE(report.inputs.size(), size_t{1});
        for (const char* words : {"gain = 0.5", "center = True", "limit = 4"})
            QVERIFY2(anyWarningContains(report, std::string("specialised for ") + words), words);
    }

    /// A folded argument needs one value: a random one, or one a bool
    /// cannot hold, is refused with the argument's name and the syntax.
    void scalarRefusals_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("words");
        QTest::newRow("no value") << "sr:scalar:i64"
                                  << "one value";
        QTest::newRow("a range") << "sr:scalar:i64=0..9"
                                 << "one value";
        QTest::newRow("not whole") << "sr:scalar:f32=0.5"
                                   << "not a whole number";
        QTest::newRow("several") << "sr:2:i64=8000"
                                 << "shape 2";
    }
    void scalarRefusals() {
        QFETCH(QString, spec);
        QFETCH(QString, words);
        t2n::ExportOptions o;
        o.inputs = {t2n::InputSpec::parse("x:1x512:f32"),
                    t2n::InputSpec::parse(spec.toStdString())};
        t2n::Session s;
        s.load(fixtureModel("rw_sample_rate"));
        try {
            s.exportModel(realworldWork("refused.nnef.tgz"), o);
            QFAIL("exported");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Usage);
            const QString text = QString::fromStdString(e.render());
            QVERIFY2(text.contains("'sr'") && text.contains(words) &&
                         text.contains("--input sr:scalar:i64="),
                     qPrintable(text));
        }
    }

    /// The graph runner refuses a tensor where the graph reads an int (it
    /// handed it over and LibTorch crashed reading it as one).
    void runnerRefusesTensorForInt() {
        auto graph = std::make_shared<torch::jit::Graph>();
        torch::jit::parseIR(R"IR(
graph(%x : Tensor, %sr : int):
  %one : int = prim::Constant[value=1]()
  %twice : int = aten::mul(%sr, %one)
  %y : Tensor = aten::mul(%x, %twice)
  return (%y))IR",
                            graph.get());
        try {
            t2n::jit::runGraph(nullptr, *graph, {torch::ones({2}), torch::tensor(16000)});
            QFAIL("ran");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Usage);
            QVERIFY2(e.message().find("'sr' is of type int") != std::string::npos,
                     e.message().c_str());
        }
    }

    /// No --input: the quantized CNN is proposed 1x1x28x28, the size its
    /// linear layer's packed weight states; the larger common sizes are
    /// refused by the guard with the weight's width, before qnnpack sees
    /// them (224 crashed t2n, 32 "ran" on memory beyond the weight).
    void quantizedProposal() {
        t2n::Session s;
        s.load(fixtureModel("rw_quantized_mnist"));
        const auto p = s.proposeInputs();
        QVERIFY(p.confirmed);
        QCOMPARE(p.inputs.size(), size_t{1});
        QCOMPARE(p.inputs[0].spec.shape, (std::vector<int64_t>{1, 1, 28, 28}));
        bool statedWidth = false;
        for (const auto& a : p.attempts)
            statedWidth =
                statedWidth || a.error.find("expects 3136 input features") != std::string::npos;
        QVERIFY(statedWidth);
    }

    void stateCarried_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QStringList>("specs");
        QTest::addColumn<QStringList>("states");
        QTest::newRow("assigned in a branch, sr 16000")
            << "rw_state_assigned" << QStringList{"x:1x16:f32", "sr:scalar:i64=16000"}
            << QStringList{"_state", "_context"};
        QTest::newRow("assigned in a branch, sr 8000")
            << "rw_state_assigned" << QStringList{"x:1x16:f32", "sr:scalar:i64=8000"}
            << QStringList{"_state", "_context"};
        QTest::newRow("buffers written in place") << "rw_state_in_place" << QStringList{"x:1x6:f32"}
                                                  << QStringList{"hidden_state", "cell_state"};
        // kws_crnn's window of frames, a list attribute: carried stacked.
        QTest::newRow("a list of frames and a GRU state")
            << "rw_state_window" << QStringList{"chunk:1x4x3:f32"}
            << QStringList{"frame_buffer", "last_hidden_state"};
        // kws_crnn's loop itself: quantize_dynamic's GRU, 10 window slides,
        // the running maximum returned as a float.
        QTest::newRow("a quantized GRU over a sliding window, a float returned")
            << "rw_state_window_qgru" << QStringList{"chunk:1x4x10:f32"}
            << QStringList{"frame_buffer", "last_hidden_state"};
    }

    /// State forward() keeps in attributes is an input and an output of the
    /// archive, named after the attribute, and the report says so; the
    /// archive matches the model on the state it settles at (the in-place
    /// policy failed the check at aten::lstm, the assigned one passed while
    /// the archive forgot the state after the first call).
    void stateCarried() {
        QFETCH(QString, fixture);
        QFETCH(QStringList, specs);
        QFETCH(QStringList, states);
        t2n::ExportOptions o;
        for (const auto& spec : specs)
            o.inputs.push_back(t2n::InputSpec::parse(spec.toStdString()));
        t2n::Session s;
        s.load(fixtureModel(fixture));
        const auto report = s.exportModel(realworldWork(fixture.toStdString() + ".nnef.tgz"), o);
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
        for (const auto& state : states) {
            const std::string name = state.toStdString();
            QVERIFY2(std::find(report.inputs.begin(), report.inputs.end(), name) !=
                         report.inputs.end(),
                     name.c_str());
            QVERIFY2(std::find(report.outputs.begin(), report.outputs.end(), name + "_out") !=
                         report.outputs.end(),
                     name.c_str());
            QVERIFY2(anyWarningContains(report, "keeps state in module attribute '" + name + "'"),
                     name.c_str());
            // As data: the attribute, its input and output, its shape.
            auto c = std::find_if(
                report.state.begin(), report.state.end(),
                [&](const t2n::CarriedState& carried) { return carried.attribute == name; });
            QVERIFY2(c != report.state.end(), name.c_str());
            QCOMPARE(c->input, name);
            QCOMPARE(c->output, name + "_out");
            QVERIFY(!c->shape.empty());
        }
        QCOMPARE(report.state.size(), static_cast<size_t>(states.size()));
    }

    /// A file whose code calls an operator LibTorch alone does not have: an
    /// extension library's (torch_scatter::scatter_mul, as in a genuine
    /// SchNet file) or a newer PyTorch's (aten::rms_norm). The load error
    /// says which, and what the user can do, instead of "save the model
    /// again with the PyTorch version t2n was built with". The archives are
    /// a saved module whose code/ is rewritten record by record.
    void missingOperatorSaidInWords_data() {
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("hint");
        QTest::newRow("extension") << "ops.torch_scatter.scatter_mul("
                                   << "an operator of the torch_scatter extension library"
                                   << "replace the call with PyTorch operators";
        QTest::newRow("newer aten") << "torch.rms_norm("
                                    << "calls aten::rms_norm, which LibTorch"
                                    << "save the model with PyTorch";
    }
    void missingOperatorSaidInWords() {
        QFETCH(QString, call);
        QFETCH(QString, message);
        QFETCH(QString, hint);
        torch::jit::Module m("Calls");
        m.define("def forward(self, x):\n    return torch.relu(x)\n");
        std::ostringstream saved;
        m.save(saved);
        const std::string bytes = saved.str();
        std::istringstream in(bytes);
        caffe2::serialize::PyTorchStreamReader reader(&in);
        const auto path = realworldWork(
            "missing_" + QString(QTest::currentDataTag()).replace(' ', '_').toStdString() + ".pt");
        int rewritten = 0;
        {
            caffe2::serialize::PyTorchStreamWriter writer(path.string());
            for (const auto& name : reader.getAllRecords()) {
                auto [data, size] = reader.getRecord(name);
                std::string text(static_cast<const char*>(data.get()), size);
                const auto at = text.find("torch.relu(");
                if (name.find("code/") != std::string::npos && name.ends_with(".py") &&
                    at != std::string::npos) {
                    text.replace(at, std::string("torch.relu(").size(), call.toStdString());
                    ++rewritten;
                }
                writer.writeRecord(name, text.data(), text.size());
            }
            writer.writeEndOfFile();
        }
        QCOMPARE(rewritten, 1);
        t2n::Session s;
        try {
            s.load(path);
            QFAIL("loaded");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.stage(), t2n::Stage::Load);
            QVERIFY2(QString::fromStdString(e.message()).contains(message), e.render().c_str());
            QVERIFY2(QString::fromStdString(e.hint()).contains(hint), e.render().c_str());
            QVERIFY2(!QString::fromStdString(e.hint()).contains("built with"), e.render().c_str());
        }
    }

    /// remove_view_mutation: a write into a slice of a clone is made
    /// functional though the clone went into a list beside another clone
    /// and a functional op read it (alias analysis merges a list's
    /// elements: the in-place LSTM policy's hidden and cell states were left
    /// written in place, and the archive returned the states it was given).
    void viewWriteIntoCloneBesideAList() {
        const char* ir = R"IR(
graph(%a : Tensor, %b : Tensor, %h : Tensor):
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %ca : Tensor = aten::clone(%a, %none)
  %cb : Tensor = aten::clone(%b, %none)
  %l : Tensor[] = prim::ListConstruct(%ca, %cb)
  %st : Tensor = aten::stack(%l, %zero)
  %n : Tensor = aten::sum(%st, %none)
  %sa : Tensor = aten::slice(%ca, %zero, %none, %none, %one)
  %wa : Tensor = aten::copy_(%sa, %h, %false)
  %sb : Tensor = aten::slice(%cb, %zero, %none, %none, %one)
  %wb : Tensor = aten::copy_(%sb, %n, %false)
  return (%ca, %cb, %n))IR";
        t2n::harden::PassContext ctx(parseGraph(ir));
        const auto before = ctx.graph->copy();
        t2n::harden::removeViewMutation(ctx);
        QCOMPARE(statistic(ctx, "writes_made_functional"), int64_t(2));
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph,
                                       {torch::randn({3}), torch::randn({3}), torch::randn({3})}));
    }

    /// An Android asset written by optimize_for_mobile: every prepacked
    /// conv / transposed conv / linear is unpacked into the aten op and its
    /// clamp, and the archive computes what LibTorch's XNNPACK kernels
    /// compute (six genuine .ptl files stopped at prepacked::*_clamp_run).
    void mobilePrepacked() {
        t2n::Session s;
        s.load(fixtureModel("rw_mobile_prepacked"));
        const auto report = s.exportModel(realworldWork("mobile_prepacked.nnef.tgz"),
                                          withInputs({"x:1x3x12x12:f32"}));
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
        QCOMPARE(report.harden.total("unpack_mobile_contexts", "contexts_unpacked"), int64_t(5));
        // As many clamps as PyTorch's contexts hold (read from their state by the generator).
        QCOMPARE(report.harden.total("unpack_mobile_contexts", "clamps_written"),
                 int64_t(fixtureInfo("rw_mobile_prepacked").value("prepacked_clamps").toInt(-1)));
    }

    void dynamicQuantization_data() {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("per-tensor weights") << "rw_dynamic_quant";
        QTest::newRow("per-channel weights") << "rw_dynamic_quant_per_channel";
    }

    /// quantize_dynamic's linears (quantized::linear_dynamic, refused
    /// before): the archive quantizes each input on its own range as
    /// PyTorch does, and matches LibTorch's quantized kernels.
    void dynamicQuantization() {
        QFETCH(QString, fixture);
        t2n::Session s;
        s.load(fixtureModel(fixture));
        const auto report = s.exportModel(realworldWork(fixture.toStdString() + ".nnef.tgz"),
                                          withInputs({"x:2x6x16:f32"}));
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
    }

    /// A file whose storages were saved on a GPU (plain torch.jit.load fails
    /// without CUDA: "Could not run 'aten::empty_strided' ... 'CUDA' backend")
    /// is read onto the CPU, and the report says so.
    void cudaSavedFile() {
        t2n::Session s;
        s.load(fixtureModel("rw_cuda_saved"));
        const auto report =
            s.exportModel(realworldWork("cuda_saved.nnef.tgz"), withInputs({"x:1x6:f32"}));
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
        QVERIFY(anyWarningContains(report, "saved on cuda:0; t2n reads them onto the CPU"));
    }

    /// fastai's tabular model for a table with no categorical columns takes
    /// an empty x_cat that reaches no output: refused at load (zero size)
    /// and at translation (unused input) before; now exported with x_cat
    /// kept in the archive's interface, and named in a warning.
    void emptyUnusedInput() {
        t2n::Session s;
        s.load(fixtureModel("rw_empty_categorical"));
        const auto report = s.exportModel(realworldWork("empty_categorical.nnef.tgz"),
                                          withInputs({"x_cat:0:f32", "x_cont:1x3:f32"}));
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
        QVERIFY2(report.check.tract.rfind("failed", 0) != 0, report.check.tract.c_str());
        QCOMPARE(report.inputs.size(), size_t(2));
        QVERIFY(anyWarningContains(report, "'x_cat' does not contribute to any output: the "
                                           "archive keeps it in its interface"));
        // Every input empty is still refused: nothing would run.
        t2n::Session empty;
        empty.load(fixtureModel("rw_empty_categorical"));
        try {
            empty.exportModel(realworldWork("all_empty.nnef.tgz"),
                              withInputs({"x_cat:0:f32", "x_cont:1x0:f32"}));
            QFAIL("exported with no data");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Usage);
            QVERIFY2(e.message().find("as every input has") != std::string::npos,
                     e.message().c_str());
        }
    }

    /// Sizes the model refuses (two Android assets' MANIFEST inputs, which
    /// XNNPACK "ran" reading past the input) are refused with the sizes the
    /// model takes as the way out, found by the input proposal.
    void refusedSizesGiveTheWayOut() {
        t2n::Session s;
        s.load(fixtureModel("proposal_cifar_head"));
        try {
            s.exportModel(realworldWork("wrong_size.nnef.tgz"),
                          withInputs({"image:1x3x64x64:f32"}));
            QFAIL("exported at a size the model refuses");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::ModelRun);
            QVERIFY2(e.hint().find("the model runs with --input image:1x3x32x32:f32") !=
                         std::string::npos,
                     e.hint().c_str());
        }
    }

    /// A model.json archive of PyTorch 1.0-1.2, which Debian's LibTorch 1.13
    /// cannot read, is built as PyTorch's legacy importer built it: it
    /// computes what eager PyTorch computed (stored by the generator), and
    /// exports and checks.
    void legacyArchive() {
        const QJsonObject info = fixtureInfo("rw_legacy_archive");
        std::vector<std::string> notes;
        auto m = t2n::load::loadTorchScript(fixtureModel("rw_legacy_archive"), &notes);
        QCOMPARE(notes.size(), size_t(1));
        QVERIFY2(notes[0].find("PyTorch 1.0-1.2 (model.json)") != std::string::npos,
                 notes[0].c_str());
        std::vector<float> in, expect;
        for (const auto& v : info.value("example_input").toArray())
            in.push_back(static_cast<float>(v.toDouble()));
        for (const auto& v : info.value("expect_output").toArray())
            expect.push_back(static_cast<float>(v.toDouble()));
        std::vector<int64_t> shape;
        for (const auto& v : info.value("expect_shape").toArray())
            shape.push_back(v.toInt());
        const at::Tensor x = torch::tensor(in).reshape({1, 1, 9, 9});
        const at::Tensor y = m.forward({x}).toTensor();
        QCOMPARE(y.sizes().vec(), shape);
        const at::Tensor want = torch::tensor(expect).reshape(y.sizes());
        QVERIFY2(torch::allclose(y, want, 1e-4, 1e-5),
                 qPrintable(QString("max |error| %1").arg((y - want).abs().max().item<double>())));

        t2n::Session s;
        s.load(fixtureModel("rw_legacy_archive"));
        const auto report =
            s.exportModel(realworldWork("legacy.nnef.tgz"), withInputs({"input:1x1x9x9:f32"}));
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
        QVERIFY2(report.check.tract.rfind("failed", 0) != 0, report.check.tract.c_str());
    }

    /// A number that changes on every call cannot be carried: refused, not
    /// frozen at the first call's value.
    void stateCounterRefused() {
        t2n::Session s;
        s.load(fixtureModel("rw_state_counter"));
        try {
            s.exportModel(realworldWork("counter.nnef.tgz"), withInputs({"x:2x3:f32"}));
            QFAIL("exported");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
            QVERIFY2(e.message().find("'steps'") != std::string::npos &&
                         e.message().find("every call") != std::string::npos,
                     e.message().c_str());
        }
    }

    /// A crash in an isolated run ends the child; its answer comes back.
    void isolatedRun() {
        const auto crashed = t2n::load::runIsolated([] { std::raise(SIGSEGV); }, 30);
        QVERIFY(crashed.crashed && !crashed.ran);
        QVERIFY2(crashed.error.find("signal 11") != std::string::npos, crashed.error.c_str());
        const auto threw = t2n::load::runIsolated(
            [] { throw std::runtime_error("RuntimeError: expected 37 features"); }, 30);
        QVERIFY(!threw.ran && !threw.crashed);
        QVERIFY2(threw.error.find("expected 37 features") != std::string::npos,
                 threw.error.c_str());
        const auto ran = t2n::load::runIsolated([] {}, 30);
        QVERIFY(ran.ran && !ran.crashed);
        const auto slow = t2n::load::runIsolated([] { ::sleep(20); }, 1);
        QVERIFY(slow.crashed && slow.error.find("did not finish") != std::string::npos);
    }
};

T2N_TEST_SUITE(RealworldPatternsTest)

// The genuine files of ../shared/realworld (beside the checkout; never
// copied into the project) that issue 39 fixed: skipped when absent.
class RealworldFilesTest : public QObject {
    Q_OBJECT

    std::filesystem::path folder_;

private Q_SLOTS:
    void initTestCase() {
        folder_ = realworldFolder();
        if (const QString absent = realworldAbsence(); !absent.isEmpty())
            QSKIP(qPrintable(absent));
    }

    void sileroVad_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("sr");
        for (const char* f : {"silero_vad_v3_1.jit", "silero_vad_v4.jit", "silero_vad_v5.jit",
                              "silero_vad_v6_2.jit"})
            for (int sr : {16000, 8000})
                QTest::newRow(qPrintable(QString("%1 sr %2").arg(f).arg(sr))) << f << sr;
    }

    /// Every Silero VAD exports and checks at 16 and 8 kHz with its state
    /// carried (main crashed with SIGSEGV on v4-v6.2, v3.1 ended in an
    /// INTERNAL ASSERT).
    void sileroVad() {
        QFETCH(QString, file);
        QFETCH(int, sr);
        const auto path = folder_ / file.toStdString();
        if (!std::filesystem::exists(path))
            QSKIP("file absent");
        t2n::Session s;
        s.load(path);
        const auto report =
            s.exportModel(realworldWork("silero.nnef.tgz"),
                          withInputs({sr == 16000 ? "x:1x512:f32" : "x:1x256:f32",
                                      sr == 16000 ? "sr:scalar:i64=16000" : "sr:scalar:i64=8000"}));
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
        QVERIFY(report.inputs.size() == 3 && report.outputs.size() == 3);
        QVERIFY(anyWarningContains(report, "specialised for sr = " + std::to_string(sr)));
    }

    /// The quantized CNN with no --input: proposed the size its weights
    /// state, with no crash in qnnpack during the proposal, and exported with
    /// its per-channel weights (refused before).
    void quantizedCnnWithoutInputs() {
        const auto path = folder_ / "supisanu_cnn_int8.pt";
        if (!std::filesystem::exists(path))
            QSKIP("file absent");
        t2n::Session s;
        s.load(path);
        const auto p = s.proposeInputs();
        QVERIFY(p.confirmed);
        QCOMPARE(p.inputs.at(0).spec.shape, (std::vector<int64_t>{1, 1, 28, 28}));
        t2n::ExportOptions o;
        o.inputs = {p.inputs.at(0).spec};
        const auto report = s.exportModel(realworldWork("supisanu.nnef.tgz"), o);
        QVERIFY2(report.check.passed, qPrintable(checkVerdict(report)));
    }
};

T2N_TEST_SUITE(RealworldFilesTest)
#include "tst_realworld_patterns.moc"
