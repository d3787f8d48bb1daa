// Shared helpers for the hardening pass tests: parse an IR snippet, read a
// pass statistic, search remarks, and FileCheck a graph inside a Qt Test slot.
#pragma once

#include "harden/pass.h"

#include <torch/csrc/jit/ir/irparser.h>
#include <torch/csrc/jit/runtime/interpreter.h>
#include <torch/csrc/jit/testing/file_check.h>

#include <QTest>

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
    std::vector<at::Tensor> out;
    for (const auto& v : stack) {
        if (v.isTuple())
            for (const auto& e : v.toTupleRef().elements())
                out.push_back(e.toTensor());
        else
            out.push_back(v.toTensor());
    }
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
