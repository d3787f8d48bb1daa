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

    /// forward() returning chunk's list itself (scripted `return torch.chunk(x,
    /// 2, 1)`): one graph output per piece, each checked against TorchScript's.
    void chunkReturned() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %two : int = prim::Constant[value=2]()
  %one : int = prim::Constant[value=1]()
  %l : Tensor[] = aten::chunk(%x, %two, %one)
  return (%l)
)IR",
                               {"x:2x6:f32"});
        EXPECT_NNEF("# CHECK: graph network(x) -> (output_0, output_1)\n"
                    "# CHECK: slice(x, axes = [1], begin = [0], end = [3])\n"
                    "# CHECK: slice(x, axes = [1], begin = [3], end = [6])",
                    e);
        QCOMPARE(e.report.check.outputs.size(), size_t(2));
    }

    /// split's list returned inside a tuple beside another tensor (scripted
    /// `return list(x.split(2, 1)), x * 2`): the pieces, then the product.
    void splitReturnedInTuple() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %two : int = prim::Constant[value=2]()
  %one : int = prim::Constant[value=1]()
  %l : Tensor[] = aten::split(%x, %two, %one)
  %y : Tensor = aten::mul(%x, %two)
  %t : (Tensor[], Tensor) = prim::TupleConstruct(%l, %y)
  return (%t)
)IR",
                               {"x:3x5:f32"});
        EXPECT_NNEF("# CHECK: graph network(x) -> (output_0, output_1, output_2, output_3)", e);
        QCOMPARE(e.report.check.outputs.size(), size_t(4));
    }

    /// A copy of split's list returned (scripted `return list(x.split(2, 1))`,
    /// aten::list): the pieces, the last one shorter.
    void splitCopyReturned() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %two : int = prim::Constant[value=2]()
  %one : int = prim::Constant[value=1]()
  %l : Tensor[] = aten::split(%x, %two, %one)
  %c : Tensor[] = aten::list(%l)
  return (%c)
)IR",
                               {"x:2x5:f32"});
        EXPECT_NNEF("# CHECK: graph network(x) -> (output_0, output_1, output_2)\n"
                    "# CHECK: slice(x, axes = [1], begin = [4], end = [5])",
                    e);
        QCOMPARE(e.report.check.outputs.size(), size_t(3));
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
