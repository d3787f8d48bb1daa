// translate/lower_layout.cpp: rearrangements that move elements without
// computing (flip, roll, rot90, movedim, channel_shuffle, tile).
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateLayoutTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// flip two axes and roll one, a negative shift included.
    void flipAndRoll() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %two : int = prim::Constant[value=2]()
  %neg : int = prim::Constant[value=-2]()
  %fd : int[] = prim::ListConstruct(%zero, %two)
  %f : Tensor = aten::flip(%x, %fd)
  %shifts : int[] = prim::ListConstruct(%neg)
  %rd : int[] = prim::ListConstruct(%two)
  %r : Tensor = aten::roll(%x, %shifts, %rd)
  return (%f, %r)
)IR",
                               {"x:2x3x5:f32"});
        EXPECT_NNEF("# CHECK: concat(", e);
    }

    /// rot90 three times over the last two axes, and movedim.
    void rot90AndMovedim() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %three : int = prim::Constant[value=3]()
  %m2 : int = prim::Constant[value=-2]()
  %m1 : int = prim::Constant[value=-1]()
  %zero : int = prim::Constant[value=0]()
  %dims : int[] = prim::ListConstruct(%m2, %m1)
  %r : Tensor = aten::rot90(%x, %three, %dims)
  %m : Tensor = aten::movedim(%x, %zero, %m1)
  return (%r, %m)
)IR",
                               {"x:2x3x4:f32"});
        EXPECT_NNEF("# CHECK: transpose(", e);
    }

    /// channel_shuffle of 6 channels in 3 groups, and tile.
    void channelShuffleAndTile() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %three : int = prim::Constant[value=3]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %s : Tensor = aten::channel_shuffle(%x, %three)
  %reps : int[] = prim::ListConstruct(%one, %two, %one, %one)
  %t : Tensor = aten::tile(%x, %reps)
  return (%s, %t)
)IR",
                               {"x:1x6x2x2:f32"});
        EXPECT_NNEF("# CHECK: tile(", e);
    }
};

T2N_TEST_SUITE(TranslateLayoutTest)
#include "layout_test.moc"
