// translate/lower_loss.cpp: the losses as their formulas, with each of
// PyTorch's reductions (none = 0, mean = 1, sum = 2).
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateLossTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// mse_loss reduced three ways.
    void mseEveryReduction() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %t : Tensor):
  %none : int = prim::Constant[value=0]()
  %mean : int = prim::Constant[value=1]()
  %sum : int = prim::Constant[value=2]()
  %a : Tensor = aten::mse_loss(%x, %t, %none)
  %b : Tensor = aten::mse_loss(%x, %t, %mean)
  %c : Tensor = aten::mse_loss(%x, %t, %sum)
  return (%a, %b, %c)
)IR",
                               {"x:3x4:f32", "t:3x4:f32"});
        EXPECT_NNEF("# CHECK: sum_reduce(", e);
        QCOMPARE(e.report.check.outputs.size(), size_t(3));
    }

    /// smooth_l1 with beta 0.5 and huber with delta 2: both branches are taken
    /// by normal inputs (|x - t| on either side of the threshold).
    void smoothL1AndHuber() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %t : Tensor):
  %mean : int = prim::Constant[value=1]()
  %beta : float = prim::Constant[value=0.5]()
  %delta : float = prim::Constant[value=2.]()
  %a : Tensor = aten::smooth_l1_loss(%x, %t, %mean, %beta)
  %b : Tensor = aten::huber_loss(%x, %t, %mean, %delta)
  return (%a, %b)
)IR",
                               {"x:4x5:f32", "t:4x5:f32"});
        EXPECT_NNEF("# CHECK: select(", e);
    }

    /// binary_cross_entropy_with_logits with a pos_weight, summed.
    void bceWithLogitsPosWeight() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %t : Tensor, %w : Tensor):
  %sum : int = prim::Constant[value=2]()
  %none : NoneType = prim::Constant()
  %p : Tensor = aten::sigmoid(%t)
  %l : Tensor = aten::binary_cross_entropy_with_logits(%x, %p, %none, %w, %sum)
  return (%l)
)IR",
                               {"x:3x4:f32", "t:3x4:f32", "w:4:f32"});
        EXPECT_NNEF("# CHECK: graph", e);
    }
};

T2N_TEST_SUITE(TranslateLossTest)
#include "loss_test.moc"
