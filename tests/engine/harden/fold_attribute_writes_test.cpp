// harden/fold_attribute_writes.cpp: an attribute of a submodule that forward()
// writes once and reads after (RAFT's CorrBlock pyramid) is forwarded to its
// reads and the write dropped; attributes written twice or inside an if are
// left alone with a remark.
#include "engine/harden_test_util.h"
#include "harden/fold_attribute_writes.h"
#include "harden/inline_unresolvable_submodules.h"
#include "suite_macros.h"

#include <torch/csrc/jit/api/function_impl.h>

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

namespace {

// `outer.block` keeps a list of tensors that build() writes and read()
// reads, called from forward() as RAFT calls build_pyramid and
// index_pyramid (the read inside a loop).
torch::jit::Module modelWithState(const std::string& forward) {
    torch::jit::Module block("__torch__.Block");
    block.register_attribute("pyramid", c10::ListType::ofTensors(), c10::List<at::Tensor>());
    block.define(R"(
def build(self, x):
    self.pyramid = [x * 2.0, x + 1.0]

def read(self, k: int):
    return self.pyramid[k]
)");
    torch::jit::Module outer("__torch__.Outer");
    outer.register_module("block", block);
    outer.define(forward);
    outer.eval();
    return outer;
}

} // namespace

class FoldAttributeWritesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// One write, reads after it (one inside a loop): every read takes the
    /// written list, the write is gone, and the graph computes what the
    /// module did (run without `self`'s state).
    void writeOnceThenReadsAreForwarded() {
        auto model = modelWithState(R"(
def forward(self, x):
    self.block.build(x)
    y = self.block.read(0)
    for k in range(2):
        y = y + self.block.read(1)
    return y
)");
        auto working = model.clone(true);
        PassContext before(working.get_method("forward").graph()->copy());
        before.module = working;
        t2n::harden::inlineUnresolvableSubmodules(before);
        PassContext ctx(before.graph->copy());
        ctx.module = working;
        t2n::harden::foldAttributeWrites(ctx);
        QCOMPARE(count(ctx, "writes_folded"), int64_t(1));
        QCOMPARE(count(ctx, "reads_forwarded"), int64_t(2));
        QVERIFY(anyRemark(ctx, "'block.pyramid' written once"));
        EXPECT_IR("# CHECK-NOT: prim::SetAttr\n# CHECK-NOT: name=\"pyramid\"", ctx.graph);
        const at::Tensor x = at::randn({2, 3});
        const at::Tensor want = model.clone(true).forward({x}).toTensor();
        // The rewritten graph run as a function of (self, x).
        auto fn = torch::jit::GraphFunction("folded", ctx.graph, nullptr);
        torch::jit::Stack stack{working._ivalue(), x};
        fn.run(stack);
        QVERIFY(at::allclose(stack.at(0).toTensor(), want));
    }

    /// Written twice: which value a read sees depends on where it is; left
    /// alone with a remark.
    void writtenTwiceIsLeftAlone() {
        auto model = modelWithState(R"(
def forward(self, x):
    self.block.build(x)
    a = self.block.read(0)
    self.block.build(a)
    return self.block.read(1)
)");
        auto working = model.clone(true);
        PassContext first(working.get_method("forward").graph()->copy());
        first.module = working;
        t2n::harden::inlineUnresolvableSubmodules(first);
        PassContext ctx(first.graph->copy());
        t2n::harden::foldAttributeWrites(ctx);
        QCOMPARE(count(ctx, "writes_folded"), int64_t(0));
        QVERIFY(anyRemark(ctx, "is written 2 times"));
        EXPECT_IR("# CHECK: prim::SetAttr", ctx.graph);
    }

    /// Nothing to do in a graph without writes.
    void noPattern() {
        PassContext ctx(parse(t2n::test::kReluOnly));
        t2n::harden::foldAttributeWrites(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(ctx.remarks.empty());
    }
};

T2N_TEST_SUITE(FoldAttributeWritesTest)
#include "fold_attribute_writes_test.moc"
