// Dropout that does nothing (issue 11, class 2): with p = 0 every dropout
// variant is the identity whatever its training flag says (a library calling
// F.dropout(attn, p=attention_dropout) without training= traces train=True);
// only p > 0 in training mode is refused, naming the node. Each export is
// checked against LibTorch running the same TorchScript.
#include "defined_model_util.h"
#include "suite_macros.h"
#include "t2n/error.h"

#include <QTest>

using namespace t2n::test;

namespace {

t2n::ExportOptions options() {
    t2n::ExportOptions o;
    o.inputs = {t2n::InputSpec::parse("x:2x3x4x5:f32")};
    o.identityProperties = false;
    return o;
}

} // namespace

class DropoutIdentityTest : public QObject {
    Q_OBJECT
    std::filesystem::path dir_;

private Q_SLOTS:
    void initTestCase() { dir_ = freshDir("dropout_identity"); }

    /// Before: aten::<kind>(x, 0.0, True) in the TorchScript, as F.dropout(x, p=0.0) without
    /// training= traces (was refused as "dropout in training mode"). After: no trace of it in the
    /// NNEF graph, the output equals LibTorch's.
    void zeroProbabilityIsIdentity_data() {
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("kind");
        QTest::newRow("dropout") << "torch.dropout(y, 0.0, True)"
                                 << "aten::dropout(";
        QTest::newRow("dropout_") << "torch.dropout_(y, 0.0, True)"
                                  << "aten::dropout_(";
        QTest::newRow("feature_dropout") << "torch.feature_dropout(y, 0.0, True)"
                                         << "aten::feature_dropout(";
        QTest::newRow("feature_dropout_") << "torch.feature_dropout_(y, 0.0, True)"
                                          << "aten::feature_dropout_(";
        QTest::newRow("alpha_dropout") << "torch.alpha_dropout(y, 0.0, True)"
                                       << "aten::alpha_dropout(";
        QTest::newRow("alpha_dropout_") << "torch.alpha_dropout_(y, 0.0, True)"
                                        << "aten::alpha_dropout_(";
        QTest::newRow("feature_alpha_dropout") << "torch.feature_alpha_dropout(y, 0.0, True)"
                                               << "aten::feature_alpha_dropout(";
        QTest::newRow("feature_alpha_dropout_") << "torch.feature_alpha_dropout_(y, 0.0, True)"
                                                << "aten::feature_alpha_dropout_(";
    }
    void zeroProbabilityIsIdentity() {
        QFETCH(QString, call);
        QFETCH(QString, kind);
        const std::string source =
            "def forward(self, x):\n    y = x * 2.0\n    z = " + call.toStdString() +
            "\n    return z + 1.0\n";
        static int row = 0;
        const std::string name = "p0_" + std::to_string(row++);
        auto model = saveDefined(dir_, name, source);
        auto e = exportDefined(model, options(), "tract");
        QVERIFY2(e.torchScript.find(kind.toStdString()) != std::string::npos,
                 e.torchScript.c_str());
        QVERIFY2(e.graph.find("dropout") == std::string::npos, e.graph.c_str());
        QVERIFY2(e.report.check.passed, e.graph.c_str());
        QCOMPARE(maxAbsError(e.report), 0.0);
    }

    /// Training mode with p > 0 draws random numbers: refused, the node and p named.
    void positiveProbabilityInTrainingIsRefused() {
        auto model = saveDefined(dir_, "p_half",
                                 "def forward(self, x):\n"
                                 "    return torch.feature_dropout(x, 0.5, True) + 1.0\n");
        try {
            exportDefined(model, options(), "tract");
            QFAIL("exported a dropout that zeroes random elements");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
            const std::string text = e.render();
            QVERIFY2(text.find("aten::feature_dropout with p = 0.5 in training mode") !=
                         std::string::npos,
                     text.c_str());
            QVERIFY2(text.find("model.eval()") != std::string::npos, text.c_str());
        }
    }

    /// p > 0 with train false is the identity, as before.
    void evalModeIsIdentity() {
        auto model = saveDefined(dir_, "p_eval",
                                 "def forward(self, x):\n"
                                 "    return torch.dropout(x, 0.5, False) * 3.0\n");
        auto e = exportDefined(model, options(), "tract");
        QVERIFY(e.report.check.passed);
        QCOMPARE(maxAbsError(e.report), 0.0);
    }
};

T2N_TEST_SUITE(DropoutIdentityTest)
#include "tst_dropout_identity.moc"
