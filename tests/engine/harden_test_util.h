// Shared helpers for the hardening pass tests: parse an IR snippet, read a
// pass statistic, search remarks, and FileCheck a graph inside a Qt Test slot.
#pragma once

#include "harden/pass.h"

#include <torch/csrc/jit/ir/irparser.h>
#include <torch/csrc/jit/runtime/interpreter.h>
#include <torch/csrc/jit/testing/file_check.h>

#include <QTest>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace t2n::test {

/// A graph with none of the hardening patterns: every pass leaves it alone.
inline constexpr const char* kReluOnly = R"IR(
graph(%x : Tensor):
  %y : Tensor = aten::relu(%x)
  return (%y))IR";

inline std::shared_ptr<torch::jit::Graph> parseGraph(const char* ir) {
    auto g = std::make_shared<torch::jit::Graph>();
    torch::jit::parseIR(ir, g.get());
    return g;
}

/// Runs a bare graph (no module) on `inputs`; its outputs, tuples flattened.
inline std::vector<at::Tensor> runBare(const std::shared_ptr<torch::jit::Graph>& g,
                                       const std::vector<at::Tensor>& inputs) {
    torch::jit::Stack stack;
    for (const auto& t : inputs)
        stack.emplace_back(t.clone()); // a graph may write into its inputs
    torch::jit::Code code(g->copy(), "snippet");
    torch::jit::InterpreterState(code).run(stack);
    // Tuples and lists of tensors (nested too), flattened in order.
    std::vector<at::Tensor> out;
    std::function<void(const c10::IValue&)> flatten = [&](const c10::IValue& v) {
        if (v.isTuple())
            for (const auto& e : v.toTupleRef().elements())
                flatten(e);
        else if (v.isList())
            for (const auto& e : v.toListRef())
                flatten(e);
        else
            out.push_back(v.toTensor());
    };
    for (const auto& v : stack)
        flatten(v);
    return out;
}

/// The rewritten graph computes what the original did, on `inputs`.
inline bool sameOutputs(const std::shared_ptr<torch::jit::Graph>& original,
                        const std::shared_ptr<torch::jit::Graph>& rewritten,
                        const std::vector<at::Tensor>& inputs) {
    auto a = runBare(original, inputs);
    auto b = runBare(rewritten, inputs);
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].sizes() != b[i].sizes() || !torch::allclose(a[i], b[i]))
            return false;
    return true;
}

inline int64_t statistic(const harden::PassContext& ctx, const char* name) {
    for (const auto& [key, n] : ctx.counts)
        if (key == name)
            return n;
    return 0;
}

inline bool anyContains(const std::vector<std::string>& texts, const char* text) {
    for (const auto& t : texts)
        if (t.find(text) != std::string::npos)
            return true;
    return false;
}

/// Some remark of the pass that ran contains `text`.
inline bool remarked(const harden::PassContext& ctx, const char* text) {
    return anyContains(ctx.remarks, text);
}

/// Short names for the bodies of the pass tests (tests/engine/harden/).
namespace harden_test {

inline auto parse(const char* ir) {
    return parseGraph(ir);
}
inline int64_t count(const harden::PassContext& ctx, const char* name) {
    return statistic(ctx, name);
}
inline bool anyRemark(const harden::PassContext& ctx, const char* text) {
    return anyContains(ctx.remarks, text);
}
inline bool anyOf(const std::vector<std::string>& texts, const char* text) {
    return anyContains(texts, text);
}

// `outer` calls `inner` (a custom class) and `cell` (named like nn.LSTMCell).
inline torch::jit::Module modelWithCalls() {
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

/// A shape-dependent If: the example's even batch takes block0.
inline constexpr const char* kShapeIf = R"IR(
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

} // namespace harden_test

} // namespace t2n::test

/// FileCheck directives ("# CHECK: ...", "# CHECK-NOT: ...") against the graph.
#define EXPECT_IR(checks, graph)                                                                   \
    do {                                                                                           \
        try {                                                                                      \
            torch::jit::testing::FileCheck().run(checks, *(graph));                                \
        } catch (const std::exception& e) {                                                        \
            QFAIL(e.what());                                                                       \
        }                                                                                          \
    } while (false)
