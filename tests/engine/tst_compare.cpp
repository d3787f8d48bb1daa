// The comparator: tract's tolerance table and close_enough rule on
// hand-computed edge cases, the outlier ratio, f16 and quantized rows,
// integers, shapes, the worst element, torch.allclose, Tolerance::parse; an
// output whose expected values are all zero, marked and said in the report;
// and the comparison by distribution of outputs that depend on a random draw.
#include "check/compare.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <ATen/ATen.h>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <torch/script.h>

#include <cmath>
#include <limits>
#include <vector>

using t2n::check::Bounds;
using t2n::check::compare;
using t2n::check::compareDistributions;
using t2n::check::ElementClass;
using t2n::check::everyValueZero;
using t2n::check::Tolerance;
using t2n::check::ToleranceLevel;

namespace {

/// A tensor of `type` from values of T (double, float, int64_t; bools as uint8_t).
template <typename T>
at::Tensor make(std::vector<T> values, std::vector<int64_t> shape, at::ScalarType type) {
    const auto source = std::is_same_v<T, double>    ? at::kDouble
                        : std::is_same_v<T, float>   ? at::kFloat
                        : std::is_same_v<T, int64_t> ? at::kLong
                                                     : at::kByte;
    return at::from_blob(values.data(), shape, source).clone().to(type);
}

at::Tensor f32(std::vector<float> v) {
    const auto n = static_cast<int64_t>(v.size());
    return make<float>(std::move(v), {n}, at::kFloat);
}

at::Tensor f16(std::vector<float> v) {
    const auto n = static_cast<int64_t>(v.size());
    return make<float>(std::move(v), {n}, at::kHalf);
}

Tolerance level(const char* name) {
    return Tolerance::parse(name);
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

} // namespace

class CompareTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // tract data/src/tensor.rs atol_rtol_outliers, row by row.
    void table_data() {
        QTest::addColumn<QString>("level");
        QTest::addColumn<int>("cls");
        QTest::addColumn<double>("atol");
        QTest::addColumn<double>("rtol");
        QTest::addColumn<double>("outliers");
        const int F = int(ElementClass::Float), H = int(ElementClass::Half),
                  Q = int(ElementClass::Quantized), I = int(ElementClass::Integer);
        QTest::newRow("exact f32") << "exact" << F << 0.0 << 0.0 << 0.0;
        QTest::newRow("exact f16") << "exact" << H << 0.0 << 0.0 << 0.0;
        QTest::newRow("close f32") << "close" << F << 1e-7 << 1e-7 << 0.0;
        QTest::newRow("close f16") << "close" << H << 1e-3 << 1e-3 << 0.0;
        QTest::newRow("approximate f32") << "approximate" << F << 1e-4 << 5e-4 << 0.0;
        QTest::newRow("approximate f16") << "approximate" << H << 1e-3 << 5e-3 << 0.0;
        QTest::newRow("approximate q (scale 0.5)") << "approximate" << Q << 0.5 << 0.0 << 0.0;
        QTest::newRow("close q") << "close" << Q << 1e-7 << 1e-7 << 0.0;
        QTest::newRow("very f32") << "very" << F << 5e-2 << 1e-2 << 0.0;
        QTest::newRow("very f16") << "very" << H << 5e-2 << 1e-2 << 0.0;
        QTest::newRow("super f32") << "super" << F << 0.1 << 0.05 << 1e-4;
        QTest::newRow("ultra f32") << "ultra" << F << 0.2 << 0.1 << 5e-4;
        QTest::newRow("ultra f16") << "ultra" << H << 0.2 << 0.1 << 5e-4;
        QTest::newRow("custom") << "custom:0.25,0.5,0.125" << F << 0.25 << 0.5 << 0.125;
        QTest::newRow("allclose") << "allclose" << F << 1e-8 << 1e-5 << 0.0;
        QTest::newRow("ultra int") << "ultra" << I << 0.0 << 0.0 << 0.0;
        QTest::newRow("custom int") << "custom:1,1,0.5" << I << 0.0 << 0.0 << 0.0;
        QTest::newRow("allclose int") << "allclose" << I << 0.0 << 0.0 << 0.0;
    }
    void table() {
        QFETCH(QString, level);
        QFETCH(int, cls);
        QFETCH(double, atol);
        QFETCH(double, rtol);
        QFETCH(double, outliers);
        const Bounds b = Tolerance::parse(level.toStdString()).bounds(ElementClass(cls), 0.5);
        QCOMPARE(b.atol, atol);
        QCOMPARE(b.rtol, rtol);
        QCOMPARE(b.outliers, outliers);
    }

    // With got = 0 the bound is exactly atol (in f32): atol passes, the next float fails.
    void atolBoundaryEveryLevel_data() {
        QTest::addColumn<QString>("level");
        for (const char* l : {"close", "approximate", "very", "super", "ultra"})
            QTest::newRow(l) << l;
    }
    void atolBoundaryEveryLevel() {
        QFETCH(QString, level);
        const Tolerance tol = Tolerance::parse(level.toStdString());
        const float atol = static_cast<float>(tol.bounds(ElementClass::Float).atol);
        QVERIFY(compare(f32({atol}), f32({0}), tol).ok);
        QVERIFY(compare(f32({-atol}), f32({0}), tol).ok);
        const float over = std::nextafter(atol, kInf);
        const auto c = compare(f32({over}), f32({0}), tol);
        QVERIFY(!c.ok);
        QCOMPARE(c.mismatches, int64_t(1));
    }

    // Dyadic custom bounds make the arithmetic exact: bound = 0.25 + 0.5 * |got|.
    void rtolBoundaryIsRelativeToGot() {
        const Tolerance tol = Tolerance::makeCustom(0.25, 0.5, 0);
        QVERIFY(compare(f32({3.25f}), f32({2}), tol).ok); // |1.25| <= 0.25 + 1
        QVERIFY(compare(f32({0.75f}), f32({2}), tol).ok); // below got, same bound
        QVERIFY(!compare(f32({std::nextafter(3.25f, kInf)}), f32({2}), tol).ok);
        // Not symmetric: the bound uses |got|, not |expected| (0.25 + 0.5 * 3.25 = 1.875).
        QVERIFY(!compare(f32({2}), f32({3.25f}), Tolerance::makeCustom(0.25, 0.3, 0)).ok);
        QVERIFY(compare(f32({3.25f}), f32({2}), Tolerance::makeCustom(0.25, 0.5, 0)).ok);
    }

    void rtolWellInsideAndOutside_data() {
        QTest::addColumn<QString>("level");
        for (const char* l : {"close", "approximate", "very", "super", "ultra"})
            QTest::newRow(l) << l;
    }
    void rtolWellInsideAndOutside() {
        QFETCH(QString, level);
        const Tolerance tol = Tolerance::parse(level.toStdString());
        const Bounds b = tol.bounds(ElementClass::Float);
        const double got = 1000;
        const double inside = got + 0.9 * (b.atol + b.rtol * got);
        const double outside = got + 1.1 * (b.atol + b.rtol * got);
        if (level != "close") { // 1000 * 1e-7 is below f32's resolution at 1000
            QVERIFY(compare(f32({float(inside)}), f32({float(got)}), tol).ok);
            QVERIFY(!compare(f32({float(outside)}), f32({float(got)}), tol).ok);
        }
        QVERIFY(compare(f32({float(got)}), f32({float(got)}), tol).ok);
    }

    void exactLevel() {
        QVERIFY(compare(f32({1.5f, -2}), f32({1.5f, -2}), level("exact")).ok);
        QVERIFY(!compare(f32({1.5f}), f32({std::nextafter(1.5f, 2.f)}), level("exact")).ok);
    }

    void nanAndInfinities() {
        const Tolerance tol = level("approximate");
        QVERIFY(compare(f32({kNaN}), f32({kNaN}), tol).ok);
        QVERIFY(compare(f32({kNaN}), f32({kNaN}), level("exact")).ok);
        QVERIFY(!compare(f32({kNaN}), f32({1}), tol).ok);
        QVERIFY(!compare(f32({1}), f32({kNaN}), tol).ok);
        QVERIFY(compare(f32({kInf}), f32({kInf}), tol).ok);
        QVERIFY(compare(f32({-kInf}), f32({-kInf}), level("exact")).ok);
        QVERIFY(!compare(f32({kInf}), f32({-kInf}), level("ultra")).ok);
        QVERIFY(!compare(f32({kInf}), f32({1e30f}), level("ultra")).ok);
        // tract's formula would pass this (inf <= 1 + rtol * inf); t2n does not.
        QVERIFY(!compare(f32({1}), f32({kInf}), level("ultra")).ok);
        QVERIFY(compare(f32({kNaN}), f32({kNaN}), Tolerance::allclose()).ok);
    }

    // super: 1e-4 of the elements may fail; ultra: 5e-4. At 10000 elements
    // that is exactly 1 and 5 elements; one more fails the tensor.
    void outlierRatioAtTheLimit_data() {
        QTest::addColumn<QString>("level");
        QTest::addColumn<int>("bad");
        QTest::addColumn<bool>("ok");
        QTest::newRow("super 1") << "super" << 1 << true;
        QTest::newRow("super 2") << "super" << 2 << false;
        QTest::newRow("ultra 5") << "ultra" << 5 << true;
        QTest::newRow("ultra 6") << "ultra" << 6 << false;
        QTest::newRow("very 1") << "very" << 1 << false;
        QTest::newRow("custom 0.001: 10") << "custom:0.1,0.1,0.001" << 10 << true;
        QTest::newRow("custom 0.001: 11") << "custom:0.1,0.1,0.001" << 11 << false;
    }
    void outlierRatioAtTheLimit() {
        QFETCH(QString, level);
        QFETCH(int, bad);
        QFETCH(bool, ok);
        at::Tensor expected = at::zeros({100, 100});
        at::Tensor got = expected.clone();
        for (int i = 0; i < bad; ++i)
            got.view({-1})[i * 997] = 10.0f;
        const auto c = compare(expected, got, Tolerance::parse(level.toStdString()));
        QCOMPARE(c.ok, ok);
        QCOMPARE(c.mismatches, int64_t(bad));
        QCOMPARE(c.elements, int64_t(10000));
        QCOMPARE(c.mismatchRatio, bad / 10000.0);
        QCOMPARE(c.firstMismatchIndex, (std::vector<int64_t>{0, 0}));
    }

    void halfTolerances() {
        // Half grid near 1e-3: 0.00099945068... and 0.00100040435...
        const float below = 0.00099945068359375f, above = 0.0010004043579101562f;
        QVERIFY(compare(f16({below}), f16({0}), level("close")).ok);
        QVERIFY(!compare(f16({above}), f16({0}), level("close")).ok);
        // The same values as f32 use the f32 row (1e-7): both fail.
        QVERIFY(!compare(f32({below}), f32({0}), level("close")).ok);
        // approximate f16: 1e-3 + 5e-3 * |got|, got = 1: 1 + 6/1024 passes, 1 + 7/1024 fails.
        QVERIFY(compare(f16({1.005859375f}), f16({1}), level("approximate")).ok);
        QVERIFY(!compare(f16({1.0068359375f}), f16({1}), level("approximate")).ok);
        const auto c = compare(f16({1}), f16({1}), level("approximate"));
        QCOMPARE(int(c.elementClass), int(ElementClass::Half));
        QCOMPARE(c.applied.atol, 1e-3);
    }

    // An f32 reference against an f16 result: tract casts the reference to
    // f16 (--allow-float-casts) and uses the f16 row.
    void floatCastPicksHalfRow() {
        const auto c = compare(f32({1.004f}), f16({1}), level("approximate"));
        QVERIFY2(c.ok, c.summary().c_str());
        QCOMPARE(int(c.elementClass), int(ElementClass::Half));
        QVERIFY(!c.dtypeMismatch.empty());
        QVERIFY(!compare(f32({1.004f}), f32({1}), level("approximate")).ok);
    }

    void quantizedApproximateUsesScale() {
        const at::Tensor q = at::quantize_per_tensor(f32({1.0f, 2.0f}), 0.1, 0, at::kQInt8);
        const auto pass = compare(q, f32({1.09f, 2.0f}), level("approximate"));
        QVERIFY2(pass.ok, pass.summary().c_str());
        QCOMPARE(int(pass.elementClass), int(ElementClass::Quantized));
        QCOMPARE(pass.applied.atol, 0.1);
        QCOMPARE(pass.applied.rtol, 0.0);
        QVERIFY(!compare(q, f32({1.11f, 2.0f}), level("approximate")).ok);
    }

    void integersAreExactAtEveryLevel() {
        const at::Tensor a = make<int64_t>({1, 2, 3}, {3}, at::kLong);
        const at::Tensor b = make<int64_t>({1, 2, 4}, {3}, at::kLong);
        for (const char* l : {"exact", "approximate", "ultra", "custom:10,10,0.5", "allclose"}) {
            QVERIFY2(compare(a, a, level(l)).ok, l);
            const auto c = compare(a, b, level(l));
            QVERIFY2(!c.ok, l);
            QCOMPARE(int(c.elementClass), int(ElementClass::Integer));
            QCOMPARE(c.worstIndex, (std::vector<int64_t>{2}));
        }
        // i32 result for an i64 reference: values compared, dtype noted.
        const auto c = compare(a, a.to(at::kInt), level("ultra"));
        QVERIFY(c.ok);
        QVERIFY(!c.dtypeMismatch.empty());
        // Large i64 values stay exact (no trip through f32).
        const at::Tensor big = make<int64_t>({(int64_t(1) << 40) + 1}, {1}, at::kLong);
        const at::Tensor big2 = make<int64_t>({(int64_t(1) << 40)}, {1}, at::kLong);
        QVERIFY(!compare(big, big2, level("ultra")).ok);
        // Bools.
        const at::Tensor t = make<uint8_t>({1, 0}, {2}, at::kBool);
        const at::Tensor u = make<uint8_t>({1, 1}, {2}, at::kBool);
        QVERIFY(compare(t, t, level("ultra")).ok);
        QVERIFY(!compare(t, u, level("ultra")).ok);
    }

    void shapeMismatch() {
        const auto c = compare(at::zeros({2, 3}), at::zeros({3, 2}), level("ultra"));
        QVERIFY(!c.ok);
        QCOMPARE(QString::fromStdString(c.shapeMismatch),
                 QString("shape mismatch: expected [2, 3] but got [3, 2]"));
        QVERIFY(QString::fromStdString(c.summary()).contains("shape mismatch"));
        QVERIFY(!compare(at::zeros({}), at::zeros({1}), level("ultra")).ok);
        QVERIFY(compare(at::zeros({0, 3}), at::ones({0, 3}), level("exact")).ok);
    }

    void worstElementAndFigures() {
        const at::Tensor e = make<float>({0, 1, 2, 3, 4, 5}, {2, 3}, at::kFloat);
        const at::Tensor g = make<float>({0, 1, 2.5f, 3, 4, 5.1f}, {2, 3}, at::kFloat);
        const auto c = compare(e, g, level("approximate"));
        QVERIFY(!c.ok);
        QCOMPARE(c.elements, int64_t(6));
        QCOMPARE(c.mismatches, int64_t(2));
        QCOMPARE(c.mismatchRatio, 2.0 / 6.0);
        QVERIFY(c.hasWorst);
        // (0,2) is 0.49865 beyond its bound, (1,2) 0.09735.
        QCOMPARE(c.worstIndex, (std::vector<int64_t>{0, 2}));
        QCOMPARE(c.worstExpected, 2.0);
        QCOMPARE(c.worstGot, 2.5);
        QCOMPARE(c.firstMismatchIndex, (std::vector<int64_t>{0, 2}));
        QCOMPARE(c.maxAbsError, 0.5);
        QCOMPARE(c.maxRelError, 0.2); // 0.5 / 2.5
        QCOMPARE(QString::fromStdString(c.expectedDtype), QString("f32"));

        const auto json = QJsonDocument::fromJson(QByteArray::fromStdString(c.toJson())).object();
        QCOMPARE(json.value("ok").toBool(), false);
        QCOMPARE(json.value("mismatches").toInt(), 2);
        QCOMPARE(json.value("tolerance").toString(), QString("approximate"));
        QCOMPARE(json.value("worst").toObject().value("index").toArray(), (QJsonArray{0, 2}));
        QCOMPARE(json.value("worst").toObject().value("got").toDouble(), 2.5);
        QCOMPARE(json.value("first_mismatch_index").toArray(), (QJsonArray{0, 2}));

        // Nothing fails: the worst element is the largest absolute error.
        const auto ok = compare(f32({1, 2, 3}), f32({1, 2.0001f, 3}), level("approximate"));
        QVERIFY(ok.ok);
        QCOMPARE(ok.worstIndex, (std::vector<int64_t>{1}));
        QVERIFY(ok.firstMismatchIndex.empty());
        // A NaN mismatch is the worst, whatever the other errors.
        const auto nan = compare(f32({0, 1}), f32({100, kNaN}), level("approximate"));
        QCOMPARE(nan.worstIndex, (std::vector<int64_t>{1}));
        QCOMPARE(nan.firstMismatchIndex, (std::vector<int64_t>{0}));
        // 0-d tensors: empty index.
        const auto scalar = compare(at::scalar_tensor(1.0), at::scalar_tensor(2.0), level("close"));
        QVERIFY(scalar.hasWorst && scalar.worstIndex.empty());
    }

    /// Expected values all zero: a match that cannot tell a right archive
    /// from one that outputs zeros is marked; any other value, a NaN
    /// included, is not. End to end, the report's output says so.
    void allZeroExpectationIsMarked() {
        QVERIFY(everyValueZero(at::zeros({2, 3})));
        QVERIFY(everyValueZero(at::zeros({4}, at::kLong)));
        QVERIFY(!everyValueZero(f32({0, 1e-30f})));
        QVERIFY(!everyValueZero(f32({0, kNaN})));
        QVERIFY(!everyValueZero(at::zeros({0, 3})));

        torch::jit::Module m("Zeros");
        m.define(R"(
def forward(self, x):
    return torch.relu(-torch.abs(x)), x * 2.0
)");
        const auto dir = t2n::test::freshDir(QStringLiteral("compare_all_zero"));
        m.save((dir / "model.pt").string());
        t2n::Session session;
        session.load(dir / "model.pt");
        t2n::ExportOptions o;
        t2n::InputSpec in;
        in.name = "x";
        in.shape = {2, 5};
        o.inputs = {in};
        const t2n::ExportReport r = session.exportModel(dir / "zeros.nnef.tgz", o);
        QVERIFY(r.written && r.check.passed);
        QCOMPARE(r.check.outputs.size(), size_t(2));
        QVERIFY2(r.check.outputs[0].note.find("every value the model gives here is 0") !=
                     std::string::npos,
                 r.check.outputs[0].note.c_str());
        QVERIFY2(r.check.outputs[1].note.empty(), r.check.outputs[1].note.c_str());
    }

    // The allclose level agrees with ATen's own allclose(equal_nan = true).
    void allcloseAgreesWithTorch() {
        at::manual_seed(7);
        for (auto type : {at::kFloat, at::kDouble}) {
            const at::Tensor base = at::randn({2000}, at::TensorOptions().dtype(type));
            for (double scale : {1e-9, 1e-6, 1e-5, 2e-5, 1e-3}) {
                const at::Tensor other = base + at::randn_like(base) * scale;
                for (const auto& tol : {Tolerance::allclose(), Tolerance::allclose(1e-3, 1e-6)}) {
                    const bool torch =
                        at::allclose(base, other, tol.custom.rtol, tol.custom.atol, true);
                    QCOMPARE(compare(base, other, tol).ok, torch);
                }
            }
        }
        QVERIFY(compare(make<double>({1.0}, {1}, at::kDouble),
                        make<double>({1.0 + 1e-5}, {1}, at::kDouble), Tolerance::allclose())
                    .ok);
        QVERIFY(!compare(make<double>({1.0}, {1}, at::kDouble),
                         make<double>({1.0 + 1.1e-5}, {1}, at::kDouble), Tolerance::allclose())
                     .ok);
    }

    void parseGood_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("level");
        QTest::addColumn<QString>("str");
        QTest::newRow("exact") << "exact" << int(ToleranceLevel::Exact) << "exact";
        QTest::newRow("close") << "close" << int(ToleranceLevel::Close) << "close";
        QTest::newRow("approximate")
            << "approximate" << int(ToleranceLevel::Approximate) << "approximate";
        QTest::newRow("very") << "very" << int(ToleranceLevel::Very) << "very";
        QTest::newRow("super") << "super" << int(ToleranceLevel::Super) << "super";
        QTest::newRow("ultra") << "ultra" << int(ToleranceLevel::Ultra) << "ultra";
        QTest::newRow("allclose") << "allclose" << int(ToleranceLevel::AllClose) << "allclose";
        QTest::newRow("allclose:r,a")
            << "allclose:0.001,1e-6" << int(ToleranceLevel::AllClose) << "allclose:0.001,1e-06";
        QTest::newRow("custom") << "custom:1e-3,0.01,0.0001" << int(ToleranceLevel::Custom)
                                << "custom:0.001,0.01,0.0001";
        QTest::newRow("custom zeros")
            << "custom:0,0,0" << int(ToleranceLevel::Custom) << "custom:0,0,0";
    }
    void parseGood() {
        QFETCH(QString, text);
        QFETCH(int, level);
        QFETCH(QString, str);
        const Tolerance t = Tolerance::parse(text.toStdString());
        QCOMPARE(int(t.level), level);
        QCOMPARE(QString::fromStdString(t.str()), str);
        QVERIFY(Tolerance::parse(t.str()) == t);                               // round trip
        QVERIFY(Tolerance{} == Tolerance::named(ToleranceLevel::Approximate)); // the default
    }

    void parseBad_data() {
        QTest::addColumn<QString>("text");
        for (const char* bad :
             {"", "Approximate", "approx", "custom", "custom:", "custom:1,2", "custom:1,2,3,4",
              "custom:a,b,c", "custom:-1,0,0", "custom:0,0,2", "custom:nan,0,0", "custom:1,,0",
              "custom:inf,0,0", "approximate:1", "allclose:1", "exact "})
            QTest::newRow(bad[0] ? bad : "(empty)") << bad;
    }
    void parseBad() {
        QFETCH(QString, text);
        try {
            Tolerance::parse(text.toStdString());
            QFAIL("no error");
        } catch (const t2n::Error& e) {
            QCOMPARE(int(e.code()), int(t2n::ErrorCode::Usage));
            QCOMPARE(int(e.stage()), int(t2n::Stage::Check));
            QVERIFY(QString::fromStdString(e.message()).contains("bad tolerance"));
            QVERIFY(QString::fromStdString(e.hint()).contains("custom:ATOL,RTOL,OUTLIERS"));
        }
    }

    // Issue 26: an output that depends on a random draw is compared by shape,
    // dtype, range and moments. Two runs of one distribution pass, over many
    // seeds and sizes, for uniform, normal, heavy-tailed and mixed outputs.
    void distributionsOfOneLawPass() {
        for (uint64_t seed = 1; seed <= 40; ++seed) {
            auto gen = at::detail::createCPUGenerator(seed);
            for (int64_t n : {32, 100, 4096, 100000}) {
                const at::Tensor x = at::normal(0.0, 1.0, {n}, gen);
                const std::vector<std::pair<at::Tensor, at::Tensor>> pairs{
                    {at::rand({n}, gen), at::rand({n}, gen)},
                    {at::normal(2.0, 3.0, {n}, gen), at::normal(2.0, 3.0, {n}, gen)},
                    {at::normal(0.0, 1.0, {n}, gen).exp(), at::normal(0.0, 1.0, {n}, gen).exp()},
                    {x + 0.1 * at::normal(0.0, 1.0, {n}, gen),
                     x + 0.1 * at::normal(0.0, 1.0, {n}, gen)},
                    {at::rand({n}, gen) < 0.3, at::rand({n}, gen) < 0.3},
                };
                for (size_t k = 0; k < pairs.size(); ++k) {
                    const auto c = compareDistributions(pairs[k].first, pairs[k].second, 0);
                    QVERIFY2(c.ok, qPrintable(QString("seed %1, n %2, pair %3: %4")
                                                  .arg(seed)
                                                  .arg(n)
                                                  .arg(k)
                                                  .arg(QString::fromStdString(c.summary()))));
                    QVERIFY(c.figures.valuesCompared);
                }
            }
        }
    }

    // What a wrong draw looks like: other bounds, another std, another law,
    // a shifted mean; and a shape or dtype that differs.
    void distributionsThatDifferFail_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("why");
        QTest::newRow("uniform [0, 2) for [0, 1)") << 0 << "mean";
        QTest::newRow("normal std 1.2 for 1") << 1 << "std";
        QTest::newRow("normal for uniform of equal moments") << 2 << "beyond";
        QTest::newRow("mean + 0.3 std") << 3 << "mean";
        QTest::newRow("shape") << 4 << "shape mismatch";
        QTest::newRow("dtype") << 5 << "dtype mismatch";
    }
    void distributionsThatDifferFail() {
        QFETCH(int, which);
        QFETCH(QString, why);
        auto gen = at::detail::createCPUGenerator(3);
        const int64_t n = 4096;
        at::Tensor e, g;
        switch (which) {
        case 0:
            e = at::rand({n}, gen), g = 2 * at::rand({n}, gen);
            break;
        case 1:
            e = at::normal(0.0, 1.0, {n}, gen), g = at::normal(0.0, 1.2, {n}, gen);
            break;
        case 2: // uniform of mean 0, std 1: [-sqrt(3), sqrt(3))
            e = (at::rand({n}, gen) * 2 - 1) * std::sqrt(3.0), g = at::normal(0.0, 1.0, {n}, gen);
            break;
        case 3:
            e = at::normal(0.0, 1.0, {n}, gen), g = at::normal(0.3, 1.0, {n}, gen);
            break;
        case 4:
            e = at::rand({n}, gen), g = at::rand({n / 2, 2}, gen);
            break;
        default:
            e = at::rand({n}, gen), g = at::rand({n}, gen).to(at::kDouble);
        }
        const auto c = compareDistributions(e, g, 0);
        QVERIFY2(!c.ok, c.summary().c_str());
        QVERIFY2(c.summary().find(why.toStdString()) != std::string::npos, c.summary().c_str());
    }

    // Few independent values: shape and dtype only, said so. A draw broadcast
    // over more elements counts as the draw's size.
    void tooFewIndependentValues() {
        auto gen = at::detail::createCPUGenerator(5);
        const at::Tensor e = at::rand({2, 3}, gen), g = 5 + at::rand({2, 3}, gen);
        auto c = compareDistributions(e, g, 0);
        QVERIFY2(c.ok && !c.figures.valuesCompared, c.summary().c_str());
        QVERIFY2(c.summary().find("6 independent values are too few") != std::string::npos,
                 c.summary().c_str());
        // x * rand(1) over 4096 elements: one independent value.
        const at::Tensor x = at::normal(0.0, 1.0, {4096}, gen);
        c = compareDistributions(x * 0.2, x * 0.9, 1);
        QVERIFY2(c.ok && !c.figures.valuesCompared && c.figures.independent == 1,
                 c.summary().c_str());
        QVERIFY(!compareDistributions(e, g.reshape({3, 2}), 0).ok); // the shape still counts
        // f16 for an f32 reference: a float cast, accepted and said.
        c = compareDistributions(at::rand({4096}, gen), at::rand({4096}, gen).to(at::kHalf), 0);
        QVERIFY2(c.ok && c.summary().find("float cast") != std::string::npos, c.summary().c_str());
        // Non-finite values on one side only.
        at::Tensor withInf = at::rand({4096}, gen);
        withInf[7] = std::numeric_limits<float>::infinity();
        c = compareDistributions(at::rand({4096}, gen), withInf, 0);
        QVERIFY2(!c.ok && c.summary().find("non-finite") != std::string::npos, c.summary().c_str());
    }
};

T2N_TEST_SUITE(CompareTest)
#include "tst_compare.moc"
