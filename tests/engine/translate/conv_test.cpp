// translate/lower_conv.cpp: plain and transposed convolutions keep PyTorch's filter
// layouts, strides, padding, dilation and groups, and compute what TorchScript computes.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslateConvTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// conv2d with bias, stride 2, padding 1: NNEF conv with the same figures.
    void conv2dStridePadding() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %b : Tensor = prim::GetAttr[name="bias"](%self)
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %stride : int[] = prim::ListConstruct(%two, %two)
  %pad : int[] = prim::ListConstruct(%one, %one)
  %dil : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::conv2d(%x, %w, %b, %stride, %pad, %dil, %one)
  return (%y)
)IR",
                               {"x:1x3x9x9:f32"},
                               {{"weight", seeded({4, 3, 3, 3})}, {"bias", seeded({4}, 8)}});
        EXPECT_NNEF("# CHECK: conv(\n# CHECK-SAME: stride = [2, 2]", e);
    }

    /// Grouped (depthwise) conv2d: groups carried over.
    void depthwiseConv2d() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %four : int = prim::Constant[value=4]()
  %stride : int[] = prim::ListConstruct(%one, %one)
  %pad : int[] = prim::ListConstruct(%zero, %zero)
  %y : Tensor = aten::conv2d(%x, %w, %none, %stride, %pad, %stride, %four)
  return (%y)
)IR",
                               {"x:2x4x6x6:f32"}, {{"weight", seeded({4, 1, 3, 3})}});
        EXPECT_NNEF("# CHECK: conv(\n# CHECK-SAME: groups = 4", e);
    }

    /// conv1d on [N, C, L].
    void conv1d() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %b : Tensor = prim::GetAttr[name="bias"](%self)
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %stride : int[] = prim::ListConstruct(%one)
  %pad : int[] = prim::ListConstruct(%two)
  %y : Tensor = aten::conv1d(%x, %w, %b, %stride, %pad, %stride, %one)
  return (%y)
)IR",
                               {"x:2x3x16:f32"},
                               {{"weight", seeded({5, 3, 5})}, {"bias", seeded({5}, 9)}});
        EXPECT_NNEF("# CHECK: conv(", e);
    }

    /// conv_transpose2d becomes deconv with PyTorch's [C, O/groups, k...] filter.
    void convTranspose2d() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %b : Tensor = prim::GetAttr[name="bias"](%self)
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %stride : int[] = prim::ListConstruct(%two, %two)
  %pad : int[] = prim::ListConstruct(%one, %one)
  %outpad : int[] = prim::ListConstruct(%one, %one)
  %dil : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::conv_transpose2d(%x, %w, %b, %stride, %pad, %outpad, %one, %dil)
  return (%y)
)IR",
                               {"x:1x4x5x5:f32"},
                               {{"weight", seeded({4, 2, 3, 3})}, {"bias", seeded({2}, 3)}});
        EXPECT_NNEF("# CHECK: deconv(", e);
    }
};

T2N_TEST_SUITE(TranslateConvTest)
#include "conv_test.moc"
