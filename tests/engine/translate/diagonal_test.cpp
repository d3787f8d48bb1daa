// translate/lower_diagonal.cpp: diagonals as slices of a reshaped view,
// diag_embed as padding and reshapes, take_along_dim as tract_core_gather.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateDiagonalTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// The first upper diagonal of axes 0 and 2 of a 3-d tensor.
    void diagonalWithOffset() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %offset : int = prim::Constant[value=1]()
  %d1 : int = prim::Constant[value=0]()
  %d2 : int = prim::Constant[value=2]()
  %y : Tensor = aten::diagonal(%x, %offset, %d1, %d2)
  return (%y)
)IR",
                               {"x:4x3x5:f32"});
        // not a strided slice of the merged axis (tract's declutter cannot pull
        // its Downsample over the Reshape): items from the first, read as rows
        // of m + 1, first column
        EXPECT_NNEF("# CHECK: reshape(\n# CHECK: slice(\n# CHECK: pad(\n# CHECK: "
                    "reshape(\n# CHECK-SAME: shape = [4, 6]\n# CHECK: slice(\n# CHECK: squeeze(",
                    e);
    }

    /// A batch of vectors made into diagonal matrices.
    void diagEmbed() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %offset : int = prim::Constant[value=0]()
  %d1 : int = prim::Constant[value=-2]()
  %d2 : int = prim::Constant[value=-1]()
  %y : Tensor = aten::diag_embed(%x, %offset, %d1, %d2)
  return (%y)
)IR",
                               {"x:2x4:f32"});
        EXPECT_NNEF("# CHECK: pad(", e);
    }

    /// take_along_dim with argsort's indices sorts each row.
    void takeAlongDimSorts() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %dim : int = prim::Constant[value=1]()
  %desc : bool = prim::Constant[value=0]()
  %i : Tensor = aten::argsort(%x, %dim, %desc)
  %y : Tensor = aten::take_along_dim(%x, %i, %dim)
  return (%y)
)IR",
                               {"x:3x7:f32"});
        EXPECT_NNEF("# CHECK: tract_core_gather", e);
    }
};

T2N_TEST_SUITE(TranslateDiagonalTest)
#include "diagonal_test.moc"
