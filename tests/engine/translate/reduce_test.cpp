// translate/lower_reduce.cpp and lower_stats.cpp: reductions over axes, with and
// without keepdim, and the statistics built on them.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslateReduceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// mean over two axes with keepdim: mean_reduce keeps the axes.
    void meanKeepdim() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %dims : int[] = prim::ListConstruct(%one, %two)
  %true : bool = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::mean(%x, %dims, %true, %none)
  return (%y)
)IR",
                               {"x:2x3x4:f32"});
        EXPECT_NNEF("# CHECK: mean_reduce(\n# CHECK-SAME: axes = [1, 2]\n# CHECK-NOT: squeeze(", e);
    }

    /// sum without keepdim: sum_reduce then squeeze.
    void sumSqueezed() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %neg : int = prim::Constant[value=-1]()
  %dims : int[] = prim::ListConstruct(%neg)
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::sum(%x, %dims, %false, %none)
  return (%y)
)IR",
                               {"x:2x3x4:f32"});
        EXPECT_NNEF("# CHECK: sum_reduce(\n# CHECK: squeeze(", e);
    }

    /// amax and argmax along one axis.
    void amaxArgmax() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %dims : int[] = prim::ListConstruct(%one)
  %false : bool = prim::Constant[value=0]()
  %a : Tensor = aten::amax(%x, %dims, %false)
  %b : Tensor = aten::argmax(%x, %one, %false)
  return (%a, %b)
)IR",
                               {"x:3x5:f32"});
        EXPECT_NNEF("# CHECK: max_reduce(\n# CHECK: argmax_reduce(", e);
    }

    /// var (unbiased) and logsumexp from the statistics family.
    void varLogsumexp() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %dims : int[] = prim::ListConstruct(%one)
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %v : Tensor = aten::var(%x, %dims, %true, %false)
  %l : Tensor = aten::logsumexp(%x, %dims, %false)
  return (%v, %l)
)IR",
                               {"x:4x6:f32"});
        EXPECT_NNEF("# CHECK: mean_reduce(", e);
    }

    /// cumsum along an axis.
    void cumsum() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::cumsum(%x, %one, %none)
  return (%y)
)IR",
                               {"x:2x7:f32"});
        EXPECT_NNEF("# CHECK: graph", e);
    }
};

T2N_TEST_SUITE(TranslateReduceTest)
#include "reduce_test.moc"
