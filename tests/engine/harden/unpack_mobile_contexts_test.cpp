// harden/unpack_mobile_contexts.cpp: prepacked (XNNPACK) conv/linear runs over a constant
// context become aten::conv2d / conv_transpose2d / linear + clamp on the context's weights,
// computing what XNNPACK computes; a context made in the graph is left alone with a remark.
#include "engine/harden_test_util.h"
#include "harden/unpack_mobile_contexts.h"
#include "suite_macros.h"

#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/runtime/operator.h>

using t2n::harden::PassContext;
using namespace t2n::test;
using namespace t2n::test::harden_test;

namespace {

/// Runs the registered operator `name` (its only overload) on `args`.
c10::IValue callOperator(const char* name, torch::jit::Stack args) {
    auto ops = torch::jit::getAllOperatorsFor(c10::Symbol::fromQualString(name));
    if (ops.empty())
        return {};
    ops.front()->getOperation()(args);
    return args.at(0);
}

/// `ir` with its input `%ctx` replaced by a constant holding `context`.
std::shared_ptr<torch::jit::Graph> withContext(const char* ir, const c10::IValue& context) {
    auto g = parse(ir);
    torch::jit::Value* input = g->inputs().back();
    torch::jit::WithInsertPoint guard(g->nodes().front());
    torch::jit::Value* c = g->insertConstant(context);
    input->replaceAllUsesWith(c);
    g->eraseInput(g->inputs().size() - 1);
    return g;
}

} // namespace

class UnpackMobileContextsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (torch::jit::getAllOperatorsFor(
                c10::Symbol::fromQualString("prepacked::conv2d_clamp_prepack"))
                .empty())
            QSKIP("this LibTorch has no XNNPACK prepacked operators");
        torch::manual_seed(7);
    }

    /// conv2d with a [0, 6] clamp (ReLU6 fused by optimize_for_mobile): aten::conv2d + clamp.
    void conv2dWithClamp() {
        auto w = torch::randn({4, 2, 3, 3});
        auto b = torch::randn({4});
        auto context = callOperator("prepacked::conv2d_clamp_prepack",
                                    {w, b, std::vector<int64_t>{2, 1}, std::vector<int64_t>{1, 0},
                                     std::vector<int64_t>{1, 1}, int64_t(2), 0.0, 6.0});
        auto g = withContext(R"IR(
graph(%x : Tensor, %ctx : __torch__.torch.classes.xnnpack.Conv2dOpContext):
  %y : Tensor = prepacked::conv2d_clamp_run(%x, %ctx)
  return (%y))IR",
                             context);
        auto original = g->copy();
        PassContext ctx(g);
        t2n::harden::unpackMobileContexts(ctx);
        QCOMPARE(count(ctx, "contexts_unpacked"), int64_t(1));
        QCOMPARE(count(ctx, "clamps_written"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: prepacked::\n# CHECK: aten::conv2d(%x\n# CHECK: aten::clamp(", g);
        const auto x = torch::randn({1, 4, 9, 8}) * 3;
        QVERIFY(sameOutputs(original, g, {x}));
        // The reference computation, independent of the pass: conv2d then clamp.
        auto expected = torch::conv2d(x, w, b, {2, 1}, {1, 0}, {1, 1}, 2).clamp(0.0, 6.0);
        QVERIFY(torch::allclose(runBare(g, {x}).at(0), expected, 1e-4, 1e-5));
    }

    /// linear with a lower bound only (ReLU fused): aten::linear + relu; no range: linear alone.
    void linearWithRelu() {
        auto w = torch::randn({5, 3});
        auto b = torch::randn({5});
        auto relu = callOperator("prepacked::linear_clamp_prepack", {w, b, 0.0, c10::IValue()});
        auto plain = callOperator("prepacked::linear_clamp_prepack",
                                  {w, c10::IValue(), c10::IValue(), c10::IValue()});
        const char* ir = R"IR(
graph(%x : Tensor, %ctx : __torch__.torch.classes.xnnpack.LinearOpContext):
  %y : Tensor = prepacked::linear_clamp_run(%x, %ctx)
  return (%y))IR";
        const auto x = torch::randn({2, 3});
        auto g = withContext(ir, relu);
        PassContext ctx(g);
        t2n::harden::unpackMobileContexts(ctx);
        EXPECT_IR("# CHECK: aten::linear(%x\n# CHECK: aten::relu(", g);
        QVERIFY(torch::allclose(runBare(g, {x}).at(0), torch::linear(x, w, b).relu(), 1e-4, 1e-5));

        auto h = withContext(ir, plain);
        PassContext ctx2(h);
        t2n::harden::unpackMobileContexts(ctx2);
        QCOMPARE(count(ctx2, "clamps_written"), int64_t(0));
        EXPECT_IR("# CHECK: aten::linear(%x\n# CHECK-NOT: aten::clamp\n# CHECK-NOT: aten::relu", h);
        QVERIFY(torch::allclose(runBare(h, {x}).at(0), torch::linear(x, w), 1e-4, 1e-5));
    }

    /// conv_transpose2d: the context keeps (output_padding, dilation, groups) in another order.
    void transposedConv() {
        auto w = torch::randn({4, 3, 3, 3}); // (in, out / groups, k, k)
        auto b = torch::randn({6});
        auto context = callOperator("prepacked::conv2d_transpose_clamp_prepack",
                                    {w, b, std::vector<int64_t>{2, 2}, std::vector<int64_t>{1, 1},
                                     std::vector<int64_t>{1, 0}, std::vector<int64_t>{1, 1},
                                     int64_t(2), c10::IValue(), c10::IValue()});
        if (context.isNone())
            QSKIP("no prepacked::conv2d_transpose_clamp_prepack in this LibTorch");
        auto g = withContext(R"IR(
graph(%x : Tensor, %ctx : __torch__.torch.classes.xnnpack.TransposeConv2dOpContext):
  %y : Tensor = prepacked::conv2d_transpose_clamp_run(%x, %ctx)
  return (%y))IR",
                             context);
        PassContext ctx(g);
        t2n::harden::unpackMobileContexts(ctx);
        EXPECT_IR("# CHECK: aten::conv_transpose2d(%x", g);
        const auto x = torch::randn({1, 4, 5, 6});
        auto expected = torch::conv_transpose2d(x, w, b, {2, 2}, {1, 1}, {1, 0}, 2, {1, 1});
        QVERIFY(torch::allclose(runBare(g, {x}).at(0), expected, 1e-4, 1e-5));
    }

    /// A context the graph makes itself (not frozen) is not a constant: left alone, remarked.
    void contextMadeInTheGraphIsLeftAlone() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor, %w : Tensor):
  %none : NoneType = prim::Constant()
  %ctx : __torch__.torch.classes.xnnpack.LinearOpContext = prepacked::linear_clamp_prepack(%w, %none, %none, %none)
  %y : Tensor = prepacked::linear_clamp_run(%x, %ctx)
  return (%y))IR"));
        t2n::harden::unpackMobileContexts(ctx);
        QCOMPARE(count(ctx, "contexts_unpacked"), int64_t(0));
        QVERIFY(anyRemark(ctx, "its context is computed in the graph"));
        EXPECT_IR("# CHECK: prepacked::linear_clamp_run", ctx.graph);
    }
};

T2N_TEST_SUITE(UnpackMobileContextsTest)
#include "unpack_mobile_contexts_test.moc"
