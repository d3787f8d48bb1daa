// translate/lower_conv.cpp: plain and transposed convolutions keep PyTorch's filter
// variables, strides, padding, dilation and groups, and compute what TorchScript computes;
// for tract a transposed convolution's filter is regrouped in the graph into tract's
// [O, C/groups, k...] (the interpreter refuses PyTorch's layout in a tract archive).
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

    /// conv_transpose2d becomes deconv; for tract its filter [C, O/groups, k...] is
    /// transposed into [O, C, k...] first.
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
        EXPECT_NNEF("# CHECK: transpose(\n# CHECK-SAME: axes = [1, 0, 2, 3]\n# CHECK: deconv(", e);
        t2n::ExportOptions khronos;
        khronos.target = t2n::TargetSpec::parse("khronos");
        auto k = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %stride : int[] = prim::ListConstruct(%one, %one)
  %pad : int[] = prim::ListConstruct(%zero, %zero)
  %y : Tensor = aten::conv_transpose2d(%x, %w, %none, %stride, %pad, %pad, %one, %stride)
  return (%y)
)IR",
                               {"x:1x4x5x5:f32"}, {{"weight", seeded({4, 2, 3, 3})}}, khronos);
        EXPECT_NNEF("# CHECK-NOT: transpose(\n# CHECK: deconv(", k);
    }

    /// Grouped conv_transpose1d: per group the channel axes swapped (reshape to
    /// [g, C/g, O/g, k], transpose, reshape to [O, C/g, k]).
    void convTranspose1dGroups() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %b : Tensor = prim::GetAttr[name="bias"](%self)
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %stride : int[] = prim::ListConstruct(%two)
  %pad : int[] = prim::ListConstruct(%one)
  %outpad : int[] = prim::ListConstruct(%zero)
  %dil : int[] = prim::ListConstruct(%two)
  %y : Tensor = aten::conv_transpose1d(%x, %w, %b, %stride, %pad, %outpad, %two, %dil)
  return (%y)
)IR",
                               {"x:2x6x7:f32"},
                               {{"weight", seeded({6, 3, 4})}, {"bias", seeded({6}, 3)}});
        EXPECT_NNEF(
            "# CHECK: reshape(\n# CHECK-SAME: shape = [2, 3, 3, 4]\n# CHECK: transpose(\n# "
            "CHECK-SAME: axes = "
            "[0, 2, 1, 3]\n# CHECK: reshape(\n# CHECK-SAME: shape = [6, 3, 4]\n# CHECK: deconv(",
            e);
    }
};

T2N_TEST_SUITE(TranslateConvTest)
#include "conv_test.moc"
