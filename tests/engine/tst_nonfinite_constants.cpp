// Infinite and NaN constants (issue 11, class 1): attention masks built with
// masked_fill(mask, -inf) or full(..., -inf).triu(1) export for every target.
// tract >= 0.20.19 reads `inf`/`-inf` literals; older tract and Khronos get a
// rank-0 variable holding the exact value; an attribute infinity becomes the
// largest finite value with a warning; NaN is always a variable. Each export is
// checked against LibTorch running the same TorchScript.
#include "defined_model_util.h"
#include "nnef/identifiers.h"
#include "suite_macros.h"
#include "t2n/error.h"

#include <QTest>

#include <cmath>
#include <regex>

using namespace t2n::test;

namespace {

const char* kMaskedFill = R"JIT(
def forward(self, x):
    n = x.size(-1)
    mask = torch.triu(torch.ones(n, n), 1) > 0.5
    return torch.softmax(x.masked_fill(mask, float("-inf")), -1)
)JIT";

const char* kFullTriu = R"JIT(
def forward(self, x):
    n = x.size(-1)
    causal = torch.full([n, n], float("-inf")).triu(1)
    return torch.softmax(x + causal, -1)
)JIT";

const char* kNanFill = R"JIT(
def forward(self, x):
    return x.masked_fill(x > 0.5, float("nan")) * 2.0
)JIT";

const char* kPadInf = R"JIT(
def forward(self, x):
    y = torch.constant_pad_nd(x, [1, 1], float("-inf"))
    return torch.max_pool1d(y, [3], [1])
)JIT";

t2n::ExportOptions options(const char* target, const char* shape) {
    t2n::ExportOptions o;
    o.inputs = {t2n::InputSpec::parse(std::string("x:") + shape + ":f32")};
    o.target = t2n::TargetSpec::parse(target);
    o.identityProperties = false;
    return o;
}

bool has(const std::string& text, const std::string& pattern) {
    return std::regex_search(text, std::regex(pattern));
}

bool anyWarning(const t2n::ExportReport& r, const std::string& text) {
    for (const auto& w : r.warnings)
        if (w.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class NonFiniteConstantsTest : public QObject {
    Q_OBJECT
    std::filesystem::path dir_;

private Q_SLOTS:
    void initTestCase() { dir_ = freshDir("nonfinite_constants"); }

    /// masked_fill(mask, -inf): a `-inf` literal for today's tract (before: exit 10, "NNEF has
    /// no literal for inf or nan"); the softmax matches LibTorch.
    void maskedFillWritesInfinityLiteral() {
        auto model = saveDefined(dir_, "masked_fill", kMaskedFill);
        auto e = exportDefined(model, options("tract", "2x5x5"), "tract");
        QVERIFY(e.torchScript.find("-inf") != std::string::npos);
        QVERIFY2(has(e.graph, R"(select\([^;]*-inf)"), e.graph.c_str());
        QVERIFY2(e.report.check.passed, e.graph.c_str());
        QVERIFY(maxAbsError(e.report) < 1e-6);
    }

    /// The same model for tract 0.20.5 and for Khronos: no `inf` in the text, the -inf is a
    /// rank-0 variable holding the exact value, nothing is approximated (no warning).
    void olderTargetsStoreInfinityAsVariable_data() {
        QTest::addColumn<QString>("target");
        QTest::newRow("tract@0.20.5") << "tract@0.20.5";
        QTest::newRow("khronos") << "khronos";
    }
    void olderTargetsStoreInfinityAsVariable() {
        QFETCH(QString, target);
        auto model = saveDefined(dir_, "masked_fill_old", kMaskedFill);
        auto e = exportDefined(model, options(target.toUtf8().constData(), "2x5x5"),
                               target == "khronos" ? "khronos" : "old");
        QVERIFY2(!has(e.graph, R"(\binf\b)"), e.graph.c_str());
        QVERIFY2(has(e.graph, R"(neg_infinity\w* = variable<scalar>\(shape = \[\])"),
                 e.graph.c_str());
        QVERIFY(!anyWarning(e.report, "largest finite"));
        QVERIFY2(e.report.check.passed, e.graph.c_str());
        QVERIFY(maxAbsError(e.report) < 1e-6);
    }

    /// torch.full(..., -inf).triu(1) added to scores: the causal mask is a stored tensor
    /// (.dat keeps the infinities) and the softmax matches.
    void fullTriuMask_data() { olderTargetsStoreInfinityAsVariable_data(); }
    void fullTriuMask() {
        QFETCH(QString, target);
        auto model = saveDefined(dir_, "full_triu", kFullTriu);
        auto e = exportDefined(model, options(target.toUtf8().constData(), "1x6x6"),
                               target == "khronos" ? "khronos" : "old");
        QVERIFY2(e.report.check.passed, e.graph.c_str());
        QVERIFY(maxAbsError(e.report) < 1e-6);
        auto tract = exportDefined(model, options("tract", "1x6x6"), "tract");
        QVERIFY(tract.report.check.passed);
    }

    /// NaN has no literal in any target: always a variable; the outputs hold NaN where
    /// LibTorch's do (the comparison counts NaN against NaN as equal).
    void nanIsAlwaysAVariable_data() {
        QTest::addColumn<QString>("target");
        QTest::newRow("tract") << "tract";
        QTest::newRow("khronos") << "khronos";
    }
    void nanIsAlwaysAVariable() {
        QFETCH(QString, target);
        auto model = saveDefined(dir_, "nan_fill", kNanFill);
        auto e =
            exportDefined(model, options(target.toUtf8().constData(), "3x4"), target.toStdString());
        QVERIFY2(has(e.graph, R"(not_a_number\w* = variable<scalar>\(shape = \[\])"),
                 e.graph.c_str());
        QVERIFY2(e.report.check.passed, e.graph.c_str());
    }

    /// tract tries a literal before an identifier and stops after its last letter: names
    /// starting with true, false or inf take a prefix so that they stay identifiers.
    void namesThatReadAsLiterals() {
        using t2n::nnef::sanitizeIdentifier;
        QCOMPARE(sanitizeIdentifier("infinity"), std::string("v_infinity"));
        QCOMPARE(sanitizeIdentifier("inf"), std::string("v_inf"));
        QCOMPARE(sanitizeIdentifier("true_mask"), std::string("v_true_mask"));
        QCOMPARE(sanitizeIdentifier("false"), std::string("v_false"));
        QCOMPARE(sanitizeIdentifier("input"), std::string("input"));
        QCOMPARE(sanitizeIdentifier("scalar"), std::string("scalar_"));
    }

    /// An infinity in an attribute (pad's value) stays a literal for today's tract; for tract
    /// 0.20.5 it becomes -3.4028234663852886e38 with a warning that says so, and a max pool
    /// over the padding still matches LibTorch.
    void attributeInfinity() {
        auto model = saveDefined(dir_, "pad_inf", kPadInf);
        auto now = exportDefined(model, options("tract", "1x2x6"), "tract");
        QVERIFY2(has(now.graph, R"(value = -inf)"), now.graph.c_str());
        QVERIFY(now.report.check.passed);
        auto old = exportDefined(model, options("tract@0.20.5", "1x2x6"), "old");
        QVERIFY2(has(old.graph, R"(value = -3\.40282\d*e\+?38)"), old.graph.c_str());
        QVERIFY(anyWarning(old.report, "has no literal for -inf"));
        QVERIFY(anyWarning(old.report, "largest finite f32"));
        QVERIFY(old.report.check.passed);
        QVERIFY(maxAbsError(old.report) < 1e-6);
    }
};

T2N_TEST_SUITE(NonFiniteConstantsTest)
#include "tst_nonfinite_constants.moc"
