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

    /// Without tract_core_einsum (Khronos), an einsum in batched-matmul form
    /// is transposes, reshapes and one matmul: a contraction over two axes with
    /// free axes on both sides and a batch axis the output moves last.
    void einsumAsMatmulForKhronos() {
        t2n::ExportOptions khronos;
        khronos.target = t2n::TargetSpec::parse("khronos");
        khronos.checkIoNamesQuantityMatch = false;
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %eq : str = prim::Constant[value="bkcx,ckyb->xyb"]()
  %ops : Tensor[] = prim::ListConstruct(%a, %b)
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::einsum(%eq, %ops, %none)
  return (%y)
)IR",
                               {"a:2x3x4x5:f32", "b:4x3x6x2:f32"}, {}, khronos);
        EXPECT_NNEF("# CHECK-NOT: tract_core_einsum\n# CHECK: matmul(\n# CHECK: transpose(", e);
    }

    /// An einsum that is no matmul (a diagonal) is refused for Khronos,
    /// naming the node.
    void einsumDiagonalRefusedForKhronos() {
        t2n::ExportOptions khronos;
        khronos.target = t2n::TargetSpec::parse("khronos");
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor):
  %eq : str = prim::Constant[value="ii->i"]()
  %ops : Tensor[] = prim::ListConstruct(%a)
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::einsum(%eq, %ops, %none)
  return (%y)
)IR",
                               {"a:4x4:f32"}, {}, khronos);
        QVERIFY2(e.error.find("aten::einsum") != std::string::npos, e.error.c_str());
        QVERIFY2(e.error.find("tract_core_einsum") != std::string::npos, e.error.c_str());
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
