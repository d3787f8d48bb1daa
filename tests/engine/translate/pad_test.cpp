// translate/lower_pad.cpp: constant padding (negative pads crop) and the reflect,
// replicate and circular modes of aten::pad.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslatePadTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// constant_pad_nd on the last two axes with a value.
    void constantPad() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %pads : int[] = prim::ListConstruct(%one, %two, %two, %one)
  %value : float = prim::Constant[value=0.5]()
  %y : Tensor = aten::constant_pad_nd(%x, %pads, %value)
  return (%y)
)IR",
                               {"x:1x2x3x4:f32"});
        EXPECT_NNEF("# CHECK: pad(\n# CHECK-SAME: padding = [(0, 0), (0, 0), (2, 1), (1, 2)]", e);
    }

    /// reflect padding through aten::pad.
    void reflectPad() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %two : int = prim::Constant[value=2]()
  %pads : int[] = prim::ListConstruct(%two, %two)
  %mode : str = prim::Constant[value="reflect"]()
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::pad(%x, %pads, %mode, %none)
  return (%y)
)IR",
                               {"x:1x3x6:f32"});
        EXPECT_NNEF("# CHECK: pad(\n# CHECK-SAME: border = 'reflect'", e);
    }

    /// a negative pad crops.
    void negativePadCrops() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %neg : int = prim::Constant[value=-1]()
  %pads : int[] = prim::ListConstruct(%neg, %one)
  %zero : float = prim::Constant[value=0.]()
  %y : Tensor = aten::constant_pad_nd(%x, %pads, %zero)
  return (%y)
)IR",
                               {"x:2x5:f32"});
        EXPECT_NNEF("# CHECK: graph", e);
    }
};

T2N_TEST_SUITE(TranslatePadTest)
#include "pad_test.moc"
