// Loops on IR snippets (issue 11, class 4): unroll_loops with constant and
// counted trip counts, nested loops, the refusal of counts that follow tensor
// values and of loops over the unrolling limit; fold_list_appends, which turns
// the appends of an unrolled decoder into list constructs. Each rewrite is
// checked against the original graph's outputs.
#include "harden/fold_list_appends.h"
#include "harden/unroll_loops.h"
#include "harden_test_util.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using t2n::test::parseGraph;

using t2n::test::remarked;
using t2n::test::statistic;

namespace {
bool unchangedOutputs(const std::shared_ptr<torch::jit::Graph>& before, const PassContext& ctx,
                      const std::vector<at::Tensor>& inputs) {
    return t2n::test::sameOutputs(before, ctx.graph, inputs);
}

// `for i in range(3): acc = acc * 2 + i` over a tensor.
constexpr const char* kConstantLoop = R"IR(
graph(%x : Tensor):
  %true : bool = prim::Constant[value=1]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %three : int = prim::Constant[value=3]()
  %r : Tensor = prim::Loop(%three, %true, %x)
    block0(%i : int, %acc : Tensor):
      %m : Tensor = aten::mul(%acc, %two)
      %next : Tensor = aten::add(%m, %i, %one)
      -> (%true, %next)
  return (%r))IR";

// `for i in range(x.size(0) - 1)`: the count follows a shape.
constexpr const char* kShapeLoop = R"IR(
graph(%x : Tensor):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %n : int = aten::size(%x, %zero)
  %m : int = aten::sub(%n, %one)
  %r : Tensor = prim::Loop(%m, %true, %x)
    block0(%i : int, %acc : Tensor):
      %row : Tensor = aten::select(%x, %zero, %i)
      %next : Tensor = aten::add(%acc, %row, %one)
      -> (%true, %next)
  return (%r))IR";

// `while len(outputs) < targets.size(0)`: a list that grows by one per iteration.
constexpr const char* kGrowingList = R"IR(
graph(%targets : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %big : int = prim::Constant[value=9223372036854775807]()
  %h0 : Tensor = aten::select(%targets, %zero, %zero)
  %n : int = aten::size(%targets, %zero)
  %outputs : Tensor[] = prim::ListConstruct()
  %l0 : int = aten::len(%outputs)
  %c0 : bool = aten::lt(%l0, %n)
  %h : Tensor = prim::Loop(%big, %c0, %h0)
    block0(%it : int, %hc : Tensor):
      %l : int = aten::len(%outputs)
      %inp : Tensor = aten::select(%targets, %zero, %l)
      %t : Tensor = aten::tanh(%inp)
      %h2 : Tensor = aten::add(%hc, %t, %one)
      %app : Tensor[] = aten::append(%outputs, %h2)
      %l2 : int = aten::len(%outputs)
      %c : bool = aten::lt(%l2, %n)
      -> (%c, %h2)
  %s : Tensor = aten::stack(%outputs, %zero)
  return (%s, %h))IR";

// `while x.abs().max() > 0.5: x = x * 0.5`: the count follows x's values.
constexpr const char* kValueLoop = R"IR(
graph(%x : Tensor):
  %big : int = prim::Constant[value=9223372036854775807]()
  %half : float = prim::Constant[value=0.5]()
  %a0 : Tensor = aten::abs(%x)
  %m0 : Tensor = aten::max(%a0)
  %g0 : Tensor = aten::gt(%m0, %half)
  %c0 : bool = aten::Bool(%g0)
  %r : Tensor = prim::Loop(%big, %c0, %x)
    block0(%i : int, %y : Tensor):
      %y2 : Tensor = aten::mul(%y, %half)
      %a : Tensor = aten::abs(%y2)
      %m : Tensor = aten::max(%a)
      %g : Tensor = aten::gt(%m, %half)
      %c : bool = aten::Bool(%g)
      -> (%c, %y2)
  return (%r))IR";
} // namespace

class HardenLoopsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// A constant count: three copies of the body, the iteration number a constant in each;
    /// no run needed.
    void constantCountUnrolls() {
        auto before = parseGraph(kConstantLoop);
        PassContext ctx(parseGraph(kConstantLoop));
        t2n::harden::unrollLoops(ctx);
        QCOMPARE(statistic(ctx, "loops_unrolled"), int64_t(1));
        QCOMPARE(statistic(ctx, "iterations_unrolled"), int64_t(3));
        EXPECT_IR("# CHECK-NOT: prim::Loop\n# CHECK: aten::mul\n# CHECK: aten::add\n"
                  "# CHECK: aten::mul\n# CHECK: aten::add\n# CHECK: aten::mul\n# CHECK: aten::add",
                  ctx.graph);
        QVERIFY(remarked(ctx, "unrolled 3 iteration(s); its trip count is a constant"));
        QVERIFY(unchangedOutputs(before, ctx, {torch::randn({2, 3})}));
    }

    /// A count from a size: one run on the example counts the iterations; the remark says
    /// what the count depends on.
    void shapeCountUnrolls() {
        auto before = parseGraph(kShapeLoop);
        PassContext ctx(parseGraph(kShapeLoop));
        ctx.exampleInputs = {torch::randn({4, 3})};
        t2n::harden::unrollLoops(ctx);
        QCOMPARE(statistic(ctx, "iterations_unrolled"), int64_t(3));
        EXPECT_IR("# CHECK-NOT: prim::Loop\n# CHECK-COUNT-3: aten::select", ctx.graph);
        QVERIFY(remarked(ctx, "its trip count depends on the shape of x"));
        QVERIFY(unchangedOutputs(before, ctx, {ctx.exampleInputs[0]}));
    }

    /// The teacher-forced decoder: the while loop unrolls for the example's frame count,
    /// then fold_list_appends turns the appends into one construct per state.
    void growingListUnrollsThenFolds() {
        auto before = parseGraph(kGrowingList);
        PassContext ctx(parseGraph(kGrowingList));
        ctx.exampleInputs = {torch::randn({5, 2})};
        t2n::harden::unrollLoops(ctx);
        QCOMPARE(statistic(ctx, "iterations_unrolled"), int64_t(5));
        QVERIFY(remarked(ctx, "depends on the shape of targets"));
        EXPECT_IR("# CHECK-NOT: prim::Loop\n# CHECK-COUNT-5: aten::append", ctx.graph);
        QVERIFY(unchangedOutputs(before, ctx, {ctx.exampleInputs[0]}));

        t2n::harden::foldListAppends(ctx);
        QCOMPARE(statistic(ctx, "lists_rebuilt"), int64_t(1));
        QCOMPARE(statistic(ctx, "appends_folded"), int64_t(5));
        // The empty list, then one construct per append; the stack reads the last.
        EXPECT_IR("# CHECK-NOT: aten::append\n# CHECK-COUNT-6: prim::ListConstruct\n"
                  "# CHECK-NOT: prim::ListConstruct\n# CHECK: aten::stack",
                  ctx.graph);
        QVERIFY(unchangedOutputs(before, ctx, {ctx.exampleInputs[0]}));
    }

    /// A count that follows tensor values is left, and the remark names why.
    void valueCountIsRefused() {
        PassContext ctx(parseGraph(kValueLoop));
        ctx.exampleInputs = {torch::randn({3})};
        t2n::harden::unrollLoops(ctx);
        QCOMPARE(statistic(ctx, "loops_unrolled"), int64_t(0));
        QVERIFY(remarked(ctx, "missed:"));
        QVERIFY(remarked(ctx, "its trip count depends on the values of x"));
        EXPECT_IR("# CHECK: prim::Loop", ctx.graph);
    }

    /// Over the unrolling limit: left, with a message that gives the count and the limit.
    void overTheLimitIsLeft() {
        std::string ir = kConstantLoop;
        ir.replace(ir.find("value=3]"), 8, "value=5000]");
        PassContext ctx(parseGraph(ir.c_str()));
        t2n::harden::unrollLoops(ctx);
        QCOMPARE(statistic(ctx, "loops_unrolled"), int64_t(0));
        QVERIFY(remarked(ctx, "it runs 5000 iterations"));
        QVERIFY(remarked(ctx, "over the unrolling limit of 4096 iterations"));
        EXPECT_IR("# CHECK: prim::Loop", ctx.graph);
    }

    /// Nested loops: the outer unrolls first; its copies of the inner loop are top-level
    /// loops for the next run of the pass.
    void nestedLoopsUnrollInTurn() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %true : bool = prim::Constant[value=1]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %r : Tensor = prim::Loop(%two, %true, %x)
    block0(%i : int, %acc : Tensor):
      %inner : Tensor = prim::Loop(%two, %true, %acc)
        block0(%j : int, %a : Tensor):
          %b : Tensor = aten::add(%a, %j, %one)
          -> (%true, %b)
      %m : Tensor = aten::mul(%inner, %two)
      -> (%true, %m)
  return (%r))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::unrollLoops(ctx);
        QCOMPARE(statistic(ctx, "loops_unrolled"), int64_t(1));
        EXPECT_IR("# CHECK-COUNT-2: prim::Loop", ctx.graph);
        PassContext again(ctx.graph);
        t2n::harden::unrollLoops(again);
        QCOMPARE(statistic(again, "loops_unrolled"), int64_t(2));
        EXPECT_IR("# CHECK-NOT: prim::Loop\n# CHECK-COUNT-4: aten::add", again.graph);
        QVERIFY(t2n::test::sameOutputs(before, again.graph, {torch::randn({3})}));
    }

    /// A loop whose condition is false at the start runs 0 times: its outputs are the
    /// initial values.
    void zeroTripLoopVanishes() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %false : bool = prim::Constant[value=0]()
  %true : bool = prim::Constant[value=1]()
  %one : int = prim::Constant[value=1]()
  %ten : int = prim::Constant[value=10]()
  %r : Tensor = prim::Loop(%ten, %false, %x)
    block0(%i : int, %acc : Tensor):
      %b : Tensor = aten::add(%acc, %i, %one)
      -> (%true, %b)
  return (%r))IR";
        PassContext ctx(parseGraph(ir));
        t2n::harden::unrollLoops(ctx);
        QCOMPARE(statistic(ctx, "iterations_unrolled"), int64_t(0));
        EXPECT_IR("# CHECK-NOT: prim::Loop\n# CHECK: return (%x)", ctx.graph);
    }

    /// Counts that are not constants need the example inputs: without them, a remark.
    void countWithoutInputsSkips() {
        PassContext ctx(parseGraph(kShapeLoop));
        t2n::harden::unrollLoops(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(remarked(ctx, "no example inputs"));
    }

    /// `l += [x]` returns the list it grows; an unrolled loop carries that alias to the
    /// next write. The chain folds as one list, the reads between the writes reading the
    /// construct of their point.
    void growthThroughAliasesFolds() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %l : Tensor[] = prim::ListConstruct()
  %a1 : Tensor[] = prim::ListConstruct(%x)
  %l1 : Tensor[] = aten::add_(%l, %a1)
  %n1 : int = aten::len(%l1)
  %y : Tensor = aten::mul(%x, %n1)
  %a2 : Tensor[] = prim::ListConstruct(%y)
  %l2 : Tensor[] = aten::add_(%l1, %a2)
  %l3 : Tensor[] = aten::append(%l2, %x)
  %s : Tensor = aten::stack(%l3, %zero)
  return (%s))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::foldListAppends(ctx);
        QCOMPARE(statistic(ctx, "appends_folded"), int64_t(3));
        EXPECT_IR("# CHECK-NOT: aten::add_\n# CHECK-NOT: aten::append\n"
                  "# CHECK: aten::len\n# CHECK: aten::stack",
                  ctx.graph);
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, {torch::randn({2})}));
    }

    /// A list held by another list before it grows (Emformer's `masks = [rc_mask, ...]`
    /// before `rc_mask.append(...)`) sees the growth through that alias: left.
    void keptAliasIsLeft() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %l : Tensor[] = prim::ListConstruct()
  %all : Tensor[][] = prim::ListConstruct(%l)
  %a : Tensor[] = aten::append(%l, %x)
  %first : Tensor[] = aten::__getitem__(%all, %zero)
  %s : Tensor = aten::cat(%first, %zero)
  return (%s))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::foldListAppends(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK: aten::append", ctx.graph);
    }

    /// An append inside a branch, or a list also written by another op, is left.
    void appendsInBlocksAreLeft() {
        const char* ir = R"IR(
graph(%x : Tensor, %c : bool):
  %zero : int = prim::Constant[value=0]()
  %l : Tensor[] = prim::ListConstruct(%x)
  %o : int = prim::If(%c)
    block0():
      %a : Tensor[] = aten::append(%l, %x)
      -> (%zero)
    block1():
      -> (%zero)
  %s : Tensor = aten::stack(%l, %zero)
  return (%s))IR";
        PassContext ctx(parseGraph(ir));
        t2n::harden::foldListAppends(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK: aten::append", ctx.graph);
    }

    /// Graphs without the patterns are left alone, without a run or a remark.
    void noPattern() {
        PassContext ctx(parseGraph(t2n::test::kReluOnly));
        t2n::harden::unrollLoops(ctx);
        t2n::harden::foldListAppends(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(ctx.remarks.empty());
    }
};

T2N_TEST_SUITE(HardenLoopsTest)
#include "tst_harden_loops.moc"
