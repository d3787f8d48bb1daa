// Export options of seed 000 and the tract target: dynamic axes, custom
// extensions, properties, the target version, registries, io naming rules.
#include "engine/export_test_util.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <sstream>

using namespace t2n::test;

namespace {
struct Translated {
    QString nnef;
    t2n::ExportReport report;
};

Translated translateFixture(const QString& fixture, const t2n::ExportOptions& options) {
    t2n::Session s;
    s.load(fixtureModel(fixture));
    s.translate(options);
    return {QString::fromStdString(s.nnefText()), s.report()};
}

QString body(const QString& nnef) {
    return nnef.mid(nnef.indexOf("\ngraph "));
}

// The whole export with its check, into a folder (a test may edit it).
CheckedExport exportCheckedToFolder(const QString& fixture, t2n::ExportOptions o) {
    o.compressionLevel.reset();
    return exportWithCheck(
        fixture, o, freshDir(QStringLiteral("graph-options")) / (fixture.toStdString() + ".nnef"));
}

t2n::Error refusal(const QString& fixture, const t2n::ExportOptions& o) {
    try {
        translateFixture(fixture, o);
    } catch (const t2n::Error& e) {
        return e;
    }
    return t2n::Error(t2n::Stage::Report, t2n::ErrorCode::Internal, "accepted");
}
} // namespace

class ExportOptionsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// The studio prepares a model when it opens (harden, trace,
    /// translate) and exports it next: with the same options the export
    /// does not harden or trace again, and its archive is the one a fresh
    /// session writes; other options (another seed) run every stage again.
    void exportReusesPreparedStages() {
        const auto count = [](const t2n::ExportReport& r, t2n::Stage stage) {
            return std::count_if(r.timings.begin(), r.timings.end(),
                                 [&](const t2n::StageTiming& t) { return t.stage == stage; });
        };
        t2n::ExportOptions o = fixtureOptions("tv_resnet18");
        o.compressionLevel = 0;
        const auto dir = freshDir(QStringLiteral("reuse-prepared"));
        t2n::Session studio;
        studio.load(fixtureModel("tv_resnet18"));
        studio.harden(o);
        studio.trace(o);
        studio.translate(o);
        const t2n::ExportReport once = studio.exportModel(dir / "studio.nnef.tar", o);
        QVERIFY(once.written && once.check.passed);
        QCOMPARE(count(once, t2n::Stage::Harden), 1);
        QCOMPARE(count(once, t2n::Stage::Trace), 1);
        QCOMPARE(count(once, t2n::Stage::Translate), 2);
        t2n::Session fresh;
        fresh.load(fixtureModel("tv_resnet18"));
        QVERIFY(fresh.exportModel(dir / "fresh.nnef.tar", o).written);
        QCOMPARE(readFile(dir / "studio.nnef.tar"), readFile(dir / "fresh.nnef.tar"));
        o.seed += 1;
        const t2n::ExportReport other = studio.exportModel(dir / "seed.nnef.tar", o);
        QVERIFY(other.written);
        QCOMPARE(count(other, t2n::Stage::Harden), 2);
        QCOMPARE(count(other, t2n::Stage::Trace), 2);
    }

    void initTestCase() {
        if (fixtureInfo("tv_shufflenet_v2_x0_5").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    // A dynamic batch survives: declared symbol, symbolic external shape, and
    // the reshapes of the channel shuffle take the batch from the symbol (the
    // size list is x.size(0), ...) instead of freezing the example's batch size.
    void dynamicBatch() {
        t2n::ExportOptions o = fixtureOptions("tv_shufflenet_v2_x0_5");
        o.dynamicAxes = {t2n::DynamicAxis::parse("x:0=B")};
        auto t = translateFixture("tv_shufflenet_v2_x0_5", o);
        QVERIFY(t.nnef.contains("\nextension tract_symbol B;\n"));
        const int batch = fixtureInfo("tv_shufflenet_v2_x0_5")["inputs"][0]["shape"][0].toInt();
        QVERIFY(t.nnef.contains("  x = external<scalar>(shape = [B, 3, 64, 64]);"));
        QRegularExpression reshape(R"(= reshape\(\w+, shape = \[(-?\w+),)");
        int reshapes = 0;
        for (auto it = reshape.globalMatch(t.nnef); it.hasNext(); ++reshapes)
            QCOMPARE(it.next().captured(1), QString("B"));
        QVERIFY(reshapes > 0);
        QVERIFY2(!body(t.nnef).contains(QString("shape = [%1,").arg(batch)),
                 "a batch size was frozen");
        for (const auto& w : t.report.warnings)
            QVERIFY2(w.find("dynamic") == std::string::npos, w.c_str());
    }

    void dynamicAxisErrors_data() {
        QTest::addColumn<QString>("axis");
        QTest::newRow("not an input") << "nope:0=B";
        QTest::newRow("axis out of range") << "x:4=B";
    }
    void dynamicAxisErrors() {
        QFETCH(QString, axis);
        t2n::ExportOptions o = fixtureOptions("tv_shufflenet_v2_x0_5");
        o.dynamicAxes = {t2n::DynamicAxis::parse(axis.toStdString())};
        try {
            translateFixture("tv_shufflenet_v2_x0_5", o);
            QFAIL("accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
        }
    }

    void extensionsAndProperties() {
        t2n::ExportOptions o = fixtureOptions("naming_blocks");
        o.dynamicAxes = {t2n::DynamicAxis::parse("image:0=B")};
        o.customExtensions = {"tract_assert B >= 1", "extension tract_assert B <= 8;"};
        o.properties = {{"model.revision", "r42 \"beta\""}};
        o.identityProperties = false;
        auto t = translateFixture("naming_blocks", o);
        QVERIFY(
            t.nnef.contains("extension tract_assert B >= 1;\nextension tract_assert B <= 8;\n"));
        // The quotes escaped as tract's string literal needs them.
        QVERIFY2(t.nnef.contains("(\"model.revision\", \"r42 \\\"beta\\\"\")"),
                 qPrintable(t.nnef.left(600)));
        QVERIFY(t.nnef.contains("(\"exported_model\", \"naming_blocks.pt\")"));
        for (const char* key : {"\"os\"", "\"hostname\"", "\"user\"", "\"export_date\""})
            QVERIFY2(!t.nnef.contains(key), key);

        o.identityProperties = true;
        o.stampExportDate = true;
        t = translateFixture("naming_blocks", o);
        for (const char* key : {"\"os\"", "\"hostname\"", "\"user\""})
            QVERIFY2(t.nnef.contains(key), key);
        QVERIFY(QRegularExpression(R"("export_date", "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")")
                    .match(t.nnef)
                    .hasMatch());

        // An assertion on symbols no tensor shape uses has no effect, and tract
        // 0.23.4 and newer warn about it: left out, with a warning naming it.
        // One that bounds a used symbol stays, whatever else it names.
        o.customExtensions = {"tract_assert T >= 1", "tract_assert scenario: 2 * T <= max(B, 8)",
                              "tract_assert Q <= 4"};
        t = translateFixture("naming_blocks", o);
        QVERIFY2(!t.nnef.contains("T >= 1") && !t.nnef.contains("Q <= 4"), qPrintable(t.nnef));
        QVERIFY2(t.nnef.contains("extension tract_assert scenario: 2 * T <= max(B, 8);"),
                 qPrintable(t.nnef));
        int dropped = 0;
        for (const auto& w : t.report.warnings)
            dropped += w.find("no tensor shape uses") != std::string::npos &&
                       w.find("tract 0.23.4 or newer") != std::string::npos;
        QCOMPARE(dropped, 2);

        o.customExtensions = {"tract_assert {{ B }}"};
        QVERIFY_THROWS_EXCEPTION(t2n::Error, translateFixture("naming_blocks", o));
        o.customExtensions = {};
        o.properties = {{"bad key", "v"}};
        QVERIFY_THROWS_EXCEPTION(t2n::Error, translateFixture("naming_blocks", o));
    }

    // A module read from memory (the Python module's torch.jit.save to a
    // buffer) exports to the same bytes as the same module read from its
    // file, and the archive names the module as it was named with the bytes.
    void modelFromMemory() {
        const t2n::ExportOptions o = fixtureOptions("naming_blocks");
        const auto dir = freshDir(QStringLiteral("from-memory"));
        t2n::Session fromFile;
        fromFile.load(fixtureModel("naming_blocks"));
        fromFile.exportModel(dir / "file.nnef.tgz", o);

        const std::vector<std::byte> bytes = fileBytes(fixtureModel("naming_blocks"));
        QVERIFY(!bytes.empty());
        std::istringstream in(
            std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        t2n::Session fromMemory;
        fromMemory.load(in, "naming_blocks.pt");
        const t2n::ExportReport r = fromMemory.exportModel(dir / "memory.nnef.tgz", o);
        QVERIFY(r.written && r.check.passed);
        QCOMPARE(r.model, std::string("naming_blocks.pt"));
        QVERIFY(fileBytes(dir / "memory.nnef.tgz") == fileBytes(dir / "file.nnef.tgz"));

        std::istringstream again(
            std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        t2n::Session named;
        named.load(again, "NamingBlocks");
        named.translate(o);
        QVERIFY(QString::fromStdString(named.nnefText())
                    .contains("(\"exported_model\", \"NamingBlocks\")"));
    }

    // Operator choices follow the target version through the version table:
    // tract_core_log_softmax is in 0.21.15 (a backport) and 0.22.0, not in
    // 0.21.14 nor in 0.21.13; the version is recorded.
    void targetVersion_data() {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("native");
        QTest::newRow("0.21.13") << "0.21.13" << false;
        QTest::newRow("0.21.14") << "0.21.14" << false;
        QTest::newRow("0.21.15 backport") << "0.21.15" << true;
        QTest::newRow("0.21.17") << "0.21.17" << true;
        QTest::newRow("0.22.0") << "0.22.0" << true;
        QTest::newRow("0.23.9") << "0.23.9" << true;
    }
    void targetVersion() {
        QFETCH(QString, version);
        QFETCH(bool, native);
        t2n::ExportOptions o = fixtureOptions("op_softmax_log_neg1");
        o.target = t2n::TargetSpec::parse("tract@" + version.toStdString());
        auto pinned = translateFixture("op_softmax_log_neg1", o);
        QCOMPARE(pinned.nnef.contains("tract_core_log_softmax("), native);
        QCOMPARE(pinned.nnef.contains("max_reduce("), !native);
        QCOMPARE(pinned.nnef.contains("extension tract_registry tract_core;"), native);
        QVERIFY(pinned.nnef.contains(QString("(\"tract_target_version\", \"%1\")").arg(version)));
        QVERIFY(pinned.report.warnings.empty());
    }

    // The default target is the newest version t2n knows.
    void defaultTargetIsNewest() {
        auto newest =
            translateFixture("op_softmax_log_neg1", fixtureOptions("op_softmax_log_neg1"));
        QVERIFY(newest.nnef.contains(
            QString("(\"tract_target_version\", \"%1\")")
                .arg(QString::fromStdString(t2n::knownTractVersions().back()))));
        QCOMPARE(QString::fromStdString(t2n::knownTractVersions().back()), QString("0.23.9"));
    }

    // A registry is declared only when its operations are used.
    void registriesOnlyWhenUsed() {
        auto plain = translateFixture("naming_blocks", fixtureOptions("naming_blocks"));
        QVERIFY(!plain.nnef.contains("extension tract_registry"));
        auto core = translateFixture("op_act_hardswish", fixtureOptions("op_act_hardswish"));
        QVERIFY(core.nnef.contains("tract_core_hard_swish("));
        QVERIFY(core.nnef.contains("extension tract_registry tract_core;"));
    }

    void passThroughOutput() {
        t2n::ExportOptions o = fixtureOptions("op_misc_passthrough");
        auto t = translateFixture("op_misc_passthrough", o);
        QVERIFY(t.nnef.contains("graph network(x, y) -> (output_0, output_1)"));
        QVERIFY(t.nnef.contains("  output_0 = copy(x);"));
        o.outputNames = {"x", "doubled"};
        QVERIFY_THROWS_EXCEPTION(t2n::Error, translateFixture("op_misc_passthrough", o));
        o.allowSameIoNames = true;
        t = translateFixture("op_misc_passthrough", o);
        QVERIFY(t.nnef.contains("graph network(x, y) -> (x, doubled)"));
        QVERIFY(!t.nnef.contains("copy("));
        QCOMPARE(t.report.warnings.size(), size_t(1));
    }

    // --reify-sdpa: the attention t2n lowers becomes tract_transformers_sdpa
    // (one per attention block), the tract_transformers registry is declared,
    // and the archive still computes what PyTorch computes; where the softmax
    // output itself is an output (need_weights) the decomposed form stays.
    void reifySdpa_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("reified");
        QTest::newRow("self") << "op_attn_mha_self" << 1;
        // Not the fused kernel (PyTorch's slow path, decomposed): nothing to reify.
        QTest::newRow("cross, bool attention mask") << "op_attn_mha_cross_masked" << 0;
        QTest::newRow("encoder, key padding mask") << "op_attn_encoder_key_padding" << 2;
        QTest::newRow("encoder, pre-norm gelu") << "op_attn_encoder_pre_norm_gelu" << 2;
        QTest::newRow("weights wanted") << "op_attn_mha_key_padding" << 0;
    }
    void reifySdpa() {
        QFETCH(QString, fixture);
        QFETCH(int, reified);
        t2n::ExportOptions o = fixtureOptions(fixture);
        const auto plain = exportCheckedToFolder(fixture, o);
        QVERIFY(!plain.nnef.contains("tract_transformers_sdpa")); // off by default
        o.reifySdpa = true;
        const auto e = exportCheckedToFolder(fixture, o);
        QVERIFY2(e.report.check.passed && e.report.written, qPrintable(checkVerdict(e.report)));
        QCOMPARE(static_cast<int>(e.nnef.count("= tract_transformers_sdpa(")), reified);
        QCOMPARE(e.nnef.contains("\nextension tract_registry tract_transformers;\n"), reified > 0);
        if (reified > 0) {
            QVERIFY2(!body(e.nnef).contains("softmax("), qPrintable(e.nnef));
            QVERIFY(e.nnef.contains("datum_type = 'f32', acc_datum_type = 'f32', "
                                    "is_causal = false"));
        }
        qInfo("%s: max |error| %.3g decomposed, %.3g with tract_transformers_sdpa",
              qPrintable(fixture), maxAbsError(plain.report), maxAbsError(e.report));
    }

    // The check judges the operation itself: the same archive with another
    // scale computes something else, and the check says so.
    void reifiedSdpaIsJudged() {
        t2n::ExportOptions o = fixtureOptions("op_attn_mha_self");
        o.reifySdpa = true;
        const auto e = exportCheckedToFolder("op_attn_mha_self", o);
        QVERIFY(e.report.check.passed);
        QFile f(QString::fromStdString((e.artifact / "graph.nnef").string()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        f.close();
        QRegularExpression scale(R"(scale = [0-9.e+-]+)");
        QVERIFY(scale.match(text).hasMatch());
        text.replace(scale, QStringLiteral("scale = 0.3"));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.toUtf8());
        f.close();
        t2n::Session s;
        s.load(fixtureModel("op_attn_mha_self"));
        QVERIFY(!s.check(e.artifact, o).passed);
    }

    // An option whose operation the target lacks is refused before any
    // lowering, naming the option and the tract version that has it.
    void graphOptionsNeedTheirVersion() {
        t2n::ExportOptions o = fixtureOptions("op_attn_mha_self");
        o.reifySdpa = true;
        o.target = t2n::TargetSpec::parse("tract@0.21.15");
        auto e = refusal("op_attn_mha_self", o);
        QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
        QVERIFY2(e.message().find("--reify-sdpa") != std::string::npos &&
                     e.message().find("0.22.0") != std::string::npos,
                 e.message().c_str());
        o.target = t2n::TargetSpec::parse("tract@0.22.0");
        QVERIFY(translateFixture("op_attn_mha_self", o).nnef.contains("tract_transformers_sdpa("));
        o.target = t2n::TargetSpec::parse("khronos");
        QCOMPARE(refusal("op_attn_mha_self", o).code(), t2n::ErrorCode::InvalidOption);

        t2n::ExportOptions d = fixtureOptions("op_resample_nearest2d_scale");
        d.upsampleWithDebox = true;
        d.target = t2n::TargetSpec::parse("tract@0.22.1");
        e = refusal("op_resample_nearest2d_scale", d);
        QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
        QVERIFY2(e.message().find("--upsample-with-debox") != std::string::npos &&
                     e.message().find("0.23.0") != std::string::npos,
                 e.message().c_str());
    }

    // --upsample-with-debox: nearest upsampling by whole factors is one debox
    // (window and stride [1, 1, factors...], as torch_to_nnef writes it);
    // other sizes keep their gathers. Checked against PyTorch, for tract and
    // for Khronos (debox is a standard operation).
    void upsampleWithDebox_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("debox");
        QTest::newRow("2d x(2, 3)") << "op_resample_nearest2d_scale"
                                    << "tract"
                                    << "debox(x, size = [1, 1, 2, 3], stride = [1, 1, 2, 3], "
                                       "padding = [(0, 0), (0, 0), (0, 0), (0, 0)]);";
        QTest::newRow("1d x2") << "op_resample_nearest1d_scale"
                               << "tract"
                               << "debox(x, size = [1, 1, 2], stride = [1, 1, 2], padding = "
                                  "[(0, 0), (0, 0), (0, 0)]);";
        QTest::newRow("2d x(2, 3) Khronos") << "op_resample_nearest2d_scale"
                                            << "khronos"
                                            << "debox(x, size = [1, 1, 2, 3]";
        QTest::newRow("5 -> 7: gathers") << "op_resample_nearest1d_size"
                                         << "tract" << QString();
        QTest::newRow("downsampling: gathers") << "op_resample_nearest2d_down"
                                               << "tract" << QString();
    }
    void upsampleWithDebox() {
        QFETCH(QString, fixture);
        QFETCH(QString, target);
        QFETCH(QString, debox);
        t2n::ExportOptions o = fixtureOptions(fixture);
        o.target = t2n::TargetSpec::parse(target.toStdString());
        QVERIFY(!exportCheckedToFolder(fixture, o).nnef.contains("debox("));
        o.upsampleWithDebox = true;
        const auto e = exportCheckedToFolder(fixture, o);
        QVERIFY2(e.report.check.passed && e.report.written, qPrintable(checkVerdict(e.report)));
        if (debox.isEmpty()) {
            QVERIFY(!e.nnef.contains("debox("));
            QVERIFY(e.nnef.contains(target == "khronos" ? "gather(" : "tract_core_gather("));
        } else {
            QVERIFY2(e.nnef.contains(debox), qPrintable(e.nnef));
            QVERIFY2(!body(e.nnef).contains("gather("), qPrintable(e.nnef));
        }
        qInfo("%s (%s): max |error| %.3g", qPrintable(fixture), qPrintable(target),
              maxAbsError(e.report));
    }

    void ioQuantityCheck() {
        // An input reaching no output stays in the interface, with a warning
        // (issue 39: fastai's empty x_cat was refused); without the check it
        // is left out.
        t2n::ExportOptions o = fixtureOptions("op_misc_unused_input");
        auto t = translateFixture("op_misc_unused_input", o);
        QVERIFY2(t.nnef.contains("graph network(x, unused) -> (output_0)"), qPrintable(t.nnef));
        QVERIFY(std::any_of(t.report.warnings.begin(), t.report.warnings.end(), [](const auto& w) {
            return w.find("'unused' does not contribute to any output: the archive keeps it") !=
                   std::string::npos;
        }));
        o.checkIoNamesQuantityMatch = false;
        t = translateFixture("op_misc_unused_input", o);
        QVERIFY(t.nnef.contains("graph network(x) -> (output_0)"));

        t2n::ExportOptions two = fixtureOptions("op_list_chunk_two");
        two.outputNames = {"first"};
        QVERIFY_THROWS_EXCEPTION(t2n::Error, translateFixture("op_list_chunk_two", two));
        two.checkIoNamesQuantityMatch = false;
        t = translateFixture("op_list_chunk_two", two);
        QVERIFY(t.nnef.contains("-> (first, output_1)"));
    }
};

T2N_TEST_SUITE(ExportOptionsTest)
#include "tst_export_options.moc"
