// translate/lower_norm.cpp and layer/instance norm: inference-mode normalizations
// with their statistics and affine parameters.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslateNormTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// batch_norm in eval mode: batch_normalization with the running statistics as variables.
    void batchNorm() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %b : Tensor = prim::GetAttr[name="bias"](%self)
  %m : Tensor = prim::GetAttr[name="running_mean"](%self)
  %v : Tensor = prim::GetAttr[name="running_var"](%self)
  %false : bool = prim::Constant[value=0]()
  %momentum : float = prim::Constant[value=0.1]()
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %y : Tensor = aten::batch_norm(%x, %w, %b, %m, %v, %false, %momentum, %eps, %false)
  return (%y)
)IR",
                               {"x:2x4x3x3:f32"},
                               {{"weight", seeded({4})},
                                {"bias", seeded({4}, 2)},
                                {"running_mean", seeded({4}, 3)},
                                {"running_var", seeded({4}, 4).abs() + 0.5}});
        EXPECT_NNEF("# CHECK: variable<scalar>\n# CHECK: batch_normalization(", e);
    }

    /// group_norm: statistics per group of channels.
    void groupNorm() {
        auto e =
            exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %b : Tensor = prim::GetAttr[name="bias"](%self)
  %groups : int = prim::Constant[value=2]()
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %false : bool = prim::Constant[value=0]()
  %y : Tensor = aten::group_norm(%x, %groups, %w, %b, %eps, %false)
  return (%y)
)IR",
                          {"x:2x6x4x4:f32"}, {{"weight", seeded({6})}, {"bias", seeded({6}, 5)}});
        EXPECT_NNEF("# CHECK: mean_reduce(\n# CHECK: mean_reduce(", e);
    }

    /// layer_norm over the last axis with weight and bias.
    void layerNorm() {
        auto e =
            exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %b : Tensor = prim::GetAttr[name="bias"](%self)
  %eight : int = prim::Constant[value=8]()
  %shape : int[] = prim::ListConstruct(%eight)
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %false : bool = prim::Constant[value=0]()
  %y : Tensor = aten::layer_norm(%x, %shape, %w, %b, %eps, %false)
  return (%y)
)IR",
                          {"x:2x5x8:f32"}, {{"weight", seeded({8})}, {"bias", seeded({8}, 6)}});
        EXPECT_NNEF("# CHECK: mean_reduce(", e);
    }
};

T2N_TEST_SUITE(TranslateNormTest)
#include "norm_test.moc"
