// translate/lower_lists.cpp: lists and tuples of tensors, concatenation, stacking,
// splitting and slicing.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslateListsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// cat along axis 1 of two inputs: concat.
    void cat() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %l : Tensor[] = prim::ListConstruct(%a, %b)
  %y : Tensor = aten::cat(%l, %one)
  return (%y)
)IR",
                               {"a:2x3:f32", "b:2x5:f32"});
        EXPECT_NNEF("# CHECK: concat(\n# CHECK-SAME: axis = 1", e);
    }

    /// stack along a new axis 0.
    void stack() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %zero : int = prim::Constant[value=0]()
  %l : Tensor[] = prim::ListConstruct(%a, %b)
  %y : Tensor = aten::stack(%l, %zero)
  return (%y)
)IR",
                               {"a:3x4:f32", "b:3x4:f32"});
        EXPECT_NNEF("# CHECK: stack(", e);
    }

    /// chunk into three and unpack: three slices.
    void chunkUnpack() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %three : int = prim::Constant[value=3]()
  %one : int = prim::Constant[value=1]()
  %l : Tensor[] = aten::chunk(%x, %three, %one)
  %a : Tensor, %b : Tensor, %c : Tensor = prim::ListUnpack(%l)
  return (%a, %c)
)IR",
                               {"x:2x9:f32"});
        EXPECT_NNEF("# CHECK: slice(", e);
    }

    /// slice with a step, select one index, narrow.
    void sliceSelectNarrow() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %six : int = prim::Constant[value=6]()
  %s : Tensor = aten::slice(%x, %one, %one, %six, %two)
  %t : Tensor = aten::select(%x, %zero, %one)
  %n : Tensor = aten::narrow(%x, %one, %two, %two)
  return (%s, %t, %n)
)IR",
                               {"x:3x8:f32"});
        EXPECT_NNEF("# CHECK: slice(", e);
    }
};

T2N_TEST_SUITE(TranslateListsTest)
#include "lists_test.moc"
