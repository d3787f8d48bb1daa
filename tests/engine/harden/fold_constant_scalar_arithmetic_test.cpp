// harden/fold_constant_scalar_arithmetic.cpp: comparisons, __not__, casts and __contains__ of
// constants fold in one walk; mutated lists and tensor comparisons are data and stay.
#include "engine/harden_test_util.h"
#include "harden/fold_constant_scalar_arithmetic.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class FoldConstantScalarArithmeticTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Comparisons, __not__ and casts of constants fold in one walk, chain included.
    void scalarChainFolds() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %a : int = prim::Constant[value=2]()
  %b : int = prim::Constant[value=3]()
  %c : bool = aten::lt(%a, %b)
  %n : bool = aten::__not__(%c)
  %f : float = aten::Float(%a)
  %s : int = aten::mul(%a, %b)
  %t : (bool, float, int) = prim::TupleConstruct(%n, %f, %s)
  return (%t))IR"));
        t2n::harden::foldConstantScalarArithmetic(ctx);
        QCOMPARE(count(ctx, "expressions_folded"), int64_t(4));
        EXPECT_IR("# CHECK-NOT: aten::lt\n# CHECK-NOT: aten::__not__\n# CHECK-NOT: aten::Float\n"
                  "# CHECK-NOT: aten::mul",
                  ctx.graph);
    }

    /// __contains__ over a constant list folds; `x is None` for a Tensor x is false.
    void scalarContainsAndIsNone() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %a : int = prim::Constant[value=8000]()
  %b : int = prim::Constant[value=16000]()
  %sr : int = prim::Constant[value=16000]()
  %none : NoneType = prim::Constant()
  %l : int[] = prim::ListConstruct(%a, %b)
  %has : bool = aten::__contains__(%l, %sr)
  %isnone : bool = aten::__is__(%x, %none)
  %t : (bool, bool) = prim::TupleConstruct(%has, %isnone)
  return (%t))IR"));
        t2n::harden::foldConstantScalarArithmetic(ctx);
        QCOMPARE(count(ctx, "expressions_folded"), int64_t(2));
        EXPECT_IR("# CHECK: prim::Constant[value=1]\n# CHECK: prim::Constant[value=0]\n"
                  "# CHECK: prim::TupleConstruct",
                  ctx.graph);
    }

    /// A list some op writes to is not a constant, and tensor comparisons are data.
    void scalarKeepsMutatedListAndTensors() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor, %y : Tensor):
  %a : int = prim::Constant[value=1]()
  %b : int = prim::Constant[value=2]()
  %l : int[] = prim::ListConstruct(%a)
  %l2 : int[] = aten::append(%l, %b)
  %has : bool = aten::__contains__(%l, %b)
  %e : Tensor = aten::eq(%x, %y)
  %t : (bool, Tensor) = prim::TupleConstruct(%has, %e)
  return (%t))IR"));
        t2n::harden::foldConstantScalarArithmetic(ctx);
        QCOMPARE(count(ctx, "expressions_folded"), int64_t(0));
        EXPECT_IR("# CHECK: aten::__contains__\n# CHECK: aten::eq", ctx.graph);
    }

    /// A comparison of a runtime value is not this pass's business.
    void scalarNoPattern() {
        PassContext ctx(parse(R"IR(
graph(%n : int):
  %a : int = prim::Constant[value=2]()
  %c : bool = aten::eq(%n, %a)
  return (%c))IR"));
        t2n::harden::foldConstantScalarArithmetic(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK: aten::eq", ctx.graph);
    }
};

T2N_TEST_SUITE(FoldConstantScalarArithmeticTest)
#include "fold_constant_scalar_arithmetic_test.moc"
