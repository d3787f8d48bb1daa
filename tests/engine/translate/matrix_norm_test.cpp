// translate/lower_matrix_norm.cpp: matrix norms without singular values, and
// renorm, as sums and maxima of absolute values.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateMatrixNormTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// The 1-norm (largest column sum) and Frobenius norm of a batch.
    void oneAndFrobenius() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %ord : int = prim::Constant[value=1]()
  %m2 : int = prim::Constant[value=-2]()
  %m1 : int = prim::Constant[value=-1]()
  %dims : int[] = prim::ListConstruct(%m2, %m1)
  %keep : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %fro : str = prim::Constant[value="fro"]()
  %a : Tensor = aten::linalg_matrix_norm(%x, %ord, %dims, %keep, %none)
  %b : Tensor = aten::linalg_matrix_norm(%x, %fro, %dims, %keep, %none)
  return (%a, %b)
)IR",
                               {"x:2x3x4:f32"});
        EXPECT_NNEF("# CHECK: max_reduce(", e);
    }

    /// The nuclear norm needs singular values: refused, naming the node.
    void nuclearNormIsRefused() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %m2 : int = prim::Constant[value=-2]()
  %m1 : int = prim::Constant[value=-1]()
  %dims : int[] = prim::ListConstruct(%m2, %m1)
  %keep : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %nuc : str = prim::Constant[value="nuc"]()
  %a : Tensor = aten::linalg_matrix_norm(%x, %nuc, %dims, %keep, %none)
  return (%a)
)IR",
                               {"x:3x3:f32"});
        QVERIFY2(e.error.find("aten::linalg_matrix_norm") != std::string::npos, e.error.c_str());
    }

    /// renorm of each row to a 2-norm of at most 1.
    void renormRows() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %p : int = prim::Constant[value=2]()
  %zero : int = prim::Constant[value=0]()
  %max : float = prim::Constant[value=1.]()
  %y : Tensor = aten::renorm(%x, %p, %zero, %max)
  return (%y)
)IR",
                               {"x:4x6:f32"});
        EXPECT_NNEF("# CHECK: select(", e);
    }
};

T2N_TEST_SUITE(TranslateMatrixNormTest)
#include "matrix_norm_test.moc"
