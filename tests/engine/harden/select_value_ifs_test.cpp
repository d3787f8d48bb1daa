// harden/select_value_ifs.cpp: an if on tensor data whose small pure branches
// choose a float computes both and picks with where(), so the graph gives the
// model's number for inputs that take either branch; other ifs are left.
#include "engine/harden_test_util.h"
#include "harden/select_value_ifs.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test;
using namespace t2n::test::harden_test;

namespace {
// best = p if p > 0 else 0 (a running maximum's step), then used by a tensor.
constexpr const char* kRunningMax = R"IR(
graph(%x : Tensor):
  %none : NoneType = prim::Constant()
  %zero : float = prim::Constant[value=0.]()
  %p : Tensor = aten::mean(%x, %none)
  %g : Tensor = aten::gt(%p, %zero)
  %c : bool = aten::Bool(%g)
  %best : float = prim::If(%c)
    block0():
      %f : float = aten::FloatImplicit(%p)
      -> (%f)
    block1():
      -> (%zero)
  %y : Tensor = aten::mul(%x, %best)
  return (%y))IR";
} // namespace

class SelectValueIfsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Both branches computed, where() chooses: right for inputs taking either branch.
    void floatChosenByWhere() {
        auto original = parseGraph(kRunningMax);
        PassContext ctx(parse(kRunningMax));
        t2n::harden::selectValueIfs(ctx);
        QCOMPARE(count(ctx, "ifs_selected"), int64_t(1));
        QVERIFY(anyRemark(ctx, "chosen by where()"));
        EXPECT_IR("# CHECK-NOT: prim::If\n# CHECK: aten::FloatImplicit\n# CHECK: aten::where\n"
                  "# CHECK: aten::FloatImplicit",
                  ctx.graph);
        for (float sign : {1.0f, -1.0f})
            QVERIFY(sameOutputs(original, ctx.graph, {torch::ones({3}) * sign}));
    }

    /// An if choosing tensors (shapes may differ) is left to fold_data_dependent_ifs.
    void tensorResultsLeft() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %none : NoneType = prim::Constant()
  %s : Tensor = aten::sum(%x, %none)
  %c : bool = aten::Bool(%s)
  %y : Tensor = prim::If(%c)
    block0():
      %a : Tensor = aten::neg(%x)
      -> (%a)
    block1():
      -> (%x)
  return (%y))IR"));
        t2n::harden::selectValueIfs(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK: prim::If", ctx.graph);
    }

    /// A branch that writes (an in-place op) is not computed unconditionally.
    void writingBranchLeft() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %zero : float = prim::Constant[value=0.]()
  %p : Tensor = aten::mean(%x, %none)
  %c : bool = aten::Bool(%p)
  %best : float = prim::If(%c)
    block0():
      %w : Tensor = aten::add_(%x, %p, %one)
      %f : float = aten::FloatImplicit(%p)
      -> (%f)
    block1():
      -> (%zero)
  %y : Tensor = aten::mul(%x, %best)
  return (%y))IR"));
        t2n::harden::selectValueIfs(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK: prim::If", ctx.graph);
    }
};

T2N_TEST_SUITE(SelectValueIfsTest)
#include "select_value_ifs_test.moc"
