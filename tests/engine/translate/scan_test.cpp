// translate/lower_scan.cpp: prefix scans over a static axis (cummax, cummin,
// logcumsumexp, cumulative_trapezoid) as reductions over a triangular
// window; diff as slices; trapz as a weighted sum.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateScanTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// The running maximum along rows, and the running minimum of its
    /// negation: max_reduce and min_reduce over the same window.
    void cummaxAndCumminValues() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %dim : int = prim::Constant[value=1]()
  %hi : Tensor, %hi_at : Tensor = aten::cummax(%x, %dim)
  %nx : Tensor = aten::neg(%x)
  %lo : Tensor, %lo_at : Tensor = aten::cummin(%nx, %dim)
  %y : Tensor = aten::add(%hi, %lo, %dim)
  return (%y)
)IR",
                               {"x:3x7:f32"});
        EXPECT_NNEF("# CHECK: max_reduce(\n# CHECK: min_reduce(", e);
    }

    /// PyTorch's cummax indices name the last position of the extreme:
    /// refused with the node and the way out, never approximated.
    void cummaxIndicesRefused() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %dim : int = prim::Constant[value=0]()
  %hi : Tensor, %hi_at : Tensor = aten::cummax(%x, %dim)
  return (%hi_at)
)IR",
                               {"x:5:f32"});
        QVERIFY2(e.error.find("aten::cummax") != std::string::npos, e.error.c_str());
        QVERIFY2(e.error.find("indices") != std::string::npos, e.error.c_str());
    }

    /// Large values: the max shift keeps exp from overflowing.
    void logcumsumexpOfLargeValues() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %k : float = prim::Constant[value=80.]()
  %big : Tensor = aten::mul(%x, %k)
  %dim : int = prim::Constant[value=-1]()
  %y : Tensor = aten::logcumsumexp(%big, %dim)
  return (%y)
)IR",
                               {"x:2x9:f32"});
        EXPECT_NNEF("# CHECK: max_reduce(\n# CHECK: exp(\n# CHECK: log(", e);
    }

    /// Second differences with a row prepended: concat, then two rounds of
    /// shifted slices.
    void diffTwiceWithPrepend() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %p : Tensor):
  %n : int = prim::Constant[value=2]()
  %dim : int = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::diff(%x, %n, %dim, %p, %none)
  return (%y)
)IR",
                               {"x:6x4:f32", "p:1x4:f32"});
        EXPECT_NNEF("# CHECK: concat(\n# CHECK: sub(", e);
    }

    /// The trapezoid rule with a constant spacing, and its running form.
    void trapezoidRules() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %y : Tensor):
  %dx : float = prim::Constant[value=0.25]()
  %dim : int = prim::Constant[value=-1]()
  %area : Tensor = aten::trapz(%y, %dx, %dim)
  %running : Tensor = aten::cumulative_trapezoid(%y, %dx, %dim)
  return (%area, %running)
)IR",
                               {"y:3x8:f32"});
        EXPECT_NNEF("# CHECK: sum_reduce(", e);
        QCOMPARE(e.report.check.outputs.size(), size_t{2});
    }
};

T2N_TEST_SUITE(TranslateScanTest)
#include "scan_test.moc"
