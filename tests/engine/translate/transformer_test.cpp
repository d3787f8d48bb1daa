// translate/lower_transformer.cpp: the operators transformer blocks are made
// of besides attention: embedding lookups and gathers, layer / instance
// norms, triangular masks, top-k, einsum and the small matrix products
// (baddbmm, mv, addmv, dot, outer), each checked against LibTorch.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslateTransformerTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Token ids through an embedding table, then layer_norm with weight and
    /// bias over the last axis.
    void embeddingThenLayerNorm() {
        auto e = exportSnippet(
            R"IR(
graph(%self : Tensor, %ids : Tensor):
  %table : Tensor = prim::GetAttr[name="table"](%self)
  %w : Tensor = prim::GetAttr[name="w"](%self)
  %b : Tensor = prim::GetAttr[name="b"](%self)
  %neg : int = prim::Constant[value=-1]()
  %false : bool = prim::Constant[value=0]()
  %six : int = prim::Constant[value=6]()
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %x : Tensor = aten::embedding(%table, %ids, %neg, %false, %false)
  %shape : int[] = prim::ListConstruct(%six)
  %y : Tensor = aten::layer_norm(%x, %shape, %w, %b, %eps, %false)
  return (%y)
)IR",
            {"ids:2x4:i64=0..9"},
            {{"table", seeded({10, 6}, 71)}, {"w", seeded({6}, 72)}, {"b", seeded({6}, 73)}});
        EXPECT_NNEF("# CHECK: tract_core_gather(\n# CHECK-SAME: axis = 0", e);
    }

    /// triu above the diagonal plus tril below it, and top-3 values and
    /// indices along the last axis.
    void triangularMasksAndTopk() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %minus : int = prim::Constant[value=-1]()
  %three : int = prim::Constant[value=3]()
  %last : int = prim::Constant[value=-1]()
  %true : bool = prim::Constant[value=1]()
  %up : Tensor = aten::triu(%x, %one)
  %down : Tensor = aten::tril(%x, %minus)
  %both : Tensor = aten::add(%up, %down, %one)
  %v : Tensor, %i : Tensor = aten::topk(%x, %three, %last, %true, %true)
  return (%both, %v, %i)
)IR",
                               {"x:2x5x5:f32"});
        EXPECT_NNEF("# CHECK: tract_core_trilu(\n# CHECK: tract_core_trilu(\n"
                    "# CHECK: tract_core_topk(",
                    e);
    }

    /// Attention scores written as einsum (bhid,bhjd->bhij): tract_core_einsum.
    void einsumScores() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %q : Tensor, %k : Tensor):
  %eq : str = prim::Constant[value="bhid,bhjd->bhij"]()
  %none : NoneType = prim::Constant()
  %ops : Tensor[] = prim::ListConstruct(%q, %k)
  %s : Tensor = aten::einsum(%eq, %ops, %none)
  return (%s)
)IR",
                               {"q:2x3x4x5:f32", "k:2x3x6x5:f32"});
        EXPECT_NNEF("# CHECK: tract_core_einsum(", e);
    }

    /// baddbmm with beta and alpha, and addmv / outer / dot on vectors.
    void smallMatrixProducts() {
        auto e = exportSnippet(
            R"IR(
graph(%self : Tensor, %c : Tensor, %a : Tensor, %b : Tensor, %m : Tensor, %v : Tensor, %u : Tensor):
  %beta : float = prim::Constant[value=0.5]()
  %alpha : float = prim::Constant[value=2.]()
  %bmm : Tensor = aten::baddbmm(%c, %a, %b, %beta, %alpha)
  %mv : Tensor = aten::addmv(%u, %m, %v, %beta, %alpha)
  %outer : Tensor = aten::outer(%u, %v)
  %dot : Tensor = aten::dot(%v, %v)
  return (%bmm, %mv, %outer, %dot)
)IR",
            {"c:2x3x4:f32", "a:2x3x5:f32", "b:2x5x4:f32", "m:3x4:f32", "v:4:f32", "u:3:f32"});
        EXPECT_NNEF("# CHECK: matmul(", e);
    }

    /// gather along axis 1 and index_select of rows.
    void gatherAndIndexSelect() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %g : Tensor, %rows : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %a : Tensor = aten::gather(%x, %one, %g, %false)
  %b : Tensor = aten::index_select(%x, %zero, %rows)
  return (%a, %b)
)IR",
                               {"x:3x4:f32", "g:3x2:i64=0..3", "rows:5:i64=0..2"});
        EXPECT_NNEF("# CHECK: tract_core_gather_elements(\n# CHECK: tract_core_gather(", e);
    }
};

T2N_TEST_SUITE(TranslateTransformerTest)
#include "transformer_test.moc"
