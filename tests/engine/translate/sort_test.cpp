// translate/lower_sort.cpp: sort, argsort, kthvalue and median as
// tract_core_topk over a whole axis (then a slice for one rank). Random
// inputs have no ties, so the indices are compared exactly too.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateSortTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Both results of a descending sort on the middle axis.
    void sortDescendingValuesAndIndices() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %dim : int = prim::Constant[value=1]()
  %desc : bool = prim::Constant[value=1]()
  %v : Tensor, %i : Tensor = aten::sort(%x, %dim, %desc)
  return (%v, %i)
)IR",
                               {"x:2x5x3:f32"});
        EXPECT_NNEF("# CHECK: tract_core_topk(\n# CHECK-SAME: axis = 1", e);
        // Both outputs were compared with TorchScript's, the indices too.
        QCOMPARE(e.report.check.outputs.size(), size_t(2));
    }

    /// argsort ascending on the last axis (a negative dim).
    void argsortLastAxis() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %dim : int = prim::Constant[value=-1]()
  %desc : bool = prim::Constant[value=0]()
  %i : Tensor = aten::argsort(%x, %dim, %desc)
  return (%i)
)IR",
                               {"x:3x6:f32"});
        EXPECT_NNEF("# CHECK: tract_core_topk(\n# CHECK-SAME: axis = 1", e);
    }

    /// The 2nd smallest along axis 0, kept as a size-1 axis.
    void kthvalueKeepdim() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %k : int = prim::Constant[value=2]()
  %dim : int = prim::Constant[value=0]()
  %keep : bool = prim::Constant[value=1]()
  %v : Tensor, %i : Tensor = aten::kthvalue(%x, %k, %dim, %keep)
  return (%v, %i)
)IR",
                               {"x:5x4:f32"});
        EXPECT_NNEF("# CHECK: tract_core_topk(\n# CHECK: slice(", e);
    }

    /// The lower median of an even count, as PyTorch takes it.
    void medianOfAnEvenCount() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %dim : int = prim::Constant[value=1]()
  %keep : bool = prim::Constant[value=0]()
  %v : Tensor, %i : Tensor = aten::median(%x, %dim, %keep)
  return (%v, %i)
)IR",
                               {"x:3x6:f32"});
        EXPECT_NNEF("# CHECK: tract_core_topk(", e);
    }
};

T2N_TEST_SUITE(TranslateSortTest)
#include "sort_test.moc"
