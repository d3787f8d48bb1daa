// translate/lower_binary_math.cpp: two-operand functions written with
// standard operations (atan2's quadrants, hypot, logaddexp, xlogy).
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateBinaryMathTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// atan2 over all four quadrants (normal inputs of both signs), hypot.
    void atan2AndHypot() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %y : Tensor, %x : Tensor):
  %a : Tensor = aten::atan2(%y, %x)
  %h : Tensor = aten::hypot(%y, %x)
  return (%a, %h)
)IR",
                               {"y:4x6:f32", "x:4x6:f32"});
        EXPECT_NNEF("# CHECK: sqrt(", e);
        QCOMPARE(e.report.check.outputs.size(), size_t(2));
    }

    /// logaddexp of values far apart, and xlogy with a positive second operand.
    void logaddexpAndXlogy() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %ten : float = prim::Constant[value=10.]()
  %wide : Tensor = aten::mul(%a, %ten)
  %l : Tensor = aten::logaddexp(%wide, %b)
  %pos : Tensor = aten::exp(%b)
  %x : Tensor = aten::xlogy(%a, %pos)
  return (%l, %x)
)IR",
                               {"a:3x5:f32", "b:3x5:f32"});
        EXPECT_NNEF("# CHECK: log(", e);
    }
};

T2N_TEST_SUITE(TranslateBinaryMathTest)
#include "binary_math_test.moc"
