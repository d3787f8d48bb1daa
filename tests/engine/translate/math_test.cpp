// translate/lower_math.cpp: unary and ternary functions written with standard
// operations (erf, remainder's sign rule, log1p/expm1, addcdiv, lerp, glu).
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateMathTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// erf, and remainder / fmod by a scalar (results take the divisor's sign
    /// for remainder, the dividend's for fmod).
    void erfRemainderFmod() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %d : float = prim::Constant[value=0.75]()
  %a : Tensor = aten::erf(%x)
  %r : Tensor = aten::remainder(%x, %d)
  %f : Tensor = aten::fmod(%x, %d)
  return (%a, %r, %f)
)IR",
                               {"x:4x5:f32"});
        EXPECT_NNEF("# CHECK: floor(", e);
        QCOMPARE(e.report.check.outputs.size(), size_t(3));
    }

    /// log1p and expm1 near zero, where the plain formulas lose digits.
    void log1pExpm1NearZero() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %small : float = prim::Constant[value=0.001]()
  %s : Tensor = aten::mul(%x, %small)
  %a : Tensor = aten::log1p(%s)
  %b : Tensor = aten::expm1(%s)
  return (%a, %b)
)IR",
                               {"x:3x4:f32"});
        EXPECT_NNEF("# CHECK: graph", e);
    }

    /// addcdiv with a value, lerp with a tensor weight, glu on the last axis.
    void addcdivLerpGlu() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %a : Tensor, %b : Tensor):
  %v : float = prim::Constant[value=0.5]()
  %m1 : int = prim::Constant[value=-1]()
  %eb : Tensor = aten::exp(%b)
  %c : Tensor = aten::addcdiv(%x, %a, %eb, %v)
  %w : Tensor = aten::sigmoid(%b)
  %l : Tensor = aten::lerp(%x, %a, %w)
  %g : Tensor = aten::glu(%x, %m1)
  return (%c, %l, %g)
)IR",
                               {"x:3x4:f32", "a:3x4:f32", "b:3x4:f32"});
        EXPECT_NNEF("# CHECK: sigmoid(", e);
    }
};

T2N_TEST_SUITE(TranslateMathTest)
#include "math_test.moc"
