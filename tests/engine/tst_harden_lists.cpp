// Lists on IR snippets (issue 11, class 6): fold_list_indexing turns reads of
// the lists unbind / split / chunk return, and of list constructs, into their
// elements: list[k] with negative k, len(list), list[a:b], unpacking. Each
// rewrite is checked against the original graph's outputs.
#include "harden/fold_list_indexing.h"
#include "harden_test_util.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using t2n::test::parseGraph;

using t2n::test::remarked;
using t2n::test::statistic;

namespace {

// parts = torch.unbind(y, 1); parts[-1] + parts[0] * len(parts)
constexpr const char* kUnbind = R"IR(
graph(%y : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %minus : int = prim::Constant[value=-1]()
  %parts : Tensor[] = aten::unbind(%y, %one)
  %last : Tensor = aten::__getitem__(%parts, %minus)
  %first : Tensor = aten::__getitem__(%parts, %zero)
  %n : int = aten::len(%parts)
  %m : Tensor = aten::mul(%first, %n)
  %r : Tensor = aten::add(%last, %m, %one)
  return (%r))IR";
} // namespace

class HardenListsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// unbind's list gets one unpack with the example's count of pieces; parts[-1],
    /// parts[0] and len(parts) fold to its outputs and a constant.
    void unbindIndexingFolds() {
        auto before = parseGraph(kUnbind);
        PassContext ctx(parseGraph(kUnbind));
        ctx.exampleInputs = {torch::randn({2, 4})};
        t2n::harden::foldListIndexing(ctx);
        QCOMPARE(statistic(ctx, "lists_unpacked"), int64_t(1));
        QCOMPARE(statistic(ctx, "items_folded"), int64_t(2));
        QCOMPARE(statistic(ctx, "lengths_folded"), int64_t(1));
        EXPECT_IR("# CHECK: prim::ListUnpack\n# CHECK-NOT: aten::__getitem__\n"
                  "# CHECK-NOT: aten::len\n# CHECK: prim::Constant[value=4]\n# CHECK: aten::mul",
                  ctx.graph);
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, ctx.exampleInputs));
    }

    /// chunk and split with an unpack already there (a, b = y.chunk(2)) fold to its
    /// outputs without a run; s[len(s) - 1] folds once len does.
    void existingUnpackIsReused() {
        const char* ir = R"IR(
graph(%y : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %c : Tensor[] = aten::chunk(%y, %two, %one)
  %a : Tensor, %b : Tensor = prim::ListUnpack(%c)
  %second : Tensor = aten::__getitem__(%c, %one)
  %r : Tensor = aten::add(%a, %second, %one)
  return (%r))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::foldListIndexing(ctx);
        QCOMPARE(statistic(ctx, "items_folded"), int64_t(1));
        QCOMPARE(statistic(ctx, "lists_unpacked"), int64_t(0));
        EXPECT_IR("# CHECK: prim::ListUnpack\n# CHECK-NOT: aten::__getitem__\n# CHECK: aten::add",
                  ctx.graph);
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, {torch::randn({3, 4})}));
    }

    /// A chunk list the graph returns, directly, inside a returned tuple and
    /// copied (list(c)): its pieces are counted on a run, and each return
    /// reads a construct of them.
    void returnedListIsConstructed() {
        const char* ir = R"IR(
graph(%y : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %c : Tensor[] = aten::chunk(%y, %two, %one)
  %t : (Tensor[], Tensor) = prim::TupleConstruct(%c, %y)
  %copy : Tensor[] = aten::list(%c)
  return (%c, %t, %copy))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        ctx.exampleInputs = {torch::randn({3, 4})};
        t2n::harden::foldListIndexing(ctx);
        QCOMPARE(statistic(ctx, "lists_unpacked"), int64_t(1));
        QCOMPARE(statistic(ctx, "returns_constructed"), int64_t(2));
        QCOMPARE(statistic(ctx, "copies_folded"), int64_t(1));
        EXPECT_IR("# CHECK: prim::ListUnpack\n# CHECK: prim::ListConstruct\n"
                  "# CHECK: prim::TupleConstruct\n# CHECK: prim::ListConstruct\n"
                  "# CHECK-NOT: aten::list\n# CHECK: return",
                  ctx.graph);
        // Nothing returned reads chunk's list (or a copy) any more.
        for (const torch::jit::Value* out : ctx.graph->outputs())
            for (const torch::jit::Value* read : out->node()->kind() == c10::prim::TupleConstruct
                                                     ? out->node()->inputs()
                                                     : at::ArrayRef{out})
                QVERIFY(read->node()->kind() != c10::aten::chunk &&
                        read->node()->kind() != c10::aten::list);
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, ctx.exampleInputs));
    }

    /// A slice of a list becomes a construct of the elements; reads of constructs fold
    /// (negative index, len, unpacking).
    void constructsAndSlices() {
        const char* ir = R"IR(
graph(%x : Tensor, %y : Tensor, %z : Tensor):
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %minus : int = prim::Constant[value=-1]()
  %l : Tensor[] = prim::ListConstruct(%x, %y, %z)
  %tail : Tensor[] = aten::slice(%l, %one, %none, %one)
  %s : Tensor = aten::stack(%tail, %zero)
  %k : Tensor = aten::__getitem__(%l, %minus)
  %n : int = aten::len(%l)
  %u1 : Tensor, %u2 : Tensor, %u3 : Tensor = prim::ListUnpack(%l)
  %m : Tensor = aten::mul(%k, %n)
  %r : Tensor = aten::add(%m, %u1, %one)
  return (%s, %r))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::foldListIndexing(ctx);
        QCOMPARE(statistic(ctx, "slices_folded"), int64_t(1));
        QCOMPARE(statistic(ctx, "lengths_folded"), int64_t(1));
        QCOMPARE(statistic(ctx, "items_folded"), int64_t(2)); // l[-1] and the unpack
        EXPECT_IR("# CHECK: prim::ListConstruct(%y, %z)\n# CHECK-NOT: aten::__getitem__\n"
                  "# CHECK-NOT: prim::ListUnpack\n# CHECK: aten::mul(%z",
                  ctx.graph);
        auto in = std::vector<at::Tensor>{torch::randn({2}), torch::randn({2}), torch::randn({2})};
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, in));
    }

    /// A slice with a negative step walks backwards, as Python's does:
    /// l[::-1] (RAFT's coords[::-1]) and l[2:0:-2] and l[-1:-3:-1].
    void slicesWithNegativeSteps() {
        const char* ir = R"IR(
graph(%x : Tensor, %y : Tensor, %z : Tensor):
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %two : int = prim::Constant[value=2]()
  %minus : int = prim::Constant[value=-1]()
  %minus2 : int = prim::Constant[value=-2]()
  %minus3 : int = prim::Constant[value=-3]()
  %l : Tensor[] = prim::ListConstruct(%x, %y, %z)
  %rev : Tensor[] = aten::slice(%l, %none, %none, %minus)
  %even : Tensor[] = aten::slice(%l, %two, %zero, %minus2)
  %tail : Tensor[] = aten::slice(%l, %minus, %minus3, %minus)
  %a : Tensor = aten::stack(%rev, %zero)
  %b : Tensor = aten::stack(%even, %zero)
  %c : Tensor = aten::stack(%tail, %zero)
  return (%a, %b, %c))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::foldListIndexing(ctx);
        QCOMPARE(statistic(ctx, "slices_folded"), int64_t(3));
        EXPECT_IR("# CHECK: prim::ListConstruct(%z, %y, %x)\n# CHECK: prim::ListConstruct(%z)\n"
                  "# CHECK: prim::ListConstruct(%z, %y)",
                  ctx.graph);
        auto in = std::vector<at::Tensor>{torch::randn({2}), torch::randn({2}), torch::randn({2})};
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, in));
    }

    /// `a + b` of two list constructs is a construct of both (RemoveTensorMutation turns
    /// the first `l += [x]` of a chain into it).
    void concatenationFolds() {
        const char* ir = R"IR(
graph(%x : Tensor, %y : Tensor):
  %zero : int = prim::Constant[value=0]()
  %a : Tensor[] = prim::ListConstruct(%x)
  %b : Tensor[] = prim::ListConstruct(%y, %x)
  %c : Tensor[] = aten::add(%a, %b)
  %s : Tensor = aten::stack(%c, %zero)
  return (%s))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::foldListIndexing(ctx);
        QCOMPARE(statistic(ctx, "concatenations_folded"), int64_t(1));
        EXPECT_IR("# CHECK: prim::ListConstruct(%x, %y, %x)\n# CHECK: aten::stack", ctx.graph);
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, {torch::randn({2}), torch::randn({2})}));
    }

    /// A list that is written to, an index that is not a constant, and an index out of
    /// range are left.
    void leftAlone() {
        const char* ir = R"IR(
graph(%x : Tensor, %i : int):
  %one : int = prim::Constant[value=1]()
  %five : int = prim::Constant[value=5]()
  %l : Tensor[] = prim::ListConstruct(%x)
  %a : Tensor[] = aten::append(%l, %x)
  %k : Tensor = aten::__getitem__(%l, %one)
  %m : Tensor[] = prim::ListConstruct(%x, %x)
  %p : Tensor = aten::__getitem__(%m, %i)
  %q : Tensor = aten::__getitem__(%m, %five)
  %r : (Tensor, Tensor, Tensor) = prim::TupleConstruct(%k, %p, %q)
  return (%r))IR";
        PassContext ctx(parseGraph(ir));
        t2n::harden::foldListIndexing(ctx);
        QCOMPARE(statistic(ctx, "items_folded"), int64_t(0));
        EXPECT_IR("# CHECK-COUNT-3: aten::__getitem__", ctx.graph);
    }

    /// A split inside a loop body cannot be counted by a run: remarked, left.
    void splitInsideLoopIsRemarked() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %r : Tensor = prim::Loop(%two, %true, %x)
    block0(%i : int, %acc : Tensor):
      %parts : Tensor[] = aten::unbind(%acc, %zero)
      %p : Tensor = aten::__getitem__(%parts, %zero)
      %next : Tensor = aten::add(%acc, %p, %one)
      -> (%true, %next)
  return (%r))IR";
        PassContext ctx(parseGraph(ir));
        ctx.exampleInputs = {torch::randn({2, 2})};
        t2n::harden::foldListIndexing(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(remarked(ctx, "sees only values outside loops and branches"));
    }

    /// No list reads: nothing to do, no run, no remark.
    void noPattern() {
        PassContext ctx(parseGraph(t2n::test::kReluOnly));
        t2n::harden::foldListIndexing(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(ctx.remarks.empty());
    }
};

T2N_TEST_SUITE(HardenListsTest)
#include "tst_harden_lists.moc"
