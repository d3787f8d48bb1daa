// Bad input gets a clear error naming the stage, the node (kind, module
// path, source line) and a hint, and nothing is written: no partial
// artifact, and an existing artifact at the destination stays as it was.
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <torch/script.h>

#include <QJsonArray>
#include <QTest>

#include <fstream>
#include <sstream>

using namespace t2n::test;
namespace fs = std::filesystem;

namespace {
// Runs a full export and returns the error it must raise.
t2n::Error exportError(const fs::path& model, const fs::path& out, t2n::ExportOptions options) {
    try {
        t2n::Session s;
        s.load(model);
        s.exportModel(out, options);
    } catch (const t2n::Error& e) {
        return e;
    }
    return t2n::Error(t2n::Stage::Report, t2n::ErrorCode::Internal, "NO ERROR RAISED");
}

int entries(const fs::path& dir) {
    int n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
        ++n;
    return n;
}
} // namespace

class ExportErrorsTest : public QObject {
    Q_OBJECT
    fs::path work_;

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo("err_unsupported_ops").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        work_ = freshDir("export_errors");
    }

    // Both unsupported kinds are reported at once, each with its module path
    // and the line of the Python source that the fixture recorded.
    void unsupportedOperatorsAllListed() {
        fs::path dir = work_ / "unsupported";
        fs::create_directories(dir);
        auto e = exportError(fixtureModel("err_unsupported_ops"), dir / "m.nnef.tgz",
                             fixtureOptions("err_unsupported_ops"));
        QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
        QCOMPARE(e.stage(), t2n::Stage::Translate);
        QString text = QString::fromStdString(e.render());
        const QJsonArray expected =
            fixtureInfo("err_unsupported_ops").value("expect_unsupported").toArray();
        QCOMPARE(expected.size(), 2);
        for (const auto& v : expected) {
            QJsonObject x = v.toObject();
            const QString kind = x.value("kind").toString();
            QVERIFY2(QString::fromStdString(e.message()).contains(kind), qPrintable(text));
            bool found = false;
            for (const auto& d : e.details()) {
                if (QString::fromStdString(d.node.kind) != kind)
                    continue;
                found = true;
                QCOMPARE(QString::fromStdString(d.node.modulePath),
                         x.value("module_path").toString());
                QCOMPARE(d.node.sourceLine, x.value("source_line").toInt());
                QVERIFY(QString::fromStdString(d.node.sourceFile).endsWith("generate.py"));
                QVERIFY2(!d.node.sourceText.empty(), qPrintable(text));
            }
            QVERIFY2(found, qPrintable(kind + " missing from:\n" + text));
        }
        QVERIFY(!e.hint().empty());
        QCOMPARE(entries(dir), 0);
    }

    // A length that follows the dynamic axis through S & 4, which t2n
    // cannot compute in the graph: refused (not frozen at the example's 4,
    // which both probe sizes happen to give), naming the slice that reads it
    // with its module path and source line, and the node that computes it.
    void dynamicSizeNotFollowed() {
        const QString name = "err_dynamic_unfollowable";
        if (fixtureInfo(name).isEmpty())
            QSKIP("fixture err_dynamic_unfollowable not generated");
        fs::path dir = work_ / "unfollowable";
        fs::create_directories(dir);
        auto e = exportError(fixtureModel(name), dir / "m.nnef.tgz", fixtureOptions(name));
        QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
        QCOMPARE(e.stage(), t2n::Stage::Translate);
        const QString text = QString::fromStdString(e.render());
        QCOMPARE(e.details().size(), size_t(1));
        const auto& d = e.details().front();
        const QJsonObject want =
            fixtureInfo(name).value("expect_unsupported").toArray().at(0).toObject();
        QCOMPARE(QString::fromStdString(d.node.kind), want.value("kind").toString());
        QCOMPARE(QString::fromStdString(d.node.modulePath), want.value("module_path").toString());
        QCOMPARE(d.node.sourceLine, want.value("source_line").toInt());
        QVERIFY(QString::fromStdString(d.node.sourceFile).endsWith("symbolic_models.py"));
        QVERIFY2(text.contains("aten::__and__") && text.contains("dynamic axes (S)"),
                 qPrintable(text));
        QCOMPARE(entries(dir), 0);
    }

    // A loop whose trip count follows tensor values cannot be unrolled: a
    // refusal naming the loop (kind, module path, source line of the fixture)
    // and why, with nothing written.
    void valueDependentLoopRefused() {
        fs::path dir = work_ / "value_loop";
        fs::create_directories(dir);
        auto e = exportError(fixtureModel("err_value_loop"), dir / "m.nnef.tgz",
                             fixtureOptions("err_value_loop"));
        QString text = QString::fromStdString(e.render());
        QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
        QCOMPARE(e.stage(), t2n::Stage::Trace);
        QVERIFY2(QString::fromStdString(e.message())
                     .contains("its trip count depends on the values of x"),
                 qPrintable(text));
        const QJsonObject want = fixtureInfo("err_value_loop").value("expect_loop").toObject();
        QCOMPARE(e.details().size(), size_t(1));
        const auto& node = e.details().front().node;
        QCOMPARE(QString::fromStdString(node.kind), want.value("kind").toString());
        QCOMPARE(QString::fromStdString(node.modulePath), want.value("module_path").toString());
        QCOMPARE(node.sourceLine, want.value("source_line").toInt());
        QVERIFY(QString::fromStdString(node.sourceFile).endsWith(want.value("file").toString()));
        // Why NNEF cannot hold it, and what exports instead: one step, with
        // the value the loop carries (x) as its input and output.
        QVERIFY2(text.contains("an NNEF graph has no loop"), qPrintable(text));
        QVERIFY2(QString::fromStdString(e.hint()).contains("the loop's body as its own method or "
                                                           "module"),
                 e.hint().c_str());
        QVERIFY2(QString::fromStdString(e.hint()).contains("x (Tensor)"), e.hint().c_str());
        QCOMPARE(entries(dir), 0);
    }

    // A greedy decoder (a GRU cell fed its argmax until EOS): the same
    // refusal, naming the `while` line, the reason and the carried values;
    // the CLI exits 4 (unsupported), never 10.
    void greedyDecodeLoopRefused() {
        const QString fixture = "err_greedy_decode_loop";
        if (fixtureInfo(fixture).isEmpty())
            QSKIP("fixture not generated");
        fs::path dir = work_ / "greedy";
        fs::create_directories(dir);
        auto e = exportError(fixtureModel(fixture), dir / "m.nnef.tgz", fixtureOptions(fixture));
        const QString text = QString::fromStdString(e.render());
        QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
        QCOMPARE(e.stage(), t2n::Stage::Trace);
        const QJsonObject want = fixtureInfo(fixture).value("expect_loop").toObject();
        QCOMPARE(e.details().size(), size_t(1));
        const auto& node = e.details().front().node;
        QCOMPARE(QString::fromStdString(node.kind), QStringLiteral("prim::Loop"));
        QCOMPARE(node.sourceLine, want.value("source_line").toInt());
        QVERIFY(QString::fromStdString(node.sourceFile).endsWith(want.value("file").toString()));
        QVERIFY2(text.contains("its trip count depends on the values of h"), qPrintable(text));
        QVERIFY2(text.contains("an NNEF graph has no loop"), qPrintable(text));
        const QString hint = QString::fromStdString(e.hint());
        for (const char* carried : {"h (Tensor)", "tok (Tensor)"})
            QVERIFY2(hint.contains(carried), qPrintable(hint));
        QVERIFY2(hint.contains("argmax == EOS"), qPrintable(hint));
        QCOMPARE(entries(dir), 0);

        const auto r = runT2n({"export", QString::fromStdString(fixtureModel(fixture).string()),
                               "-o", QString::fromStdString((dir / "cli.nnef.tgz").string()),
                               "--input", "h:1x16:f32"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(
            r.err.contains(
                QStringLiteral("size_rule_models.py:%1").arg(want.value("source_line").toInt())),
            qPrintable(r.err));
        QVERIFY2(r.err.contains("the loop's body as its own method or module"), qPrintable(r.err));
    }

    // An operator whose output size follows the values (nonzero) cannot be
    // written in NNEF: the refusal says so, and what to do instead.
    void sizeByValuesRefused() {
        torch::jit::Module m("NonZero");
        m.define(R"(
def forward(self, x):
    return torch.nonzero(x)
)");
        const fs::path model = work_ / "nonzero.pt";
        m.save(model.string());
        t2n::ExportOptions o;
        o.inputs = {t2n::InputSpec::parse("x:2x3:f32")};
        auto e = exportError(model, work_ / "nonzero.nnef.tgz", o);
        QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
        const QString text = QString::fromStdString(e.render());
        QVERIFY2(text.contains("the size of its output depends on the input's values"),
                 qPrintable(text));
        QVERIFY2(text.contains("torch.where"), qPrintable(text));
    }

    void missingModelFile() {
        auto e = exportError(work_ / "no-such-model.pt", work_ / "m.nnef.tar", {});
        QCOMPARE(e.code(), t2n::ErrorCode::ModelFile);
        QCOMPARE(e.stage(), t2n::Stage::Load);
        QVERIFY(QString::fromStdString(e.message()).contains("no-such-model.pt"));
        QVERIFY(QString::fromStdString(e.message()).contains("does not exist"));
    }

    void notTorchScript_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("hint");
        QTest::newRow("state_dict pickle") << "err_not_torchscript"
                                           << "torch.save";
        QTest::newRow("random bytes") << "err_garbage"
                                      << "torch.jit.save";
    }
    void notTorchScript() {
        QFETCH(QString, fixture);
        QFETCH(QString, hint);
        auto e = exportError(fixtureModel(fixture), work_ / "m.nnef.tar", {});
        QCOMPARE(e.code(), t2n::ErrorCode::ModelFile);
        QVERIFY(QString::fromStdString(e.message()).contains("not a TorchScript archive"));
        QVERIFY2(QString::fromStdString(e.hint()).contains(hint), e.hint().c_str());

        // The same bytes from memory: the same refusal, naming what the
        // caller called them.
        const std::vector<std::byte> bytes = fileBytes(fixtureModel(fixture));
        std::istringstream in(
            std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        t2n::Session s;
        try {
            s.load(in, "<buffer>");
            QFAIL("loaded");
        } catch (const t2n::Error& m) {
            QCOMPARE(m.code(), t2n::ErrorCode::ModelFile);
            std::string expected = e.message();
            const std::string path = fixtureModel(fixture).string();
            expected.replace(expected.find(path), path.size(), "<buffer>");
            QCOMPARE(m.message(), expected);
            QCOMPARE(m.hint(), e.hint());
        }
    }

    void wrongNumberOfInputs() {
        t2n::ExportOptions options = fixtureOptions("naming_blocks");
        options.inputs.push_back(options.inputs.front());
        auto e = exportError(fixtureModel("naming_blocks"), work_ / "m.nnef.tar", options);
        QCOMPARE(e.code(), t2n::ErrorCode::Usage);
        QVERIFY(QString::fromStdString(e.message()).contains("1 tensor argument"));
        QVERIFY(QString::fromStdString(e.hint()).contains(
            QString("--input %1:SHAPE:DTYPE").arg(QString::fromStdString(options.inputs[0].name))));
    }

    void inputShapeTheModelRejects() {
        t2n::ExportOptions options = fixtureOptions("naming_blocks");
        options.inputs[0].shape = {2, 5, 6, 5}; // conv expects 3 channels
        auto e = exportError(fixtureModel("naming_blocks"), work_ / "m.nnef.tar", options);
        QCOMPARE(e.code(), t2n::ErrorCode::ModelRun);
        QCOMPARE(e.stage(), t2n::Stage::Trace);
        // The node it fails at is named: the first convolution, fed 5 channels.
        QCOMPARE(e.details().size(), size_t{1});
        const t2n::Diagnostic& d = e.details().front();
        QVERIFY(d.hasNode);
        QVERIFY2(QString::fromStdString(d.node.kind).contains("conv"), d.node.kind.c_str());
        QVERIFY(d.node.sourceLine > 0);
        QVERIFY(QString::fromStdString(e.render()).contains(QString::fromStdString(d.node.kind)));
    }

    void badOutputPaths_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("missing folder") << "no/such/dir/m.nnef.tar";
        QTest::newRow("wrong suffix") << "m.onnx";
        QTest::newRow("kernel folder") << "/proc/t2n-test/m.nnef.tar";
    }
    void badOutputPaths() {
        QFETCH(QString, path);
        fs::path out =
            path.startsWith('/') ? fs::path(path.toStdString()) : work_ / path.toStdString();
        auto e = exportError(fixtureModel("naming_blocks"), out, fixtureOptions("naming_blocks"));
        QCOMPARE(e.code(), t2n::ErrorCode::OutputPath);
        QVERIFY(!fs::exists(out));
    }

    // A failing export leaves a previous artifact at the same path untouched.
    void existingArtifactSurvivesFailure() {
        fs::path dir = work_ / "survive";
        fs::create_directories(dir);
        fs::path out = dir / "m.nnef.tar";
        std::ofstream(out) << "previous good archive";
        auto e = exportError(fixtureModel("err_unsupported_ops"), out,
                             fixtureOptions("err_unsupported_ops"));
        QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
        std::ifstream in(out);
        std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(QString::fromStdString(content), QString("previous good archive"));
        QCOMPARE(entries(dir), 1);
    }

    void inconsistentNames() {
        t2n::ExportOptions options = fixtureOptions("naming_blocks");
        options.outputNames = {options.inputs[0].name}; // same as the input
        auto e = exportError(fixtureModel("naming_blocks"), work_ / "m.nnef.tar", options);
        QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
        QVERIFY(QString::fromStdString(e.hint()).contains("--allow-same-io-names"));
        options.outputNames = {"a", "b"}; // one output only
        e = exportError(fixtureModel("naming_blocks"), work_ / "m.nnef.tar", options);
        QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
        options.outputNames = {"2bad"};
        e = exportError(fixtureModel("naming_blocks"), work_ / "m.nnef.tar", options);
        QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
        QVERIFY(!fs::exists(work_ / "m.nnef.tar"));
    }

    // A check given no names checks an archive exported with --output-name
    // under the archive's own names (check/archive_names.cpp); given names
    // that contradict the archive, it fails naming the outputs it has
    // instead of comparing by names the archive lacks.
    void checkGivenOtherNames() {
        const fs::path archive = work_ / "named.nnef.tgz";
        t2n::ExportOptions exported = fixtureOptions("naming_blocks");
        exported.outputNames = {"logits"};
        {
            t2n::Session s;
            s.load(fixtureModel("naming_blocks"));
            QVERIFY(s.exportModel(archive, exported).written);
        }
        t2n::Session s;
        s.load(fixtureModel("naming_blocks"));
        QVERIFY(s.check(archive, fixtureOptions("naming_blocks")).passed);
        // The same in a session that translated already with the default
        // names, as the studio has when it checks an archive after opening.
        t2n::Session prepared;
        prepared.load(fixtureModel("naming_blocks"));
        prepared.translate(fixtureOptions("naming_blocks"));
        const t2n::CheckReport again = prepared.check(archive, fixtureOptions("naming_blocks"));
        QString seen;
        for (const auto& p : again.structureProblems)
            seen += QString::fromStdString(p) + "\n";
        QVERIFY2(again.passed, qPrintable(seen));
        // And a second check in that session, of an archive with the
        // default names, is not read through the first one's names.
        const fs::path plain = work_ / "plain.nnef.tgz";
        {
            t2n::Session e;
            e.load(fixtureModel("naming_blocks"));
            QVERIFY(e.exportModel(plain, fixtureOptions("naming_blocks")).written);
        }
        const t2n::CheckReport second = prepared.check(plain, fixtureOptions("naming_blocks"));
        seen.clear();
        for (const auto& p : second.structureProblems)
            seen += QString::fromStdString(p) + "\n";
        QVERIFY2(second.passed, qPrintable(seen));
        t2n::ExportOptions contradicting = fixtureOptions("naming_blocks");
        contradicting.outputNames = {"scores"};
        t2n::Session other;
        other.load(fixtureModel("naming_blocks"));
        const t2n::CheckReport r = other.check(archive, contradicting);
        QVERIFY(!r.passed);
        QString problems;
        for (const auto& p : r.structureProblems)
            problems += QString::fromStdString(p) + "\n";
        QVERIFY2(problems.contains("no output named 'scores' (its outputs: logits)"),
                 qPrintable(problems));
    }
};

T2N_TEST_SUITE(ExportErrorsTest)
#include "tst_export_errors.moc"
