// Hardening passes that fold values, on IR snippets: size calls, scalar
// arithmetic, tuple round trips, prim::data, tensor mutation, dead code, and
// the rewrite limit every pass honours. Each case has its pattern or lacks it.
#include "harden/eliminate_dead_code.h"
#include "harden/fold_constant_scalar_arithmetic.h"
#include "harden/fold_tuple_index_through_tuple_construct.h"
#include "harden/fold_tuple_unpack_through_tuple_construct.h"
#include "harden/remove_tensor_mutation.h"
#include "harden/replace_size_calls_with_constants.h"
#include "harden/strip_prim_data.h"
#include "harden_test_util.h"
#include "suite_macros.h"

using t2n::harden::PassContext;

namespace {
auto parse(const char* ir) {
    return t2n::test::parseGraph(ir);
}
int64_t count(const PassContext& ctx, const char* name) {
    return t2n::test::statistic(ctx, name);
}
bool anyRemark(const PassContext& ctx, const char* text) {
    return t2n::test::anyContains(ctx.remarks, text);
}
} // namespace

class HardenFoldsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// aten::dim whose value only decides an If becomes the example's rank.
    void sizeIntoIfFolds() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %d : int = aten::dim(%x)
  %c : bool = aten::eq(%d, %one)
  %y : Tensor = prim::If(%c)
    block0():
      %z : Tensor = aten::unsqueeze(%x, %zero)
      -> (%z)
    block1():
      -> (%x)
  return (%y))IR"));
        ctx.exampleInputs = {torch::zeros({2, 3})};
        t2n::harden::replaceSizeCallsWithConstants(ctx);
        QCOMPARE(count(ctx, "size_calls_replaced"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: aten::dim\n# CHECK: prim::Constant[value=2]\n# CHECK: aten::eq",
                  ctx.graph);
    }

    /// A size that reaches control flow through an error message (format) still folds.
    void sizeIntoRaiseFolds() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %msg : str = prim::Constant[value="bad rank {}"]()
  %three : int = prim::Constant[value=3]()
  %d : int = aten::dim(%x)
  %c : bool = aten::ne(%d, %three)
  prim::If(%c)
    block0():
      %m : str = aten::format(%msg, %d)
      prim::RaiseException(%m)
      -> ()
    block1():
      -> ()
  return (%x))IR"));
        ctx.exampleInputs = {torch::zeros({1, 2, 3})};
        t2n::harden::replaceSizeCallsWithConstants(ctx);
        QCOMPARE(count(ctx, "size_calls_replaced"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: aten::dim", ctx.graph);
    }

    /// A size that also feeds tensor computation (aten::view) stays dynamic, with a remark.
    void sizeIntoTensorStays() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %big : int = prim::Constant[value=64]()
  %minus : int = prim::Constant[value=-1]()
  %msg : str = prim::Constant[value="too big"]()
  %n : int = aten::size(%x, %zero)
  %c : bool = aten::gt(%n, %big)
  prim::If(%c)
    block0():
      prim::RaiseException(%msg)
      -> ()
    block1():
      -> ()
  %shape : int[] = prim::ListConstruct(%n, %minus)
  %y : Tensor = aten::view(%x, %shape)
  return (%y))IR"));
        ctx.exampleInputs = {torch::zeros({4, 3})};
        t2n::harden::replaceSizeCallsWithConstants(ctx);
        QCOMPARE(count(ctx, "size_calls_replaced"), int64_t(0));
        QVERIFY(anyRemark(ctx, "also flows into aten::view"));
        EXPECT_IR("# CHECK: aten::size", ctx.graph);
    }

    /// A size used as a loop's trip count folds (loop operand 0 is control flow); a size
    /// carried through a loop into the graph's output does not.
    void sizeThroughLoops() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %n : int = aten::size(%x, %zero)
  %s : int = prim::Loop(%n, %true, %zero)
    block0(%i : int, %acc : int):
      %next : int = aten::add(%acc, %i)
      -> (%true, %next)
  return (%s))IR"));
        ctx.exampleInputs = {torch::zeros({5})};
        t2n::harden::replaceSizeCallsWithConstants(ctx);
        QCOMPARE(count(ctx, "size_calls_replaced"), int64_t(1));
        EXPECT_IR("# CHECK: prim::Constant[value=5]\n# CHECK: prim::Loop", ctx.graph);

        PassContext carried(parse(R"IR(
graph(%x : Tensor):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %three : int = prim::Constant[value=3]()
  %n : int = aten::size(%x, %zero)
  %s : int = prim::Loop(%three, %true, %n)
    block0(%i : int, %acc : int):
      %next : int = aten::add(%acc, %i)
      -> (%true, %next)
  return (%s))IR"));
        carried.exampleInputs = {torch::zeros({5})};
        t2n::harden::replaceSizeCallsWithConstants(carried);
        QCOMPARE(count(carried, "size_calls_replaced"), int64_t(0));
        EXPECT_IR("# CHECK: aten::size", carried.graph);
    }

    /// Without example inputs the pass leaves the graph and says why.
    void sizeWithoutInputsSkips() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %d : int = aten::dim(%x)
  %c : bool = aten::eq(%d, %d)
  prim::If(%c)
    block0():
      -> ()
    block1():
      -> ()
  return (%x))IR"));
        t2n::harden::replaceSizeCallsWithConstants(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(anyRemark(ctx, "no example inputs"));
    }

    /// A graph without size calls is left as it is (no run, no remark).
    void sizeNoPattern() {
        PassContext ctx(parse(t2n::test::kReluOnly));
        t2n::harden::replaceSizeCallsWithConstants(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(ctx.remarks.empty());
    }

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

    /// TupleIndex of a TupleConstruct (negative index too) becomes the element.
    void tupleIndexFolds() {
        PassContext ctx(parse(R"IR(
graph(%h : Tensor, %c : Tensor):
  %zero : int = prim::Constant[value=0]()
  %last : int = prim::Constant[value=-1]()
  %t : (Tensor, Tensor) = prim::TupleConstruct(%h, %c)
  %a : Tensor = prim::TupleIndex(%t, %zero)
  %b : Tensor = prim::TupleIndex(%t, %last)
  %s : Tensor = aten::mul(%a, %b)
  return (%s))IR"));
        t2n::harden::foldTupleIndexThroughTupleConstruct(ctx);
        QCOMPARE(count(ctx, "tuple_indices_folded"), int64_t(2));
        EXPECT_IR("# CHECK-NOT: prim::TupleIndex\n# CHECK: aten::mul(%h, %c)", ctx.graph);
    }

    /// A tuple that arrives as an input has no construct to see through.
    void tupleIndexNoPattern() {
        PassContext ctx(parse(R"IR(
graph(%t : (Tensor, Tensor)):
  %zero : int = prim::Constant[value=0]()
  %a : Tensor = prim::TupleIndex(%t, %zero)
  return (%a))IR"));
        t2n::harden::foldTupleIndexThroughTupleConstruct(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK: prim::TupleIndex", ctx.graph);
    }

    /// TupleUnpack of a TupleConstruct routes each output to the element.
    void tupleUnpackFolds() {
        PassContext ctx(parse(R"IR(
graph(%h : Tensor, %c : Tensor):
  %t : (Tensor, Tensor) = prim::TupleConstruct(%h, %c)
  %a : Tensor, %b : Tensor = prim::TupleUnpack(%t)
  %s : Tensor = aten::sub(%b, %a, %b)
  return (%s))IR"));
        t2n::harden::foldTupleUnpackThroughTupleConstruct(ctx);
        QCOMPARE(count(ctx, "tuple_unpacks_folded"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: prim::TupleUnpack\n# CHECK: aten::sub(%c, %h, %c)", ctx.graph);
    }

    /// An unpacked input tuple stays.
    void tupleUnpackNoPattern() {
        PassContext ctx(parse(R"IR(
graph(%t : (Tensor, Tensor)):
  %a : Tensor, %b : Tensor = prim::TupleUnpack(%t)
  return (%b))IR"));
        t2n::harden::foldTupleUnpackThroughTupleConstruct(ctx);
        QVERIFY(ctx.counts.empty());
    }

    /// prim::data(t) is replaced by t; a graph without it is untouched.
    void primDataStripped() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %d : Tensor = prim::data(%x)
  %y : Tensor = aten::relu(%d)
  return (%y))IR"));
        t2n::harden::stripPrimData(ctx);
        QCOMPARE(count(ctx, "data_reads_stripped"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: prim::data\n# CHECK: aten::relu(%x)", ctx.graph);
        t2n::harden::stripPrimData(ctx);
        QCOMPARE(count(ctx, "data_reads_stripped"), int64_t(1));
    }

    /// An in-place op on a value nothing else sees becomes functional; relu stays relu.
    void tensorMutationRemoved() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %y : Tensor = aten::mul(%x, %x)
  %z : Tensor = aten::relu_(%y)
  return (%z))IR"));
        t2n::harden::removeTensorMutation(ctx);
        QCOMPARE(count(ctx, "ops_made_functional"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: aten::relu_\n# CHECK: aten::relu", ctx.graph);
        PassContext none(parse(t2n::test::kReluOnly));
        t2n::harden::removeTensorMutation(none);
        QVERIFY(none.counts.empty());
    }

    /// Unused nodes go, and so does an unused loop that only counts; live nodes stay.
    void deadCodeRemoved() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %n : int = aten::size(%x, %zero)
  %s : int = prim::Loop(%n, %true, %zero)
    block0(%i : int, %acc : int):
      %next : int = aten::add(%acc, %i)
      -> (%true, %next)
  %dead : Tensor = aten::relu(%x)
  %y : Tensor = aten::neg(%x)
  return (%y))IR"));
        t2n::harden::eliminateDeadCode(ctx);
        QVERIFY(count(ctx, "nodes_removed") >= 4);
        EXPECT_IR("# CHECK-NOT: prim::Loop\n# CHECK-NOT: aten::relu\n# CHECK: aten::neg",
                  ctx.graph);
        PassContext clean(parse(R"IR(
graph(%x : Tensor):
  %y : Tensor = aten::neg(%x)
  return (%y))IR"));
        t2n::harden::eliminateDeadCode(clean);
        QVERIFY(clean.counts.empty());
    }

    /// Past the rewrite limit a pass stops, remarks it, and counts only what it did.
    void rewriteLimitStopsAPass() {
        t2n::harden::RewriteBudget budget{1, 0};
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %a : Tensor = prim::data(%x)
  %b : Tensor = prim::data(%a)
  return (%b))IR"),
                        &budget);
        t2n::harden::stripPrimData(ctx);
        QCOMPARE(count(ctx, "data_reads_stripped"), int64_t(1));
        QVERIFY(ctx.limited);
        QVERIFY(anyRemark(ctx, "rewrite limit (1)"));
        EXPECT_IR("# CHECK-COUNT-1: prim::data", ctx.graph);
        QCOMPARE(budget.used, int64_t(1));
    }
};

T2N_TEST_SUITE(HardenFoldsTest)
#include "tst_harden_folds.moc"
