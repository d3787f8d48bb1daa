// harden/fold_tuple_index_through_tuple_construct.cpp: TupleIndex of a TupleConstruct becomes the
// element.
#include "engine/harden_test_util.h"
#include "harden/fold_tuple_index_through_tuple_construct.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class FoldTupleIndexThroughTupleConstructTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
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
};

T2N_TEST_SUITE(FoldTupleIndexThroughTupleConstructTest)
#include "fold_tuple_index_through_tuple_construct_test.moc"
