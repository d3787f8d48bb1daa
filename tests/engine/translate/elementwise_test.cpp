// translate/lower_elementwise.cpp and lower_math.cpp: arithmetic, comparisons,
// selection and clamping with PyTorch's broadcasting and type promotion.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslateElementwiseTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// add with alpha and sub of a broadcast operand.
    void addAlphaSubBroadcast() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %y : Tensor):
  %alpha : int = prim::Constant[value=2]()
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::add(%x, %y, %alpha)
  %b : Tensor = aten::sub(%a, %y, %one)
  return (%b)
)IR",
                               {"x:2x3x4:f32", "y:4:f32"});
        EXPECT_NNEF("# CHECK: mul(\n# CHECK: add(\n# CHECK: sub(", e);
    }

    /// division, comparison and where: select on a boolean mask.
    void divGtWhere() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %y : Tensor):
  %q : Tensor = aten::div(%x, %y)
  %m : Tensor = aten::gt(%x, %y)
  %r : Tensor = aten::where(%m, %q, %y)
  return (%r)
)IR",
                               {"x:3x4:f32", "y:3x4:f32"});
        EXPECT_NNEF("# CHECK: div(\n# CHECK: gt(\n# CHECK: select(", e);
    }

    /// clamp with both bounds, and clamp_min.
    void clamp() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %lo : float = prim::Constant[value=-0.5]()
  %hi : float = prim::Constant[value=0.5]()
  %zero : float = prim::Constant[value=0.]()
  %a : Tensor = aten::clamp(%x, %lo, %hi)
  %b : Tensor = aten::clamp_min(%x, %zero)
  return (%a, %b)
)IR",
                               {"x:4x5:f32"});
        EXPECT_NNEF("# CHECK: clamp(", e);
    }

    /// Unary math: exp, log of abs, sqrt of abs, erf.
    void unaryMath() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %a : Tensor = aten::abs(%x)
  %b : Tensor = aten::sqrt(%a)
  %c : Tensor = aten::log(%b)
  %d : Tensor = aten::exp(%x)
  %e : Tensor = aten::erf(%x)
  return (%c, %d, %e)
)IR",
                               {"x:3x3:f32"});
        EXPECT_NNEF(
            "# CHECK: abs(\n# CHECK: sqrt(\n# CHECK: log(\n# CHECK: exp(\n# CHECK: tract_core_erf(",
            e);
    }

    /// remainder by a scalar follows Python's sign (the divisor's).
    void remainderScalar() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %three : float = prim::Constant[value=3.]()
  %y : Tensor = aten::remainder(%x, %three)
  return (%y)
)IR",
                               {"x:2x8:f32"});
        EXPECT_NNEF("# CHECK: sub(", e);
    }

    /// fill and zero in functional form (what a kept fill_ / zero_ computes):
    /// the value broadcast to x's shape with select(x == x, v, v).
    void fillZero() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %y : Tensor):
  %v : float = prim::Constant[value=2.5]()
  %a : Tensor = aten::fill(%x, %v)
  %b : Tensor = aten::zero(%x)
  %c : Tensor = aten::fill(%x, %y)
  return (%a, %b, %c)
)IR",
                               {"x:3x4:f32", "y:scalar:f32"});
        EXPECT_NNEF("# CHECK: eq(\n# CHECK: select(", e);
    }

    /// Comparisons of booleans are logic for tract, whose comparisons compute
    /// numbers only ("Bool is not a number"): ne is tract_core_xor, eq its
    /// negation, lt "not a and b"; Khronos has no xor: (a or b) and not (a and b).
    void booleanComparisonsAsLogic() {
        const char* ir = R"IR(
graph(%self : Tensor, %x : Tensor, %y : Tensor):
  %zero : float = prim::Constant[value=0.]()
  %a : Tensor = aten::gt(%x, %zero)
  %b : Tensor = aten::gt(%y, %zero)
  %ne : Tensor = aten::ne(%a, %b)
  %eq : Tensor = aten::eq(%a, %b)
  %lt : Tensor = aten::lt(%a, %b)
  %xor : Tensor = aten::logical_xor(%a, %b)
  return (%ne, %eq, %lt, %xor)
)IR";
        auto e = exportSnippet(ir, {"x:3x4:f32", "y:3x4:f32"});
        EXPECT_NNEF("# CHECK-NOT: ne(\n# CHECK: tract_core_xor(\n# CHECK: not(\n# CHECK: and(", e);
        t2n::ExportOptions khronos;
        khronos.target = t2n::TargetSpec::parse("khronos");
        auto k = exportSnippet(ir, {"x:3x4:f32", "y:3x4:f32"}, {}, khronos);
        EXPECT_NNEF("# CHECK-NOT: ne(\n# CHECK: or(\n# CHECK: and(\n# CHECK: not(", k);
    }

    /// An integer literal is a TDim in tract: beside an i64 tensor it is written
    /// as an i64 constant, so that add(i, 1) stays i64 for select and shifts.
    void integerLiteralOperandsAreI64() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %i : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %s : Tensor = aten::add(%i, %two, %one)
  %m : Tensor = aten::lt(%i, %two)
  %r : Tensor = aten::where(%m, %s, %i)
  return (%r)
)IR",
                               {"i:2x3:i64"});
        EXPECT_NNEF("# CHECK: tract_core_cast(2, to = 'i64')\n# CHECK: add(\n"
                    "# CHECK: select(",
                    e);
    }
};

T2N_TEST_SUITE(TranslateElementwiseTest)
#include "elementwise_test.moc"
