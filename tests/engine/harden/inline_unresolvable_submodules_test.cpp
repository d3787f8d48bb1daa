// harden/inline_unresolvable_submodules.cpp: calls to custom submodules are inlined; classes the
// module extractors read (nn.LSTMCell...) stay calls.
#include "engine/harden_test_util.h"
#include "harden/inline_unresolvable_submodules.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class InlineUnresolvableSubmodulesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
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
};

T2N_TEST_SUITE(InlineUnresolvableSubmodulesTest)
#include "inline_unresolvable_submodules_test.moc"
