// Shared helpers for the hardening pass tests: parse an IR snippet, read a
// pass statistic, search remarks, and FileCheck a graph inside a Qt Test slot.
#pragma once

#include "harden/pass.h"

#include <torch/csrc/jit/ir/irparser.h>
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
