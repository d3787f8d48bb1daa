// translate/lower_linalg.cpp: determinants (cofactor expansion) and singular
// value decompositions (unrolled Jacobi sweeps) of small square matrices;
// larger ones are refused in words. The Kabsch alignment and the batches
// against PyTorch's numbers are fixtures (linalg_models.py).
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateLinalgTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// det of a batch of 3x3 matrices and of one 4x4 matrix (a 0-d result);
    /// aten::det, saved and loaded again, is compiled to aten::linalg_det.
    void determinants() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %d3 : Tensor = aten::linalg_det(%a)
  %d4 : Tensor = aten::det(%b)
  return (%d3, %d4)
)IR",
                               {"a:5x3x3:f32", "b:4x4:f32"});
        EXPECT_NNEF("# CHECK: slice(\n# CHECK: mul(\n# CHECK: sub(\n# CHECK: squeeze(", e);
    }

    /// svdvals of a batch of 3x3 matrices: S only, sorted like LAPACK's.
    void singularValues() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor):
  %none : NoneType = prim::Constant()
  %s : Tensor = aten::linalg_svdvals(%a, %none)
  return (%s)
)IR",
                               {"a:6x3x3:f32"});
        EXPECT_NNEF("# CHECK: rsqrt(\n# CHECK: matmul(", e);
    }

    /// A 5x5 determinant is beyond the cofactor expansion's limit: refused,
    /// naming the node, the size and the limit.
    void largeDeterminantIsRefused() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor):
  %d : Tensor = aten::linalg_det(%a)
  return (%d)
)IR",
                               {"a:2x5x5:f32"});
        QVERIFY2(e.error.find("aten::linalg_det") != std::string::npos, e.error.c_str());
        QVERIFY2(e.error.find("5x5") != std::string::npos, e.error.c_str());
        QVERIFY2(e.error.find("up to 4x4") != std::string::npos, e.error.c_str());
    }

    /// SVD of a 5x5 and of a non-square matrix: refused the same way.
    void largeOrRectangularSvdIsRefused() {
        for (const char* shape : {"a:5x5:f32", "a:3x4:f32"}) {
            auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor):
  %full : bool = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %u : Tensor, %s : Tensor, %vh : Tensor = aten::linalg_svd(%a, %full, %none)
  return (%u, %s, %vh)
)IR",
                                   {shape});
            QVERIFY2(e.error.find("aten::linalg_svd") != std::string::npos, e.error.c_str());
            QVERIFY2(e.error.find("up to 4x4") != std::string::npos, e.error.c_str());
        }
    }
};

T2N_TEST_SUITE(TranslateLinalgTest)
#include "linalg_test.moc"
