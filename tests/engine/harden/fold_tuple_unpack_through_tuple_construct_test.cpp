// harden/fold_tuple_unpack_through_tuple_construct.cpp: TupleUnpack of a TupleConstruct routes each
// output to the element.
#include "engine/harden_test_util.h"
#include "harden/fold_tuple_unpack_through_tuple_construct.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class FoldTupleUnpackThroughTupleConstructTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
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
};

T2N_TEST_SUITE(FoldTupleUnpackThroughTupleConstructTest)
#include "fold_tuple_unpack_through_tuple_construct_test.moc"
