// translate/lower_special_functions.cpp: Bessel, log-gamma and digamma as
// polynomial and series formulas of standard operations, checked against
// LibTorch's own functions (the interpreter runs the formulas).
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateSpecialFunctionsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// i0 and i1e on both sides of the polynomials' switch at |x| = 3.75.
    void bessel() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %four : float = prim::Constant[value=4.]()
  %w : Tensor = aten::mul(%x, %four)
  %a : Tensor = aten::i0(%w)
  %b : Tensor = aten::special_i1e(%w)
  return (%a, %b)
)IR",
                               {"x:4x5:f32"});
        EXPECT_NNEF("# CHECK: select(", e);
        QCOMPARE(e.report.check.outputs.size(), size_t(2));
    }

    /// lgamma on positive and negative non-integers (the reflection branch),
    /// digamma on positive numbers.
    void lgammaAndDigamma() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %half : float = prim::Constant[value=0.5]()
  %three : float = prim::Constant[value=3.]()
  %w : Tensor = aten::mul(%x, %three)
  %l : Tensor = aten::lgamma(%w)
  %ax : Tensor = aten::abs(%x)
  %p : Tensor = aten::add(%ax, %half, %one)
  %d : Tensor = aten::digamma(%p)
  return (%l, %d)
)IR",
                               {"x:3x6:f32"});
        EXPECT_NNEF("# CHECK: log(", e);
    }
};

T2N_TEST_SUITE(TranslateSpecialFunctionsTest)
#include "special_functions_test.moc"
