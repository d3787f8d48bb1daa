// Hardening passes that remove control flow and calls, on IR snippets and
// small modules defined in TorchScript: constant ifs, assertion ifs,
// data-dependent ifs, freezing and the inline fallback.
#include "harden/fold_constant_ifs.h"
#include "harden/fold_data_dependent_ifs.h"
#include "harden/freeze_module.h"
#include "harden/inline_unresolvable_submodules.h"
#include "harden/strip_assertion_ifs.h"
#include "harden_test_util.h"
#include "suite_macros.h"
#include "t2n/error.h"

using t2n::harden::PassContext;

namespace {
auto parse(const char* ir) {
    return t2n::test::parseGraph(ir);
}
int64_t count(const PassContext& ctx, const char* name) {
    return t2n::test::statistic(ctx, name);
}
bool anyOf(const std::vector<std::string>& texts, const char* text) {
    return t2n::test::anyContains(texts, text);
}

// `outer` calls `inner` (a custom class) and `cell` (named like nn.LSTMCell).
torch::jit::Module modelWithCalls() {
    torch::jit::Module inner("__torch__.Inner");
    inner.register_attribute("scale", c10::FloatType::get(), 2.0);
    inner.define("def forward(self, x):\n    return x * self.scale\n");
    torch::jit::Module cell("__torch__.torch.nn.modules.rnn.___torch_mangle_7.LSTMCell");
    cell.define("def forward(self, x):\n    return x + 1.0\n");
    torch::jit::Module outer("__torch__.Outer");
    outer.register_module("inner", inner);
    outer.register_module("cell", cell);
    outer.define("def forward(self, x):\n    return self.cell.forward(self.inner.forward(x))\n");
    outer.eval();
    return outer;
}

const char* kShapeIf = R"IR(
graph(%x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %two : int = prim::Constant[value=2]()
  %n : int = aten::size(%x, %zero)
  %r : int = aten::remainder(%n, %two)
  %c : bool = aten::eq(%r, %zero)
  %y : Tensor = prim::If(%c)
    block0():
      %a : Tensor = aten::neg(%x)
      -> (%a)
    block1():
      %b : Tensor = aten::relu(%x)
      -> (%b)
  %s : int[] = prim::ListConstruct(%n)
  %z : Tensor = aten::view(%y, %s)
  return (%z))IR";
} // namespace

class HardenIfsTest : public QObject {
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

    /// An assert (raise in the else branch, message built by format) is dropped, with its message.
    void assertionStripped() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor, %n : int):
  %big : int = prim::Constant[value=64]()
  %msg : str = prim::Constant[value="AssertionError: batch {} too large"]()
  %c : bool = aten::le(%n, %big)
  prim::If(%c)
    block0():
      -> ()
    block1():
      %m : str = aten::format(%msg, %n)
      prim::RaiseException(%m)
      -> ()
  %y : Tensor = aten::relu(%x)
  return (%y))IR"));
        t2n::harden::stripAssertionIfs(ctx);
        QCOMPARE(count(ctx, "assertions_stripped"), int64_t(1));
        QVERIFY(anyOf(ctx.remarks, "batch {} too large"));
        EXPECT_IR("# CHECK-NOT: prim::If\n# CHECK-NOT: prim::RaiseException", ctx.graph);
    }

    /// A raise that produces outputs (prim::Uninitialized) keeps the other branch's values.
    void assertionWithOutputsStripped() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor, %c : bool):
  %msg : str = prim::Constant[value="nope"]()
  %y : Tensor = prim::If(%c)
    block0():
      prim::RaiseException(%msg)
      %u : Tensor = prim::Uninitialized()
      -> (%u)
    block1():
      %b : Tensor = aten::relu(%x)
      -> (%b)
  return (%y))IR"));
        t2n::harden::stripAssertionIfs(ctx);
        QCOMPARE(count(ctx, "assertions_stripped"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: prim::If\n# CHECK: aten::relu(%x)\n# CHECK: return", ctx.graph);
    }

    /// An If whose branches compute tensors is no assertion, nor one where both branches raise.
    void assertionNoPattern() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor, %c : bool):
  %msg : str = prim::Constant[value="nope"]()
  %y : Tensor = prim::If(%c)
    block0():
      %a : Tensor = aten::neg(%x)
      prim::RaiseException(%msg)
      -> (%a)
    block1():
      -> (%x)
  prim::If(%c)
    block0():
      prim::RaiseException(%msg)
      -> ()
    block1():
      prim::RaiseException(%msg)
      -> ()
  return (%y))IR"));
        t2n::harden::stripAssertionIfs(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK-COUNT-2: prim::If", ctx.graph);
    }

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

    /// Custom classes are inlined; a class named like torch.nn's LSTMCell stays a call.
    void inlineKeepsModuleExtractorClasses() {
        auto model = modelWithCalls();
        auto working = model.clone(true);
        PassContext ctx(working.get_method("forward").graph());
        ctx.module = working;
        t2n::harden::inlineUnresolvableSubmodules(ctx);
        QCOMPARE(count(ctx, "calls_inlined"), int64_t(1));
        QVERIFY(anyOf(ctx.remarks, "as a module call (__torch__.torch.nn.modules.rnn.LSTMCell)"));
        EXPECT_IR("# CHECK: aten::mul\n# CHECK: prim::CallMethod[name=\"forward\"]", ctx.graph);
        QVERIFY(t2n::harden::keptAsModuleCall("__torch__.torch.nn.modules.rnn.GRU"));
        QVERIFY(!t2n::harden::keptAsModuleCall("__torch__.torch.nn.modules.rnn.GRUCell"));
    }

    /// Nothing to inline in a graph without calls.
    void inlineNoPattern() {
        PassContext ctx(parse(t2n::test::kReluOnly));
        t2n::harden::inlineUnresolvableSubmodules(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(ctx.remarks.empty());
    }

    /// Freezing inlines every call (LSTMCell-named too) and folds attributes; a frozen
    /// graph is not frozen again.
    void freezeModule() {
        auto model = modelWithCalls();
        PassContext ctx(model.get_method("forward").graph());
        ctx.module = model;
        t2n::harden::freezeModule(ctx);
        QVERIFY(ctx.froze);
        QCOMPARE(count(ctx, "calls_inlined"), int64_t(2));
        QVERIFY(count(ctx, "attributes_folded") >= 2);
        EXPECT_IR("# CHECK-NOT: prim::CallMethod\n# CHECK-NOT: prim::GetAttr", ctx.graph);
        // The caller's module keeps its calls: freezing works on a clone.
        EXPECT_IR("# CHECK: prim::CallMethod", model.get_method("forward").graph());

        PassContext again(ctx.graph);
        again.module = *ctx.module;
        t2n::harden::freezeModule(again);
        QVERIFY(again.froze);
        QVERIFY(again.counts.empty());
    }
};

T2N_TEST_SUITE(HardenIfsTest)
#include "tst_harden_ifs.moc"
