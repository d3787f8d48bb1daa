// The Khronos NNEF 1.0.5 target: its spelling, CNN fixtures that export and
// check (at tract's approximate level; torch.allclose on request), archives the strict Khronos
// reader accepts with no tract text in them, and models that need tract refused with the node and
// the hint before anything is written.
#include "check/structure_check.h"
#include "interp/interpreter.h"
#include "reader/model_reader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/recipe.h"
#include "t2n/session.h"

#include <QJsonArray>
#include <QTest>

#include <algorithm>

using namespace t2n::test;
namespace fs = std::filesystem;

namespace {

t2n::ExportOptions khronosOptions(const QString& fixture) {
    t2n::ExportOptions o = fixtureOptions(fixture);
    o.target = t2n::TargetSpec::parse("khronos");
    o.checkTolerance = "approximate"; // the default, for Khronos as for tract
    o.checkIoNamesQuantityMatch = false;
    o.compressionLevel.reset(); // a folder: graph.nnef readable as it is
    return o;
}

int count(const std::string& text, const std::string& word) {
    int n = 0;
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
        ++n;
    return n;
}

} // namespace

class KhronosTargetTest : public QObject {
    Q_OBJECT
    fs::path work_;

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo("op_conv_2d_basic").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        work_ = freshDir("khronos_target");
    }

    void spelling() {
        auto k = t2n::TargetSpec::parse("khronos");
        QCOMPARE(k.kind, t2n::TargetKind::Khronos);
        QCOMPARE(t2n::TargetSpec::parse("khronos@1.0.5"), k);
        QCOMPARE(QString::fromStdString(k.toString()), QString("khronos@1.0.5"));
        QCOMPARE(QString::fromStdString(k.toString(false)), QString("khronos"));
        QCOMPARE(t2n::TargetSpec::parse(k.toString()), k);
        QCOMPARE(QString::fromStdString(t2n::TargetSpec{}.toString(false)), QString("tract"));
        for (const char* bad : {"khronos@1.0.4", "khronos@", "Khronos", "khronos1.0.5"})
            QVERIFY_THROWS_EXCEPTION(t2n::Error, t2n::TargetSpec::parse(bad));
    }

    void recipeKeepsTheTarget() {
        t2n::ExportRecipe r;
        r.model = "m.pt";
        r.output = "m.nnef.tgz";
        r.options.target = t2n::TargetSpec::parse("khronos");
        const std::string json = t2n::toJson(r);
        QVERIFY2(json.find("\"target\": \"khronos\"") != std::string::npos, json.c_str());
        QCOMPARE(t2n::recipeFromJson(json), r);
    }

    // Small CNN pieces and a whole ResNet-18: exported for Khronos, checked by
    // the reference interpreter in Khronos mode against PyTorch at the
    // approximate level; the archive reads back in strict mode with no
    // tract operation, extension or property in it.
    void cnnFixturesExportAndCheck_data() {
        QTest::addColumn<QString>("name");
        for (const char* n :
             {"op_conv_2d_basic", "op_conv_2d_replicate", "op_conv_transpose2d_groups",
              "op_pool_max2d", "op_pool_avg2d_include_pad", "op_pool_adaptive_avg2d_1x1",
              "op_bn_2d", "op_matmul_linear_r2", "op_act_relu", "op_act_hardswish",
              "op_act_gelu_tanh",
              "op_act_gelu", // erf in standard operations (A&S 7.1.26)
              "op_attn_decoder",
              // einsum as transposes, reshapes and one matmul
              "op_tf_einsum_bmm", "op_tf_einsum_attn", "op_tf_einsum_outer",
              "op_tf_instance_norm_2d_affine", "tv_mobilenet_v3_small", "op_softmax_dim1",
              "op_softmax_log_neg1", "op_shape_flatten_start1", "op_pad_replicate_r4",
              "op_tf_embedding", "op_tf_index_select", "op_conv_2d_depthwise", "naming_blocks",
              "tv_squeezenet1_1", "tv_resnet18", "scripted_tv_resnet18"})
            QTest::newRow(n) << QString(n);
    }
    void cnnFixturesExportAndCheck() {
        QFETCH(QString, name);
        const fs::path out = work_ / (name.toStdString() + ".nnef");
        t2n::Session session;
        session.load(fixtureModel(name));
        t2n::ExportReport report;
        try {
            report = session.exportModel(out, khronosOptions(name));
        } catch (const t2n::Error& e) {
            QFAIL(e.render().c_str());
        }
        QCOMPARE(QString::fromStdString(report.target), QString("khronos@1.0.5"));
        QVERIFY2(report.check.passed, qPrintable(QString::fromStdString(report.toJson())));
        QCOMPARE(QString::fromStdString(report.check.tolerance), QString("approximate"));
        QVERIFY(report.check.tract.find("skipped (Khronos target") != std::string::npos);
        QVERIFY(!report.check.outputs.empty());

        t2n::nnef::LoadedModel strict = t2n::nnef::readModel(out, {t2n::nnef::ReadMode::Strict});
        QVERIFY2(strict.graphText.find("tract_") == std::string::npos, strict.graphText.c_str());
        QVERIFY2(strict.graphText.find("extension") == std::string::npos, strict.graphText.c_str());
        auto problems = t2n::check::checkStructure(strict, t2n::nnef::ReadMode::Strict);
        QVERIFY2(t2n::check::passes(problems),
                 problems.empty() ? "" : t2n::check::formatProblem(problems.front()).c_str());
    }

    // Known misses of torch.allclose (rtol 1e-5, atol 1e-8), kept visible:
    // layer/instance normalisation spelled out with standard operations, and
    // MobileNetV3's spelled-out hardswish/hardsigmoid, round unlike PyTorch's
    // fused kernels; a few outputs near zero then miss the 1e-8 absolute bound.
    // The errors stay at float32 rounding (below 1e-6), which is checked.
    void allcloseMissesAtRoundingLevel_data() {
        QTest::addColumn<QString>("name");
        for (const char* n :
             {"op_attn_decoder", "op_tf_instance_norm_2d_affine", "tv_mobilenet_v3_small"})
            QTest::newRow(n) << QString(n);
    }
    void allcloseMissesAtRoundingLevel() {
        QFETCH(QString, name);
        t2n::Session session;
        session.load(fixtureModel(name));
        t2n::ExportOptions strict = khronosOptions(name);
        strict.checkTolerance = "allclose"; // torch_to_nnef's KhronosNNEF comparison
        t2n::ExportReport report =
            session.exportModel(work_ / (name.toStdString() + ".nnef"), strict);
        QCOMPARE(QString::fromStdString(report.check.tolerance), QString("allclose"));
        QVERIFY(!report.check.outputs.empty());
        for (const auto& o : report.check.outputs)
            QVERIFY2(o.maxAbsError < 1e-6, o.name.c_str());
        QEXPECT_FAIL("",
                     "spelled-out normalisations and activations round unlike PyTorch's fused "
                     "kernels; outputs near zero miss allclose's 1e-8 absolute bound",
                     Continue);
        QVERIFY(report.check.passed);
    }

    // Where tract needs its own spelling, Khronos gets the standard one:
    // an embedding is tract_core_gather for tract and gather here.
    void standardSpellingsReplaceTractOnes() {
        const QString name = "op_tf_embedding";
        t2n::Session session;
        session.load(fixtureModel(name));
        t2n::ExportOptions tractOptions = fixtureOptions(name);
        tractOptions.check = false;
        session.exportModel(work_ / "emb_tract.nnef", tractOptions);
        const std::string tract = session.nnefText();
        t2n::ExportOptions k = khronosOptions(name);
        k.check = false;
        session.exportModel(work_ / "emb_khronos.nnef", k);
        const std::string khronos = session.nnefText();
        QVERIFY2(tract.find("tract_core_gather(") != std::string::npos, tract.c_str());
        QCOMPARE(count(khronos, " gather("), count(tract, "tract_core_gather("));
        QVERIFY(tract.find("tract_core_properties") != std::string::npos);
        QVERIFY(khronos.find("tract_core_properties") == std::string::npos);
    }

    // A nested-array literal is tract's; the Khronos interpreter refuses one
    // for a tensor parameter, and reads the same values through `constant`.
    void tensorLiteralsAreTractOnly() {
        using t2n::interp::Value;
        const t2n::interp::InterpreterOptions khronos{t2n::interp::TargetMode::Khronos, {}};
        const Value literal = Value::makeArray({Value::makeScalar(1.0), Value::makeScalar(2.0)});
        QVERIFY_THROWS_EXCEPTION(
            t2n::Error,
            t2n::interp::runOperation("add", {literal, Value::makeScalar(1.0)}, {}, khronos));
        auto c = t2n::interp::runOperation(
            "constant", {},
            {{"shape", Value::makeArray({Value::makeInteger(2)})}, {"value", literal}}, khronos,
            "scalar");
        auto sum = t2n::interp::runOperation("add", {c.at(0), Value::makeScalar(1.0)}, {}, khronos);
        QCOMPARE(sum.at(0).tensor[1].item<double>(), 3.0);
    }

    // Operators with no standard form fail at translation, each node named
    // with its kind, module path and source line, the hint says which tract
    // extension it needs, and no archive is left behind.
    void tractOnlyOperatorsAreRefused_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("kind");
        QTest::newRow("triu") << "op_tf_triu_tril"
                              << "aten::triu";
        QTest::newRow("topk") << "op_tf_topk"
                              << "aten::topk";
    }
    void tractOnlyOperatorsAreRefused() {
        QFETCH(QString, name);
        QFETCH(QString, kind);
        const fs::path out = work_ / (name.toStdString() + ".nnef.tgz");
        t2n::Session session;
        session.load(fixtureModel(name));
        try {
            session.exportModel(out, khronosOptions(name));
            QFAIL("exported a model that needs tract");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.stage(), t2n::Stage::Translate);
            QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
            QVERIFY2(e.hint().find("tract's extension tract_core") != std::string::npos,
                     e.render().c_str());
            QVERIFY2(e.hint().find("--target tract") != std::string::npos, e.render().c_str());
            const auto& d = e.details();
            auto it = std::find_if(d.begin(), d.end(), [&](const t2n::Diagnostic& x) {
                return x.hasNode && x.node.kind == kind.toStdString();
            });
            QVERIFY2(it != d.end(), e.render().c_str());
            QVERIFY2(it->node.sourceLine > 0, e.render().c_str());
            QVERIFY2(it->message.find("tract_core_") != std::string::npos, e.render().c_str());
        }
        QVERIFY(!fs::exists(out));
    }

    // NNEF has scalar, integer and logical only: an f64 input is declared
    // external<scalar> (tract_core_external for tract) with a warning saying so.
    void narrowerTypesAreDeclaredWithAWarning() {
        t2n::ExportOptions o = khronosOptions("op_act_relu");
        o.inputs.at(0).dtype = t2n::DType::F64;
        t2n::Session session;
        session.load(fixtureModel("op_act_relu"));
        t2n::ExportReport report = session.exportModel(work_ / "f64.nnef", o);
        QVERIFY2(session.nnefText().find("external<scalar>(") != std::string::npos,
                 session.nnefText().c_str());
        QVERIFY(std::any_of(report.warnings.begin(), report.warnings.end(), [](const auto& w) {
            return w.find("is f64 in the model") != std::string::npos &&
                   w.find("external<scalar>") != std::string::npos;
        }));
        QVERIFY(report.check.passed);
    }

    void optionsKhronosCannotHold() {
        t2n::Session session;
        session.load(fixtureModel("op_dyn_mlp_batch"));
        t2n::ExportOptions o = fixtureOptions("op_dyn_mlp_batch");
        QVERIFY(!o.dynamicAxes.empty());
        o.target = t2n::TargetSpec::parse("khronos");
        try {
            session.exportModel(work_ / "dyn.nnef", o);
            QFAIL("a dynamic axis was accepted for Khronos");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
            QVERIFY2(e.message().find("tract_symbol") != std::string::npos, e.render().c_str());
        }
        o = khronosOptions("op_act_relu");
        o.customExtensions = {"tract_assert B >= 1"};
        session.load(fixtureModel("op_act_relu"));
        QVERIFY_THROWS_EXCEPTION(t2n::Error, session.exportModel(work_ / "ext.nnef", o));
        QVERIFY(!fs::exists(work_ / "ext.nnef"));
    }
};

T2N_TEST_SUITE(KhronosTargetTest)
#include "tst_khronos_target.moc"
