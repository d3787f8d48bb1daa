// harden/eliminate_dead_code.cpp: unused nodes and loops that only count go; live nodes stay.
#include "engine/harden_test_util.h"
#include "harden/eliminate_dead_code.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class EliminateDeadCodeTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
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
};

T2N_TEST_SUITE(EliminateDeadCodeTest)
#include "eliminate_dead_code_test.moc"
