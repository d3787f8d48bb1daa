// Every fixture model exports and checks against its TorchScript model (the
// reference interpreter at 'approximate', or the level its fixture states
// with a reason), and an independent reader
// (tests/tools/verify_nnef_archive.py: Python, numpy and torch, no code
// shared with the writer) re-reads each archive: .dat headers byte by byte
// against the NNEF spec, one .dat per variable with the declared shape, and
// every tensor equal to the model parameter it came from.
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

using namespace t2n::test;

class ExportFixturesTest : public QObject {
    Q_OBJECT

    struct Outcome {
        QString error;
        QString archive;
        int variables = 0;
        t2n::CheckReport check;
        std::map<std::string, int> torchOps; ///< kinds translated
        std::vector<std::string> warnings;
        QJsonObject verified;
        QString khronosError;      ///< op fixtures: translating for Khronos ("" = it works)
        bool khronosTried = false; ///< op fixtures without dynamic axes
    };
    std::map<QString, Outcome> outcomes_;
    QStringList names_;
    std::filesystem::path work_;

    // Rotate through the three artifact forms so that each is read back.
    static std::pair<std::string, std::optional<int>> formFor(int i) {
        switch (i % 3) {
        case 0:
            return {".nnef.tar", 0};
        case 1:
            return {".nnef.tgz", 1};
        default:
            return {".nnef", std::nullopt};
        }
    }

private Q_SLOTS:
    void initTestCase() {
        if (fixtureNames("torchvision").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        names_ = fixtureNames("torchvision") + fixtureNames("op") + fixtureNames("naming") +
                 fixtureNames("scripted");
        // T2N_FIXTURES=regex restricts the exports to matching fixtures (development).
        if (const char* only = std::getenv("T2N_FIXTURES"))
            names_ = names_.filter(QRegularExpression(QString::fromUtf8(only)));
        work_ = freshDir("export_fixtures");
        QJsonArray jobs;
        int i = 0;
        for (const QString& name : names_) {
            auto [suffix, level] = formFor(i++);
            auto out = work_ / (name.toStdString() + suffix);
            auto reportPath = work_ / (name.toStdString() + ".report.json");
            Outcome& o = outcomes_[name];
            try {
                t2n::ExportOptions options = fixtureOptions(name);
                options.compressionLevel = level;
                // Inputs that reach no output are dropped here; the io
                // quantity rule itself is tested in export_options.
                options.checkIoNamesQuantityMatch = false;
                t2n::Session session;
                session.load(fixtureModel(name));
                t2n::ExportReport report = session.exportModel(out, options);
                std::ofstream(reportPath) << report.toJson();
                // Fixtures with dynamic axes are about sizes that follow a
                // symbol, which only tract reads: their Khronos form says
                // nothing of the column.
                o.khronosTried = name.startsWith("op_") && options.dynamicAxes.empty();
                if (o.khronosTried) {
                    t2n::ExportOptions khronos = options;
                    khronos.target = t2n::TargetSpec::parse("khronos");
                    try {
                        session.translate(khronos);
                    } catch (const t2n::Error& e) {
                        o.khronosError = QString::fromStdString(e.render());
                    }
                }
                o.archive = QString::fromStdString(report.artifact.path.string());
                o.check = report.check;
                o.torchOps = report.torchOps;
                o.warnings = report.warnings;
                o.variables = static_cast<int>(report.variables.size());
                jobs.append(QJsonObject{{"archive", o.archive},
                                        {"model", QString::fromStdString(fixtureModel(name))},
                                        {"report", QString::fromStdString(reportPath)}});
            } catch (const t2n::Error& e) {
                o.error = QString::fromStdString(e.render());
            }
        }
        auto batch = work_ / "batch.json";
        QFile f(QString::fromStdString(batch));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(jobs).toJson());
        f.close();
        auto script = sourceDir() / "tests/tools/verify_nnef_archive.py";
        ProcessResult r = run(
            python(), {QString::fromStdString(script), "--batch", QString::fromStdString(batch)});
        QVERIFY2(!r.timedOut, "the verifier timed out");
        QJsonArray summaries = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QVERIFY2(summaries.size() == jobs.size(), qPrintable(r.err.left(2000)));
        for (const auto& s : summaries) {
            QJsonObject o = s.toObject();
            for (auto& [name, outcome] : outcomes_)
                if (outcome.archive == o.value("archive").toString())
                    outcome.verified = o;
        }
    }

    void atLeastTwelveTorchvisionFamilies() {
        QVERIFY2(fixtureNames("torchvision").size() >= 12,
                 qPrintable(fixtureNames("torchvision").join(", ")));
    }

    void exportsAndReadsBack_data() {
        QTest::addColumn<QString>("name");
        for (const QString& n : names_)
            QTest::newRow(qPrintable(n)) << n;
    }
    void exportsAndReadsBack() {
        QFETCH(QString, name);
        const Outcome& o = outcomes_.at(name);
        const QString known = fixtureInfo(name).value("expect_check_failure").toString();
        if (!known.isEmpty() && !o.error.isEmpty())
            QSKIP(qPrintable("expected failure: " + known));
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        QVERIFY2(!o.verified.isEmpty(), "the independent reader gave no result");
        QStringList problems;
        for (const auto& p : o.verified.value("problems").toArray())
            problems << p.toString();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
        // The reader saw exactly the variables the report lists.
        QCOMPARE(o.verified.value("variables").toInt(), o.variables);
        QCOMPARE(o.verified.value("graph").toString(), QString("network"));
    }

    // The export computes what the model computes: every output compared,
    // with its figures in the report.
    void checksAgainstTorchScript_data() { exportsAndReadsBack_data(); }
    void checksAgainstTorchScript() {
        QFETCH(QString, name);
        const Outcome& o = outcomes_.at(name);
        // Known gaps stay visible: the fixture's json says why it does not check
        // yet, and the row fails once it does (so that the entry is removed).
        const QString known = fixtureInfo(name).value("expect_check_failure").toString();
        if (!known.isEmpty()) {
            QVERIFY2(!o.check.passed, "checks now: drop its expect_check_failure");
            QSKIP(qPrintable("expected failure: " + known));
        }
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        // Every operation emitted was declared by its lowering (registry.h).
        for (const auto& w : o.warnings)
            QVERIFY2(!QString::fromStdString(w).contains("t2n bug"), w.c_str());
        QVERIFY(o.check.ran);
        QStringList problems;
        for (const auto& p : o.check.structureProblems)
            problems << QString::fromStdString(p);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
        QVERIFY2(!o.check.outputs.empty(), "no output was compared");
        for (const auto& out : o.check.outputs) {
            QVERIFY2(out.ok,
                     qPrintable(QString("%1: %2 of %3 elements beyond %4, max abs error "
                                        "%5, max rel error %6 %7; divergence: %8 %9")
                                    .arg(QString::fromStdString(out.name))
                                    .arg(out.mismatches)
                                    .arg(out.elements)
                                    .arg(QString::fromStdString(o.check.tolerance))
                                    .arg(out.maxAbsError)
                                    .arg(out.maxRelError)
                                    .arg(QString::fromStdString(out.note))
                                    .arg(QString::fromStdString(o.check.divergence.identifier))
                                    .arg(QString::fromStdString(o.check.divergence.detail))));
            QVERIFY(out.elements > 0);
        }
        QVERIFY(o.check.passed);
        QVERIFY(QString::fromStdString(o.check.tract).startsWith("tract: "));
        // Dynamic-axis fixtures were also run at a second size of every symbol.
        if (!fixtureInfo(name).value("dynamic_axes").toArray().isEmpty()) {
            int resized = 0;
            for (const auto& out : o.check.outputs)
                resized += out.name.find(" @ ") != std::string::npos;
            QCOMPARE(resized, fixtureInfo(name).value("num_outputs").toInt());
        }
    }

    // Every kind of the supported-operator table is translated by a fixture
    // whose export checks against TorchScript here (numbers from PyTorch), or
    // is checked by the suite named below.
    void everySupportedKindIsChecked() {
        if (std::getenv("T2N_FIXTURES"))
            QSKIP("only some fixtures were exported (T2N_FIXTURES)");
        static const std::map<std::string, std::string> elsewhere{
            {"aten::quantize_per_tensor", "quantized"},
            {"aten::dequantize", "quantized"},
            {"quantized::conv2d", "quantized"},
            {"quantized::conv2d_relu", "quantized"},
            {"quantized::linear", "quantized"},
            {"quantized::linear_relu", "quantized"},
            {"quantized::add", "quantized"},
            {"quantized::add_relu", "quantized"},
            // Hardening folds every tuple unpack of a tuple it can see
            // (fold_tuple_unpack_through_tuple_construct); the lowering stays
            // for the others.
            {"prim::TupleUnpack", "harden_folds"},
            // Hardening turns fill_ / zero_ into full_like / zeros_like; the
            // functional kinds serve the in-place ones it keeps (IR snippets).
            {"aten::fill", "translate_elementwise"},
            {"aten::zero", "translate_elementwise"},
            // Random draws (tract_onnx_random) cannot match PyTorch element by
            // element; translate_random checks them by distribution, and
            // bad_inputs exports scripted models that draw.
            {"aten::rand", "translate_random"},
            {"aten::rand_like", "translate_random"},
            {"aten::randn", "translate_random"},
            {"aten::randn_like", "translate_random"},
            {"aten::normal", "translate_random"},
            {"aten::normal_", "translate_random"},
            {"aten::uniform", "translate_random"},
            {"aten::uniform_", "translate_random"},
            // Packed sequences and the device/dtype no-ops: IR snippets
            // checked against LibTorch's own kernels.
            {"aten::_pack_padded_sequence", "translate_rnn"},
            {"aten::_pad_packed_sequence", "translate_rnn"},
            {"aten::as_tensor", "translate_shape"},
            {"aten::cpu", "translate_shape"},
        };
        // Kinds no numeric comparison can check: empty's contents are
        // unspecified (t2n writes zeros), so PyTorch gives no reference
        // values. Their shapes follow S as ones' do (op_sym_filled).
        static const std::set<std::string> unspecifiedValues{"aten::empty", "aten::empty_like",
                                                             "aten::new_empty"};
        std::set<std::string> checked;
        for (const auto& [name, o] : outcomes_)
            if (o.error.isEmpty() && o.check.passed)
                for (const auto& [kind, count] : o.torchOps)
                    checked.insert(kind);
        QStringList missing;
        for (const auto& op : t2n::supportedOperators())
            if (!checked.count(op.kind) && !elsewhere.count(op.kind) &&
                !unspecifiedValues.count(op.kind))
                missing << QString::fromStdString(op.kind);
        for (const QString& kind : missing)
            qWarning("no passing fixture translates %s", qPrintable(kind));
        QVERIFY2(missing.isEmpty(), qPrintable(QString("%1 kind(s) without a passing fixture "
                                                       "(listed above)")
                                                   .arg(missing.size())));
    }

    // The Khronos column of the supported-operator table, held against what
    // the Khronos target does with each operator fixture: one whose kinds
    // all say "yes" translates for Khronos, one with a "no" kind is refused.
    void khronosColumnHolds() {
        std::map<std::string, std::string> column;
        for (const auto& op : t2n::supportedOperators())
            column[op.kind] = op.khronos;
        int yes = 0, no = 0;
        for (const auto& [name, o] : outcomes_) {
            if (!o.khronosTried || !o.error.isEmpty() || o.torchOps.empty())
                continue;
            bool anyNo = false, allYes = true;
            for (const auto& [kind, count] : o.torchOps) {
                const std::string& c = column[kind];
                anyNo = anyNo || c.starts_with("no");
                allYes = allYes && c == "yes";
            }
            if (allYes) {
                ++yes;
                QVERIFY2(o.khronosError.isEmpty(),
                         qPrintable(name + ": every kind says yes, but: " + o.khronosError));
            } else if (anyNo) {
                ++no;
                QVERIFY2(!o.khronosError.isEmpty(),
                         qPrintable(name + ": a kind says no, but Khronos translates it"));
            }
        }
        if (!std::getenv("T2N_FIXTURES"))
            QVERIFY(yes > 100 && no > 10);
    }

    // Model weights are stored as the parameters themselves: every
    // torchvision variable is checked against a model tensor.
    void torchvisionWeightsAreParameters_data() {
        QTest::addColumn<QString>("name");
        for (const QString& n : fixtureNames("torchvision"))
            QTest::newRow(qPrintable(n)) << n;
    }
    void torchvisionWeightsAreParameters() {
        QFETCH(QString, name);
        if (!outcomes_.count(name))
            QSKIP("not exported (T2N_FIXTURES)");
        const Outcome& o = outcomes_.at(name);
        QVERIFY(!o.verified.isEmpty());
        QVERIFY(o.variables > 0);
        QCOMPARE(o.verified.value("checked_against_parameters").toInt() +
                     o.verified.value("derived").toInt(),
                 o.variables);
        QVERIFY(o.verified.value("checked_against_parameters").toInt() > 0);
    }

    // Same model and options, same bytes: tar and tgz exports are reproducible.
    void reproducibleArchives() {
        for (const char* suffix : {".nnef.tar", ".nnef.tgz"}) {
            QByteArray first;
            for (int run = 0; run < 2; ++run) {
                t2n::ExportOptions options = fixtureOptions("tv_squeezenet1_1");
                options.compressionLevel = std::string(suffix) == ".nnef.tgz" ? 6 : 0;
                auto out = work_ / (std::string("repro") + std::to_string(run) + suffix);
                t2n::Session session;
                session.load(fixtureModel("tv_squeezenet1_1"));
                session.exportModel(out, options);
                QFile f(QString::fromStdString(out));
                QVERIFY(f.open(QIODevice::ReadOnly));
                QByteArray bytes = f.readAll();
                if (run == 0)
                    first = bytes;
                else
                    QVERIFY2(bytes == first, suffix);
            }
        }
    }
};

T2N_TEST_SUITE(ExportFixturesTest)
#include "tst_export_fixtures.moc"
