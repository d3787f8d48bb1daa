// f16 graphs: --compute f16 (beyond torch_to_nnef: the model traced and
// checked in f32, written with f16 weights and types) and the three options
// of upstream's TractNNEF that change f16 operations (--f32-attention,
// --f32-linear-accumulation, --f32-norm). Every export is checked against
// the TorchScript model's f32 outputs (PyTorch's numbers) at the f16 row of
// the approximate level, as tract compares an f16 result with an f32
// reference.
#include "engine/export_test_util.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <QTest>

#include <algorithm>

using namespace t2n::test;

namespace {
CheckedExport exportCheckedToTar(const QString& fixture, const t2n::ExportOptions& o) {
    return exportWithCheck(
        fixture, o, freshDir(QStringLiteral("f16-graphs")) / (fixture.toStdString() + ".nnef.tar"));
}

t2n::ExportOptions half(const QString& fixture) {
    t2n::ExportOptions o = fixtureOptions(fixture);
    o.compute = t2n::DType::F16;
    return o;
}
} // namespace

class F16GraphsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo("op_attn_mha_self").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    // The archive is really f16: f16 inputs, f16 weights, and an error
    // against PyTorch's f32 outputs that f32 arithmetic would not make; yet
    // within the f16 row of the approximate level.
    void computeF16_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("tolerance");
        QTest::newRow("linear") << "op_matmul_linear_r3"
                                << "approximate";
        QTest::newRow("bmm") << "op_matmul_bmm"
                             << "approximate";
        QTest::newRow("layer norm") << "op_tf_layer_norm"
                                    << "approximate";
        QTest::newRow("batch norm") << "op_bn_2d"
                                    << "approximate";
        QTest::newRow("attention") << "op_attn_mha_self"
                                   << "approximate";
        QTest::newRow("encoder") << "op_attn_encoder_post_norm"
                                 << "approximate";
        // Deep: 163 of ResNet-18's 1000 f16 logits are beyond approximate
        // (max |error| 6.5e-3 on logits of about 1e-2); upstream's f16 models
        // are checked at a looser level too.
        QTest::newRow("resnet18") << "tv_resnet18"
                                  << "very";
    }
    void computeF16() {
        QFETCH(QString, fixture);
        QFETCH(QString, tolerance);
        const auto plain = exportCheckedToTar(fixture, fixtureOptions(fixture));
        QVERIFY2(plain.report.check.passed, qPrintable(checkVerdict(plain.report)));
        t2n::ExportOptions o = half(fixture);
        o.checkTolerance = tolerance.toStdString();
        const auto e = exportCheckedToTar(fixture, o);
        QVERIFY2(e.report.check.passed && e.report.written, qPrintable(checkVerdict(e.report)));
        QVERIFY2(e.nnef.contains("datum_type = 'f16'"), qPrintable(e.nnef));
        for (const auto& v : e.report.variables)
            QVERIFY2(v.dtype == "f16", v.label.c_str());
        QVERIFY2(maxAbsError(e.report) > 10 * maxAbsError(plain.report),
                 qPrintable(checkVerdict(e.report)));
        qInfo("%s: max |error| against PyTorch f32: %.3g (f32 archive %.3g), checked at %s",
              qPrintable(fixture), maxAbsError(e.report), maxAbsError(plain.report),
              qPrintable(tolerance));
    }

    // Each f32 option writes its f32 form into the f16 graph, and the archive
    // still computes what the model computes.
    void f32Options_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("written");
        QTest::addColumn<bool>("allF16Passes"); // at approximate, without the option
        QTest::newRow("linear") << "op_matmul_linear_r3"
                                << "linear"
                                << "= tract_core_einsum([" << true;
        QTest::newRow("bmm") << "op_matmul_bmm"
                             << "linear"
                             << "expr = 'amk,akn->amn', acc = 'f32'" << true;
        QTest::newRow("layer norm") << "op_tf_layer_norm"
                                    << "norm"
                                    << "mean_reduce(" << true;
        QTest::newRow("batch norm") << "op_bn_2d"
                                    << "norm"
                                    << "batch_normalization(" << true;
        // 2 of 240 outputs of an all-f16 instance norm are beyond
        // approximate; in f32 none is.
        QTest::newRow("instance norm") << "op_tf_instance_norm_2d_affine"
                                       << "norm"
                                       << "mean_reduce(" << false;
        QTest::newRow("encoder norms") << "op_attn_encoder_post_norm"
                                       << "norm"
                                       << "mean_reduce(" << true;
        QTest::newRow("attention") << "op_attn_mha_self"
                                   << "attention"
                                   << "softmax(" << true;
        QTest::newRow("reified attention") << "op_attn_mha_self"
                                           << "attention+sdpa"
                                           << "datum_type = 'f16', acc_datum_type = 'f32'" << true;
    }
    void f32Options() {
        QFETCH(QString, fixture);
        QFETCH(QString, option);
        QFETCH(QString, written);
        QFETCH(bool, allF16Passes);
        t2n::ExportOptions o = half(fixture);
        o.reifySdpa = option.endsWith("+sdpa");
        // All f16 may fail the check (an f16 instance norm does): that is
        // what the options are for.
        const auto base = exportCheckedToTar(fixture, o);
        QVERIFY2(base.report.check.passed == allF16Passes, qPrintable(checkVerdict(base.report)));
        QVERIFY(!base.nnef.contains("to = 'f32'"));
        QVERIFY(!base.nnef.contains("acc = 'f32'") &&
                !base.nnef.contains("acc_datum_type = 'f32'"));
        o.f32Norm = option == "norm";
        o.f32LinearAccumulation = option == "linear";
        o.f32Attention = option.startsWith("attention");
        const auto e = exportCheckedToTar(fixture, o);
        QVERIFY2(e.report.check.passed && e.report.written, qPrintable(checkVerdict(e.report)));
        QVERIFY2(e.nnef.contains(written), qPrintable(e.nnef));
        // In f32 inside: casts to f32 or an f32 accumulator.
        QVERIFY2(e.nnef.contains("to = 'f32'") || e.nnef.contains("acc = 'f32'") ||
                     e.nnef.contains("acc_datum_type = 'f32'"),
                 qPrintable(e.nnef));
        if (option == "linear")
            QVERIFY2(!e.nnef.contains("matmul(") && !e.nnef.contains("linear("),
                     qPrintable(e.nnef));
        // The graph's own types stay f16: inputs and what comes out.
        QVERIFY(e.nnef.contains("datum_type = 'f16'"));
        qInfo("%s --f32-%s: max |error| %.3g (all f16: %.3g)", qPrintable(fixture),
              qPrintable(option), maxAbsError(e.report), maxAbsError(base.report));
    }

    // In an f32 graph the options change nothing, and say so.
    void f32OptionsNeedAnF16Graph() {
        t2n::Session s;
        s.load(fixtureModel("op_tf_layer_norm"));
        t2n::ExportOptions o = fixtureOptions("op_tf_layer_norm");
        s.translate(o);
        const std::string plain = s.nnefText();
        o.f32Norm = o.f32Attention = o.f32LinearAccumulation = true;
        s.translate(o);
        QCOMPARE(s.nnefText(), plain);
        const auto& w = s.report().warnings;
        QVERIFY(std::any_of(w.begin(), w.end(), [](const std::string& m) {
            return m.find("--f32-norm changes f16 operations only") != std::string::npos;
        }));
    }

    // f16 operands with an f32 accumulator need tract 0.21.11 (upstream's
    // gate) and tract_core_einsum, which Khronos NNEF lacks.
    void linearAccumulationNeedsItsTract() {
        t2n::ExportOptions o = half("op_matmul_linear_r3");
        o.f32LinearAccumulation = true;
        o.target = t2n::TargetSpec::parse("tract@0.21.10");
        try {
            t2n::validateOptions(o);
            QFAIL("accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
            QVERIFY2(e.message().find("--f32-linear-accumulation") != std::string::npos &&
                         e.message().find("0.21.11") != std::string::npos,
                     e.message().c_str());
        }
        o.target = t2n::TargetSpec::parse("khronos");
        QVERIFY_THROWS_EXCEPTION(t2n::Error, t2n::validateOptions(o));
        // Nor f16 graphs at all: Khronos readers compute every scalar in f32.
        o.f32LinearAccumulation = false;
        try {
            t2n::validateOptions(o);
            QFAIL("accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
            QVERIFY2(e.message().find("--compute f16") != std::string::npos, e.message().c_str());
        }
        o.target = t2n::TargetSpec::parse("tract@0.21.11");
        t2n::validateOptions(o);
    }
};

T2N_TEST_SUITE(F16GraphsTest)
#include "tst_f16_graphs.moc"
