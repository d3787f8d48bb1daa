// translate/lower_advanced_index.cpp: reading and writing with several index
// tensors (x[:, rows, cols], x[rows, :, cols] = v) through tract_core_gather_nd
// and tract_core_scatter_nd, in PyTorch's axis order for consecutive and
// separated indexed axes, with negative indices counted from the end. Every
// snippet is checked against LibTorch's own advanced indexing.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateAdvancedIndexTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// x[:, rows, cols]: consecutive indexed axes after a full slice; B takes
    /// their place, so the gathered [B, N] is moved back to [N, B].
    void gatherConsecutiveAfterSlice() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %rows : Tensor, %cols : Tensor):
  %none : NoneType = prim::Constant()
  %idx : Tensor?[] = prim::ListConstruct(%none, %rows, %cols)
  %y : Tensor = aten::index(%x, %idx)
  return (%y)
)IR",
                               {"x:2x5x6:f32", "rows:4:i64=-5..4", "cols:4:i64=-6..5"});
        EXPECT_NNEF("# CHECK: transpose(\n# CHECK: tract_core_gather_nd(\n"
                    "# CHECK-SAME: batch_dims = 0\n# CHECK: transpose(",
                    e);
    }

    /// x[rows, :, cols]: a full slice between the indexed axes puts B first
    /// ([B, 5] here), with index tensors that broadcast ([3, 1] and [4]).
    void gatherSeparatedAxesBroadcastIndices() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %rows : Tensor, %cols : Tensor):
  %none : NoneType = prim::Constant()
  %idx : Tensor?[] = prim::ListConstruct(%rows, %none, %cols)
  %y : Tensor = aten::index(%x, %idx)
  return (%y)
)IR",
                               {"x:3x5x6:f32", "rows:3x1:i64=0..2", "cols:4:i64=-6..5"});
        EXPECT_NNEF("# CHECK: tract_core_broadcast(\n# CHECK: tract_core_gather_nd(", e);
    }

    /// x[rows, cols] on the leading axes: tract_core_gather_nd as is.
    void gatherLeadingAxes() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %rows : Tensor, %cols : Tensor):
  %idx : Tensor?[] = prim::ListConstruct(%rows, %cols)
  %y : Tensor = aten::index(%x, %idx)
  return (%y)
)IR",
                               {"x:4x5x3:f32", "rows:2x3:i64=0..3", "cols:2x3:i64=0..4"});
        EXPECT_NNEF("# CHECK-NOT: transpose(\n# CHECK: tract_core_gather_nd(", e);
    }

    /// x[rows, :, cols] = v: separated axes, values in PyTorch's indexed
    /// shape [B, 5]; written with tract_core_scatter_nd on the moved axes.
    void indexPutSeparatedAxes() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %rows : Tensor, %cols : Tensor, %v : Tensor):
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %idx : Tensor?[] = prim::ListConstruct(%rows, %none, %cols)
  %y : Tensor = aten::index_put(%x, %idx, %v, %false)
  return (%y)
)IR",
                               {"x:3x5x6:f32", "rows:2:i64=0..2", "cols:2:i64=-6..5", "v:2x5:f32"});
        EXPECT_NNEF("# CHECK: transpose(\n# CHECK: tract_core_scatter_nd(\n# CHECK: transpose(", e);
    }

    /// x[:, rows, cols] = v with consecutive axes after a slice, v broadcast
    /// from one row.
    void indexPutConsecutiveAfterSlice() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %rows : Tensor, %cols : Tensor, %v : Tensor):
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %idx : Tensor?[] = prim::ListConstruct(%none, %rows, %cols)
  %y : Tensor = aten::index_put(%x, %idx, %v, %false)
  return (%y)
)IR",
                               {"x:2x5x6:f32", "rows:3:i64=0..4", "cols:3:i64=0..5", "v:1:f32"});
        EXPECT_NNEF("# CHECK: tract_core_scatter_nd(", e);
    }

    /// A boolean mask among several indices selects a data-dependent number
    /// of items: refused, naming the node.
    void maskAmongSeveralIndicesIsRefused() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %m : Tensor, %cols : Tensor):
  %idx : Tensor?[] = prim::ListConstruct(%m, %cols)
  %y : Tensor = aten::index(%x, %idx)
  return (%y)
)IR",
                               {"x:3x4:f32", "m:3:bool", "cols:1:i64=0..3"});
        QVERIFY2(e.error.find("mixing a boolean mask") != std::string::npos, e.error.c_str());
        QVERIFY2(e.error.find("aten::index") != std::string::npos, e.error.c_str());
    }
};

T2N_TEST_SUITE(TranslateAdvancedIndexTest)
#include "advanced_index_test.moc"
