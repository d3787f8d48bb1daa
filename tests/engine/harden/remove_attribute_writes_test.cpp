// harden/remove_attribute_writes.cpp (issue 26): a module attribute forward()
// assigns is read as the assigned value after the assignment, the
// assignment is dropped, and a warning names the attribute; writes into an
// attribute's tensor in place are warned about; assignments inside a branch
// are left alone.
#include "engine/harden_test_util.h"
#include "harden/remove_attribute_writes.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

namespace {

torch::jit::Module stateful(const char* forward) {
    torch::jit::Module m("__torch__.Stateful");
    m.register_buffer("running", at::zeros({3}));
    m.register_attribute("steps", c10::IntType::get(), 0);
    m.define(forward);
    m.eval();
    return m;
}

} // namespace

class RemoveAttributeWritesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// self.running = ...; self.steps += 1: both writes dropped, the read
    /// after the assignment takes the assigned value, one warning each.
    void assignmentsAreForwardedAndWarned() {
        auto m = stateful(R"PY(
def forward(self, x):
    self.running = self.running * 0.9 + x.mean(0) * 0.1
    self.steps += 1
    return x - self.running
)PY");
        PassContext ctx(m.get_method("forward").graph()->copy());
        ctx.module = m;
        t2n::harden::removeAttributeWrites(ctx);
        QCOMPARE(count(ctx, "attribute_writes_removed"), int64_t(2));
        QCOMPARE(count(ctx, "attribute_reads_forwarded"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: prim::SetAttr\n"
                  "# CHECK-COUNT-1: prim::GetAttr[name=\"running\"]\n"
                  "# CHECK-NOT: prim::GetAttr[name=\"running\"]\n"
                  "# CHECK: aten::sub",
                  ctx.graph);
        QCOMPARE(ctx.warnings.size(), std::size_t(2));
        QVERIFY2(anyOf(ctx.warnings, "forward() assigns module attribute 'running'") &&
                     anyOf(ctx.warnings, "forward() assigns module attribute 'steps'") &&
                     anyOf(ctx.warnings, "an NNEF graph keeps no state"),
                 ctx.warnings.front().c_str());
        // The rewritten graph computes what one call of forward() computes
        // from the saved state (and leaves the module as it was).
        const at::Tensor x = at::randn({4, 3});
        torch::jit::GraphFunction after("forward_after", ctx.graph, nullptr);
        const at::Tensor got = after({m._ivalue(), x}).toTensor();
        QVERIFY(at::equal(m.attr("running").toTensor(), at::zeros({3})));
        QVERIFY(at::allclose(got, m.forward({x}).toTensor()));
    }

    /// self.running.mul_(0.9): not rewritten, warned about with the op.
    void inPlaceWritesAreWarned() {
        auto m = stateful(R"PY(
def forward(self, x):
    self.running.mul_(0.9).add_(x.mean(0))
    return x - self.running
)PY");
        PassContext ctx(m.get_method("forward").graph()->copy());
        ctx.module = m;
        t2n::harden::removeAttributeWrites(ctx);
        QVERIFY(ctx.counts.empty() || count(ctx, "attribute_writes_removed") == 0);
        QCOMPARE(ctx.warnings.size(), std::size_t(1)); // once per attribute
        QVERIFY2(anyOf(ctx.warnings, "writes into module attribute 'running' in place "
                                     "(aten::mul_") &&
                     anyOf(ctx.warnings, "self.running = ..."),
                 ctx.warnings.front().c_str());
    }

    /// An assignment inside a branch is left alone (the trace refuses it),
    /// and so are the reads of that attribute.
    void assignmentsInABranchAreLeftAlone() {
        auto m = stateful(R"PY(
def forward(self, x):
    if bool(x.sum() > 0):
        self.running = x.mean(0)
    return x - self.running
)PY");
        PassContext ctx(m.get_method("forward").graph()->copy());
        ctx.module = m;
        t2n::harden::removeAttributeWrites(ctx);
        QCOMPARE(count(ctx, "attribute_writes_removed"), int64_t(0));
        QVERIFY(ctx.warnings.empty());
        QVERIFY(anyRemark(ctx, "an assignment t2n cannot follow"));
        EXPECT_IR("# CHECK: prim::SetAttr", ctx.graph);
        // A graph without attribute writes is untouched.
        PassContext plain(t2n::test::parseGraph(t2n::test::kReluOnly));
        t2n::harden::removeAttributeWrites(plain);
        QVERIFY(plain.counts.empty() && plain.warnings.empty());
    }
};

T2N_TEST_SUITE(RemoveAttributeWritesTest)
#include "remove_attribute_writes_test.moc"
