// harden/fold_constant_ifs.cpp: a prim::If on a constant condition becomes its taken branch.
#include "engine/harden_test_util.h"
#include "harden/fold_constant_ifs.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class FoldConstantIfsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// A constant-true If becomes its then-branch, a constant-false one (nested) its else.
    void constantIfsFold() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %t : bool = prim::Constant[value=1]()
  %f : bool = prim::Constant[value=0]()
  %y : Tensor = prim::If(%t)
    block0():
      %z : Tensor = prim::If(%f)
        block0():
          %a : Tensor = aten::neg(%x)
          -> (%a)
        block1():
          %b : Tensor = aten::relu(%x)
          -> (%b)
      -> (%z)
    block1():
      -> (%x)
  return (%y))IR"));
        t2n::harden::foldConstantIfs(ctx);
        QCOMPARE(count(ctx, "ifs_folded"), int64_t(2));
        EXPECT_IR("# CHECK-NOT: prim::If\n# CHECK-NOT: aten::neg\n# CHECK: aten::relu(%x)",
                  ctx.graph);
    }

    /// An If on a runtime condition is not constant: left alone.
    void constantIfsNoPattern() {
        PassContext ctx(parse(R"IR(
graph(%c : bool, %x : Tensor):
  %y : Tensor = prim::If(%c)
    block0():
      -> (%x)
    block1():
      %b : Tensor = aten::relu(%x)
      -> (%b)
  return (%y))IR"));
        t2n::harden::foldConstantIfs(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK: prim::If", ctx.graph);
    }
};

T2N_TEST_SUITE(FoldConstantIfsTest)
#include "fold_constant_ifs_test.moc"
