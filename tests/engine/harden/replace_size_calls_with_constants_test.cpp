// harden/replace_size_calls_with_constants.cpp: aten::size / dim / len whose value only steers
// control flow becomes the example's number; a size that also feeds tensor computation stays
// dynamic, with a remark.
#include "engine/harden_test_util.h"
#include "harden/replace_size_calls_with_constants.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class ReplaceSizeCallsWithConstantsTest : public QObject {
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
};

T2N_TEST_SUITE(ReplaceSizeCallsWithConstantsTest)
#include "replace_size_calls_with_constants_test.moc"
