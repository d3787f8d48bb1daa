// translate/lower_distance.cpp: distances and similarities written with
// elementwise operations and reductions, for p = 1, 2, inf and any other p.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateDistanceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// cdist between two sets of points, Euclidean and p = 3.
    void cdistEuclideanAndP3() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %two : float = prim::Constant[value=2.]()
  %three : float = prim::Constant[value=3.]()
  %none : NoneType = prim::Constant()
  %d2 : Tensor = aten::cdist(%a, %b, %two, %none)
  %d3 : Tensor = aten::cdist(%a, %b, %three, %none)
  return (%d2, %d3)
)IR",
                               {"a:2x5x4:f32", "b:2x6x4:f32"});
        EXPECT_NNEF("# CHECK: sum_reduce(", e);
    }

    /// pairwise_distance with p = 1 (Manhattan), kept dims. (torch's IR
    /// parser reads no `inf` literal: dist with p = inf is a fixture row.)
    void pairwiseDistanceManhattan() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %p : float = prim::Constant[value=1.]()
  %eps : float = prim::Constant[value=1e-06]()
  %keep : bool = prim::Constant[value=1]()
  %d : Tensor = aten::pairwise_distance(%a, %b, %p, %eps, %keep)
  return (%d)
)IR",
                               {"a:3x7:f32", "b:3x7:f32"});
        EXPECT_NNEF("# CHECK: abs(\n# CHECK: sum_reduce(", e);
    }

    /// cosine_similarity along axis 1, and cross of 3-vectors.
    void cosineAndCross() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %eps : float = prim::Constant[value=1e-08]()
  %c : Tensor = aten::cosine_similarity(%a, %b, %one, %eps)
  %x : Tensor = aten::cross(%a, %b, %one)
  return (%c, %x)
)IR",
                               {"a:4x3:f32", "b:4x3:f32"});
        EXPECT_NNEF("# CHECK: tract_core_gather", e);
    }
};

T2N_TEST_SUITE(TranslateDistanceTest)
#include "distance_test.moc"
