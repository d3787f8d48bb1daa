// Writes into views on IR snippets (issue 11, class 5): remove_view_mutation
// turns copy_ / fill_ / masked_fill_ / zero_ / in-place arithmetic on slices,
// selects and narrows, and index_put_, into functional scatters; the graph
// computes what it computed before. Writes it cannot prove safe are left with
// a remark. remove_tensor_mutation (torch's RemoveTensorMutation) is shown
// leaving the same writes, which is why the pass exists.
#include "harden/remove_tensor_mutation.h"
#include "harden/remove_view_mutation.h"
#include "harden_test_util.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using t2n::test::parseGraph;

using t2n::test::remarked;
using t2n::test::statistic;

namespace {

// y = x * 2; y[:, :2] = 0.0 (as torch.jit.script writes it); return y + 1
constexpr const char* kSliceFill = R"IR(
graph(%x : Tensor):
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %zf : float = prim::Constant[value=0.]()
  %y : Tensor = aten::mul(%x, %two)
  %s0 : Tensor = aten::slice(%y, %zero, %none, %none, %one)
  %s1 : Tensor = aten::slice(%s0, %one, %none, %two, %one)
  %dt : int = prim::dtype(%s1)
  %dev : Device = prim::device(%s1)
  %v : Tensor = aten::tensor(%zf, %dt, %dev, %false)
  %w : Tensor = aten::copy_(%s1, %v, %false)
  %r : Tensor = aten::add(%y, %one, %one)
  return (%r))IR";
} // namespace

class HardenWritesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// torch's RemoveTensorMutation leaves a write into a slice: the tensor has a view.
    void removeTensorMutationLeavesSliceWrites() {
        PassContext ctx(parseGraph(kSliceFill));
        t2n::harden::removeTensorMutation(ctx);
        QCOMPARE(statistic(ctx, "ops_made_functional"), int64_t(0));
        EXPECT_IR("# CHECK: aten::copy_", ctx.graph);
    }

    /// y[:, :2] = 0.0: the new slice value goes back through both slices; the read after
    /// the write reads the scattered tensor.
    void sliceCopyBecomesScatter() {
        auto before = parseGraph(kSliceFill);
        PassContext ctx(parseGraph(kSliceFill));
        t2n::harden::removeViewMutation(ctx);
        QCOMPARE(statistic(ctx, "writes_made_functional"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: aten::copy_\n"
                  "# CHECK: aten::type_as\n# CHECK: aten::expand_as\n"
                  "# CHECK-COUNT-2: aten::slice_scatter\n# CHECK: aten::add",
                  ctx.graph);
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, {torch::randn({3, 4})}));
    }

    /// y[:, 1] = x[:, 0] (select), masked_fill_ on a narrow, an in-place add on a slice,
    /// zero_ on a select: each becomes functional, in order, each reading the previous one.
    void chainOfWrites() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %half : float = prim::Constant[value=0.5]()
  %y : Tensor = aten::relu(%x)
  %a : Tensor = aten::select(%y, %one, %one)
  %b : Tensor = aten::select(%x, %one, %zero)
  %w1 : Tensor = aten::copy_(%a, %b, %false)
  %n : Tensor = aten::narrow(%y, %one, %two, %two)
  %m : Tensor = aten::gt(%n, %half)
  %w2 : Tensor = aten::masked_fill_(%n, %m, %half)
  %s : Tensor = aten::slice(%y, %zero, %one, %none, %one)
  %w3 : Tensor = aten::add_(%s, %half, %two)
  %row : Tensor = aten::select(%y, %zero, %zero)
  %w4 : Tensor = aten::zero_(%row)
  %r : Tensor = aten::mul(%y, %two)
  return (%r, %w3))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::removeViewMutation(ctx);
        QCOMPARE(statistic(ctx, "writes_made_functional"), int64_t(4));
        EXPECT_IR("# CHECK-NOT: aten::copy_\n# CHECK-NOT: aten::masked_fill_\n"
                  "# CHECK-NOT: aten::add_\n# CHECK-NOT: aten::zero_\n"
                  "# CHECK: aten::select_scatter\n# CHECK: aten::masked_fill\n"
                  "# CHECK: aten::slice_scatter\n# CHECK: aten::add\n"
                  "# CHECK: aten::slice_scatter\n# CHECK: aten::zeros_like\n"
                  "# CHECK: aten::select_scatter",
                  ctx.graph);
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, {torch::randn({4, 5})}));
    }

    /// y[idx] = v and y[y < 0] = 0 on a tensor that has a slice: index_put_ -> index_put.
    void indexPutBecomesFunctional() {
        const char* ir = R"IR(
graph(%x : Tensor, %v : Tensor):
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %zf : float = prim::Constant[value=0.]()
  %two : int = prim::Constant[value=2]()
  %rows : int[] = prim::ListConstruct(%zero, %two)
  %idx : Tensor = aten::tensor(%rows, %none, %none, %false)
  %y : Tensor = aten::neg(%x)
  %first : Tensor = aten::slice(%y, %zero, %none, %one, %one)
  %i1 : Tensor?[] = prim::ListConstruct(%idx)
  %w1 : Tensor = aten::index_put_(%y, %i1, %v, %false)
  %mask : Tensor = aten::lt(%y, %zf)
  %i2 : Tensor?[] = prim::ListConstruct(%mask)
  %zt : Tensor = aten::zeros_like(%v, %none, %none, %none, %none, %none)
  %zs : Tensor = aten::sum(%zt, %none)
  %w2 : Tensor = aten::index_put_(%y, %i2, %zs, %false)
  %r : Tensor = aten::mul(%y, %one)
  return (%r))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::removeViewMutation(ctx);
        QCOMPARE(statistic(ctx, "writes_made_functional"), int64_t(2));
        EXPECT_IR("# CHECK-NOT: aten::index_put_\n# CHECK: aten::index_put\n"
                  "# CHECK: aten::index_put",
                  ctx.graph);
        QVERIFY(
            t2n::test::sameOutputs(before, ctx.graph, {torch::randn({4, 3}), torch::randn({3})}));
    }

    /// A view of the written tensor taken before the write and read after it would see
    /// the write: left, with a remark naming it.
    void liveAliasIsLeft() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %y : Tensor = aten::relu(%x)
  %keep : Tensor = aten::slice(%y, %one, %zero, %two, %one)
  %s : Tensor = aten::slice(%y, %one, %one, %none, %one)
  %w : Tensor = aten::zero_(%s)
  %r : Tensor = aten::add(%keep, %one, %one)
  return (%r))IR";
        PassContext ctx(parseGraph(ir));
        t2n::harden::removeViewMutation(ctx);
        QCOMPARE(statistic(ctx, "writes_made_functional"), int64_t(0));
        QVERIFY(remarked(ctx, "may share the written memory and is read after the write"));
        EXPECT_IR("# CHECK: aten::zero_", ctx.graph);
    }

    /// A write through a transpose is not put back: left, with a remark naming the view.
    void writeThroughTransposeIsLeft() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %y : Tensor = aten::relu(%x)
  %t : Tensor = aten::transpose(%y, %zero, %one)
  %row : Tensor = aten::select(%t, %zero, %zero)
  %w : Tensor = aten::zero_(%row)
  return (%y))IR";
        PassContext ctx(parseGraph(ir));
        t2n::harden::removeViewMutation(ctx);
        QCOMPARE(statistic(ctx, "writes_made_functional"), int64_t(0));
        QVERIFY(remarked(ctx, "writes through a view made by aten::transpose"));
    }

    /// molann's Kabsch layer: d = ones.repeat(...).to(x's dtype); d[:, 1] = x[:, 0]. The
    /// write goes into what `to` returned (x itself when it converts nothing): made
    /// functional, and the graph computes the data-dependent write (before, the
    /// base was folded with the example's values written in).
    void writeThroughToBecomesScatter() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %six : int = prim::Constant[value=6]()
  %sizes : int[] = prim::ListConstruct(%one, %one)
  %e : Tensor = aten::ones_like(%x, %none, %none, %none, %none, %none)
  %rep : Tensor = aten::repeat(%e, %sizes)
  %d : Tensor = aten::to(%rep, %six, %false, %false, %none)
  %col : Tensor = aten::select(%d, %one, %one)
  %src : Tensor = aten::select(%x, %one, %zero)
  %w : Tensor = aten::copy_(%col, %src, %false)
  %r : Tensor = aten::mul(%d, %x)
  return (%r))IR";
        auto before = parseGraph(ir);
        PassContext ctx(parseGraph(ir));
        t2n::harden::removeViewMutation(ctx);
        QCOMPARE(statistic(ctx, "writes_made_functional"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: aten::copy_\n# CHECK: aten::select_scatter\n# CHECK: aten::mul",
                  ctx.graph);
        QVERIFY(t2n::test::sameOutputs(before, ctx.graph, {torch::randn({4, 3})}));
    }

    /// The same write when the tensor `to` read is read after it (they may share the
    /// memory): left, with the alias remark.
    void writeThroughToWithLiveSourceIsLeft() {
        const char* ir = R"IR(
graph(%x : Tensor):
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %six : int = prim::Constant[value=6]()
  %y : Tensor = aten::relu(%x)
  %d : Tensor = aten::to(%y, %six, %false, %false, %none)
  %col : Tensor = aten::select(%d, %one, %one)
  %w : Tensor = aten::zero_(%col)
  %r : Tensor = aten::add(%y, %one, %one)
  return (%r))IR";
        PassContext ctx(parseGraph(ir));
        t2n::harden::removeViewMutation(ctx);
        QCOMPARE(statistic(ctx, "writes_made_functional"), int64_t(0));
        QVERIFY(remarked(ctx, "may share the written memory and is read after the write"));
    }

    /// No in-place op: nothing to do, nothing said.
    void noPattern() {
        PassContext ctx(parseGraph(t2n::test::kReluOnly));
        t2n::harden::removeViewMutation(ctx);
        QVERIFY(ctx.counts.empty());
        QVERIFY(ctx.remarks.empty());
    }
};

T2N_TEST_SUITE(HardenWritesTest)
#include "tst_harden_writes.moc"
