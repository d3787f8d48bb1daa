// harden/remove_tensor_mutation.cpp: an in-place op on a value nothing else sees becomes
// functional.
#include "engine/harden_test_util.h"
#include "harden/remove_tensor_mutation.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class RemoveTensorMutationTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// An in-place op on a value nothing else sees becomes functional; relu stays relu.
    void tensorMutationRemoved() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %y : Tensor = aten::mul(%x, %x)
  %z : Tensor = aten::relu_(%y)
  return (%z))IR"));
        t2n::harden::removeTensorMutation(ctx);
        QCOMPARE(count(ctx, "ops_made_functional"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: aten::relu_\n# CHECK: aten::relu", ctx.graph);
        PassContext none(parse(t2n::test::kReluOnly));
        t2n::harden::removeTensorMutation(none);
        QVERIFY(none.counts.empty());
    }
};

T2N_TEST_SUITE(RemoveTensorMutationTest)
#include "remove_tensor_mutation_test.moc"
