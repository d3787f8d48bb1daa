// translate/lower_writes.cpp: functional writes into a tensor (slice_scatter,
// select_scatter) as slices and concatenations; zero_ and fill_ as selects.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateWritesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Rows 1..3 of x replaced by src.
    void sliceScatterRows() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %src : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %four : int = prim::Constant[value=4]()
  %y : Tensor = aten::slice_scatter(%x, %src, %zero, %one, %four, %one)
  return (%y)
)IR",
                               {"x:6x3:f32", "src:3x3:f32"});
        EXPECT_NNEF("# CHECK: concat(", e);
    }

    /// Column 2 of x replaced by a vector, on the last axis.
    void selectScatterColumn() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %src : Tensor):
  %dim : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %y : Tensor = aten::select_scatter(%x, %src, %dim, %two)
  return (%y)
)IR",
                               {"x:4x5:f32", "src:4:f32"});
        EXPECT_NNEF("# CHECK: concat(", e);
    }

    /// A forward() that writes into its own input. The check's TorchScript
    /// run gets its own copy of the example inputs: it used to add 1 to the
    /// very tensors the archive was fed next, and declared a correct
    /// archive wrong (max abs error 2).
    void forwardWritingIntoItsInput() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : float = prim::Constant[value=1.]()
  %two : float = prim::Constant[value=2.]()
  %alpha : int = prim::Constant[value=1]()
  %x1 : Tensor = aten::add_(%x, %one, %alpha)
  %y : Tensor = aten::mul(%x1, %two)
  return (%y)
)IR",
                               {"x:2x3:f32"});
        EXPECT_NNEF("# CHECK: mul(", e);
    }

    /// A write into an empty tensor (Swin's attention mask filled through an
    /// empty window slice) is the tensor itself: no concat of empty pieces,
    /// which tract 0.23.5 cannot evaluate (divide by zero in stack_tensors).
    void writeIntoAnEmptySliceIsNoConcat() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %empty : Tensor = aten::slice(%x, %zero, %two, %two, %one)
  %src : Tensor = aten::slice(%empty, %one, %zero, %two, %one)
  %y : Tensor = aten::slice_scatter(%empty, %src, %one, %zero, %two, %one)
  %l : Tensor[] = prim::ListConstruct(%x, %y)
  %r : Tensor = aten::cat(%l, %zero)
  return (%r)
)IR",
                               {"x:4x4:f32"});
        EXPECT_NNEF("# CHECK-NOT: axis = 1", e);
    }
};

T2N_TEST_SUITE(TranslateWritesTest)
#include "writes_test.moc"
