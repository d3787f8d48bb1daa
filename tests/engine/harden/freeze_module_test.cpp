// harden/freeze_module.cpp: freezing turns attributes into constants and inlines calls.
#include "engine/harden_test_util.h"
#include "harden/freeze_module.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class FreezeModuleTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
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

T2N_TEST_SUITE(FreezeModuleTest)
#include "freeze_module_test.moc"
