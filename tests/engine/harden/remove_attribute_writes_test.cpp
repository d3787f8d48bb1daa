// harden/remove_attribute_writes.cpp (issue 26): a module attribute forward()
// assigns is read as the assigned value after the assignment, the
// assignment is dropped, and a warning names the attribute; writes into an
// attribute's tensor in place are warned about; assignments inside a branch
// are left alone. An attribute of a submodule assigned before any read
// (RAFT's CorrBlock pyramid) is forwarded without a warning.
#include "engine/harden_test_util.h"
#include "harden/inline_unresolvable_submodules.h"
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

// `outer.block` keeps a list of tensors that build() assigns and read()
// reads, called from forward() as RAFT calls build_pyramid and
// index_pyramid; the graph has its submodule calls inlined.
struct Pyramid {
    torch::jit::Module model;
    std::unique_ptr<PassContext> ctx;
};

Pyramid pyramid(const char* forward) {
    torch::jit::Module block("__torch__.Block");
    block.register_attribute("pyramid", c10::ListType::ofTensors(), c10::List<at::Tensor>());
    block.define(R"PY(
def build(self, x):
    self.pyramid = [x * 2.0, x + 1.0]

def read(self, k: int):
    return self.pyramid[k]
)PY");
    torch::jit::Module outer("__torch__.Outer");
    outer.register_module("block", block);
    outer.define(forward);
    outer.eval();
    PassContext inlined(outer.get_method("forward").graph()->copy());
    inlined.module = outer;
    t2n::harden::inlineUnresolvableSubmodules(inlined);
    auto ctx = std::make_unique<PassContext>(inlined.graph->copy());
    ctx->module = outer;
    return {outer, std::move(ctx)};
}

// The rewritten graph, run as a function of (self, x), against the module.
bool computesTheModule(Pyramid& p) {
    const at::Tensor x = at::randn({2, 3});
    const at::Tensor want = p.model.clone(true).forward({x}).toTensor();
    // The graph's `self` is the module's own type (a clone's is another).
    torch::jit::GraphFunction after("forward_after", p.ctx->graph, nullptr);
    return at::allclose(after({p.model._ivalue(), x}).toTensor(), want);
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

    /// A submodule's attribute assigned before any read, read after it
    /// (once inside a loop): the reads take the assigned list, the
    /// assignment is gone, a remark and no warning (nothing is carried
    /// between calls).
    void assignedBeforeAnyReadIsNotWarned() {
        Pyramid p = pyramid(R"PY(
def forward(self, x):
    self.block.build(x)
    y = self.block.read(0)
    for k in range(2):
        y = y + self.block.read(1)
    return y
)PY");
        t2n::harden::removeAttributeWrites(*p.ctx);
        QCOMPARE(count(*p.ctx, "attribute_writes_removed"), int64_t(1));
        QCOMPARE(count(*p.ctx, "attribute_reads_forwarded"), int64_t(2));
        QVERIFY(p.ctx->warnings.empty());
        QVERIFY(anyRemark(*p.ctx, "'block.pyramid' is assigned before any read"));
        EXPECT_IR("# CHECK-NOT: prim::SetAttr\n# CHECK-NOT: name=\"pyramid\"", p.ctx->graph);
        QVERIFY(computesTheModule(p));
    }

    /// Assigned twice: each read takes the value assigned last before it.
    void assignedTwiceReadsTheLatest() {
        Pyramid p = pyramid(R"PY(
def forward(self, x):
    self.block.build(x)
    a = self.block.read(0)
    self.block.build(a)
    return self.block.read(1)
)PY");
        t2n::harden::removeAttributeWrites(*p.ctx);
        QCOMPARE(count(*p.ctx, "attribute_writes_removed"), int64_t(2));
        QCOMPARE(count(*p.ctx, "attribute_reads_forwarded"), int64_t(2));
        QVERIFY(p.ctx->warnings.empty());
        EXPECT_IR("# CHECK-NOT: prim::SetAttr", p.ctx->graph);
        QVERIFY(computesTheModule(p));
    }
};

T2N_TEST_SUITE(RemoveAttributeWritesTest)
#include "remove_attribute_writes_test.moc"
