// translate/lower_stats.cpp: statistics over axes (variance, standard
// deviation, log-sum-exp), products and running sums.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateStatsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Unbiased variance over two axes, and std_mean's two results, kept dims.
    void varianceAndStdMean() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %t : bool = prim::Constant[value=1]()
  %f : bool = prim::Constant[value=0]()
  %dims : int[] = prim::ListConstruct(%one, %two)
  %last : int[] = prim::ListConstruct(%two)
  %v : Tensor = aten::var(%x, %dims, %t, %f)
  %s : Tensor, %m : Tensor = aten::std_mean(%x, %last, %t, %t)
  return (%v, %s, %m)
)IR",
                               {"x:2x3x5:f32"});
        EXPECT_NNEF("# CHECK: sum_reduce(", e);
        QCOMPARE(e.report.check.outputs.size(), size_t(3));
    }

    /// logsumexp of large values (the max is taken out first) and a cumsum.
    void logsumexpAndCumsum() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %f : bool = prim::Constant[value=0]()
  %big : float = prim::Constant[value=50.]()
  %none : NoneType = prim::Constant()
  %dims : int[] = prim::ListConstruct(%one)
  %w : Tensor = aten::mul(%x, %big)
  %l : Tensor = aten::logsumexp(%w, %dims, %f)
  %c : Tensor = aten::cumsum(%x, %one, %none)
  return (%l, %c)
)IR",
                               {"x:3x7:f32"});
        EXPECT_NNEF("# CHECK: max_reduce(", e);
    }

    /// The product along an axis.
    void prodAlongAnAxis() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %f : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %p : Tensor = aten::prod(%x, %zero, %f, %none)
  return (%p)
)IR",
                               {"x:4x3:f32"});
        EXPECT_NNEF("# CHECK: graph", e);
    }
};

T2N_TEST_SUITE(TranslateStatsTest)
#include "stats_test.moc"
