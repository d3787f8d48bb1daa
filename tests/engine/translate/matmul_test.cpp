// translate/lower_matmul.cpp: linear, matmul, bmm and addmm with their broadcasting and
// transposes.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslateMatmulTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// linear with bias on a 3-d input: NNEF linear (tract folds the leading axes).
    void linear3d() {
        auto e =
            exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %b : Tensor = prim::GetAttr[name="bias"](%self)
  %y : Tensor = aten::linear(%x, %w, %b)
  return (%y)
)IR",
                          {"x:2x3x6:f32"}, {{"weight", seeded({4, 6})}, {"bias", seeded({4}, 2)}});
        EXPECT_NNEF("# CHECK: variable\n# CHECK: = ", e);
    }

    /// matmul of two inputs with broadcast batch axes.
    void matmulBroadcast() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %y : Tensor = aten::matmul(%a, %b)
  return (%y)
)IR",
                               {"a:2x3x4x5:f32", "b:5x6:f32"});
        EXPECT_NNEF("# CHECK: matmul(", e);
    }

    /// bmm: batched matmul.
    void bmm() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %y : Tensor = aten::bmm(%a, %b)
  return (%y)
)IR",
                               {"a:3x4x5:f32", "b:3x5x2:f32"});
        EXPECT_NNEF("# CHECK: matmul(", e);
    }

    /// addmm with beta and alpha: bias + alpha * (a @ b) scaled as PyTorch does.
    void addmm() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %c : Tensor, %a : Tensor, %b : Tensor):
  %beta : float = prim::Constant[value=0.5]()
  %alpha : float = prim::Constant[value=2.]()
  %y : Tensor = aten::addmm(%c, %a, %b, %beta, %alpha)
  return (%y)
)IR",
                               {"c:3x4:f32", "a:3x5:f32", "b:5x4:f32"});
        EXPECT_NNEF("# CHECK: matmul(", e);
    }
};

T2N_TEST_SUITE(TranslateMatmulTest)
#include "matmul_test.moc"
