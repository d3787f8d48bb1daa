// harden/strip_prim_data.cpp: prim::data(t) is replaced by t; and the rewrite limit stops a pass
// (shown on this one).
#include "engine/harden_test_util.h"
#include "harden/strip_prim_data.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class StripPrimDataTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
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

T2N_TEST_SUITE(StripPrimDataTest)
#include "strip_prim_data_test.moc"
