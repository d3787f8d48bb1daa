// translate/lower_shape.cpp and lower_layout.cpp: views, permutations, squeezes,
// expansion and layout moves become reshape, transpose, squeeze, unsqueeze, tile.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslateShapeTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// view and permute: reshape then transpose with the same axes.
    void viewPermute() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %two : int = prim::Constant[value=2]()
  %six : int = prim::Constant[value=6]()
  %four : int = prim::Constant[value=4]()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %shape : int[] = prim::ListConstruct(%two, %six, %four)
  %v : Tensor = aten::view(%x, %shape)
  %perm : int[] = prim::ListConstruct(%zero, %two, %one)
  %y : Tensor = aten::permute(%v, %perm)
  return (%y)
)IR",
                               {"x:2x3x2x4:f32"});
        EXPECT_NNEF("# CHECK: reshape(\n# CHECK: transpose(\n# CHECK-SAME: axes = [0, 2, 1]", e);
    }

    /// unsqueeze, squeeze of that axis, and transpose of two axes.
    void squeezeUnsqueezeTranspose() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %u : Tensor = aten::unsqueeze(%x, %one)
  %s : Tensor = aten::squeeze(%u, %one)
  %t : Tensor = aten::transpose(%s, %zero, %one)
  return (%u, %t)
)IR",
                               {"x:3x4:f32"});
        EXPECT_NNEF("# CHECK: unsqueeze(\n# CHECK: transpose(", e);
    }

    /// flatten from axis 1, as before a classifier.
    void flatten() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %neg : int = prim::Constant[value=-1]()
  %y : Tensor = aten::flatten(%x, %one, %neg)
  return (%y)
)IR",
                               {"x:2x3x4x5:f32"});
        EXPECT_NNEF("# CHECK: reshape(", e);
    }

    /// expand a broadcast axis: tile.
    void expand() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %neg : int = prim::Constant[value=-1]()
  %four : int = prim::Constant[value=4]()
  %false : bool = prim::Constant[value=0]()
  %size : int[] = prim::ListConstruct(%neg, %four, %neg)
  %y : Tensor = aten::expand(%x, %size, %false)
  return (%y)
)IR",
                               {"x:2x1x3:f32"});
        EXPECT_NNEF("# CHECK: tile(", e);
    }

    /// flip and roll from the layout family.
    void flipRoll() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %dims : int[] = prim::ListConstruct(%one)
  %shifts : int[] = prim::ListConstruct(%two)
  %f : Tensor = aten::flip(%x, %dims)
  %r : Tensor = aten::roll(%x, %shifts, %dims)
  return (%f, %r)
)IR",
                               {"x:2x5:f32"});
        EXPECT_NNEF("# CHECK: graph", e);
    }

    /// x.cpu() is the tensor itself; torch.as_tensor(x, dtype=float64) of
    /// a tensor is a cast.
    void cpuAndAsTensor() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %f64 : int = prim::Constant[value=7]()
  %c : Tensor = aten::cpu(%x)
  %h : Tensor = aten::as_tensor(%c, %f64, %none)
  %y : Tensor = aten::mul(%h, %h)
  return (%y)
)IR",
                               {"x:2x3:f32"});
        EXPECT_NNEF("# CHECK: tract_core_cast(\n# CHECK-NOT: cpu", e);
    }

    /// Two outputs computed by identical statements: the second is a copy of
    /// the first (tract 0.23.5's declutter merges such twins and left a Dummy
    /// op in a third output sharing a node with them: repeated_outputs.cpp).
    void repeatedOutputIsACopy() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %v : Tensor):
  %zero : int = prim::Constant[value=0]()
  %two : int = prim::Constant[value=2]()
  %a : Tensor = aten::unsqueeze(%v, %zero)
  %b : Tensor = aten::unsqueeze(%v, %zero)
  %c : Tensor = aten::unsqueeze(%a, %two)
  return (%a, %c, %b)
)IR",
                               {"v:5:f32"});
        EXPECT_NNEF("# CHECK: output_0 = unsqueeze(v\n# CHECK: output_2 = copy(output_0)", e);
    }
};

T2N_TEST_SUITE(TranslateShapeTest)
#include "shape_test.moc"
