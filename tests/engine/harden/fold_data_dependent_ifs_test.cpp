// harden/fold_data_dependent_ifs.cpp: an If whose condition depends on the inputs' shapes is
// settled by a run on the example inputs; one on values is settled with a warning.
#include "engine/harden_test_util.h"
#include "harden/fold_data_dependent_ifs.h"
#include "suite_macros.h"
#include "t2n/error.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class FoldDataDependentIfsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// A condition on a size that also feeds a view is evaluated on the example and inlined.
    void dataDependentIfOnShape() {
        PassContext ctx(parse(kShapeIf));
        ctx.exampleInputs = {torch::ones({4})};
        t2n::harden::foldDataDependentIfs(ctx);
        QCOMPARE(count(ctx, "ifs_specialized"), int64_t(1));
        QVERIFY(anyOf(ctx.remarks, "took the then branch"));
        QVERIFY(anyOf(ctx.remarks, "depends on the shape of x"));
        QVERIFY(ctx.warnings.empty());
        EXPECT_IR("# CHECK-NOT: prim::If\n# CHECK: aten::neg\n# CHECK-NOT: aten::relu", ctx.graph);

        PassContext odd(parse(kShapeIf));
        odd.exampleInputs = {torch::ones({3})};
        t2n::harden::foldDataDependentIfs(odd);
        EXPECT_IR("# CHECK-NOT: prim::If\n# CHECK: aten::relu", odd.graph);
    }

    /// A condition on input values is specialised too, with a warning that says so.
    void dataDependentIfOnValuesWarns() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %s : Tensor = aten::sum(%x, %zero)
  %c : bool = aten::Bool(%s)
  %y : Tensor = prim::If(%c)
    block0():
      %a : Tensor = aten::neg(%x)
      -> (%a)
    block1():
      -> (%x)
  return (%y))IR"));
        ctx.exampleInputs = {torch::ones({1})};
        t2n::harden::foldDataDependentIfs(ctx);
        QCOMPARE(count(ctx, "ifs_specialized"), int64_t(1));
        QVERIFY(anyOf(ctx.warnings, "depends on the values of x"));
    }

    /// Ifs in a loop body change per iteration: left, with a remark; no If, no run.
    void dataDependentIfNoPattern() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor, %n : int):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %r : Tensor = prim::Loop(%n, %true, %x)
    block0(%i : int, %acc : Tensor):
      %c : bool = aten::eq(%i, %zero)
      %next : Tensor = prim::If(%c)
        block0():
          -> (%acc)
        block1():
          %b : Tensor = aten::relu(%acc)
          -> (%b)
      -> (%true, %next)
  return (%r))IR"));
        t2n::harden::foldDataDependentIfs(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(anyOf(ctx.remarks, "inside a loop body"));
        QVERIFY(!anyOf(ctx.remarks, "no example inputs")); // nothing to run for
        EXPECT_IR("# CHECK: prim::Loop\n# CHECK: prim::If", ctx.graph);
    }

    /// A model that fails on the example inputs is a ModelRun error, not a crash.
    void dataDependentIfRunFails() {
        PassContext ctx(parse(kShapeIf));
        ctx.exampleInputs = {torch::ones({2, 3})}; // view(%y, [2]) cannot hold 6 values
        try {
            t2n::harden::foldDataDependentIfs(ctx);
            QFAIL("no error");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::ModelRun);
            QCOMPARE(e.stage(), t2n::Stage::Harden);
        }
    }
};

T2N_TEST_SUITE(FoldDataDependentIfsTest)
#include "fold_data_dependent_ifs_test.moc"
