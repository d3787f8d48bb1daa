// What every hardening pass sees and how it reports: the graph (and, for
// the passes that need them, the module and the example inputs), a counter
// per declared statistic, remarks, and the rewrite budget. Passes are free
// functions `void pass(PassContext&)`; each rewrite goes through rewrite()
// so that a global limit (`--harden-step N`) can stop the chain anywhere.
#pragma once

#include "jit/graph_runner.h"
#include "t2n/harden.h"

#include <torch/script.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::harden {

class NodeIdentity;

/// Shared by all passes of one chain run.
struct RewriteBudget {
    std::optional<int64_t> limit;
    int64_t used = 0;
    bool exhausted() const { return limit && used >= *limit; }
};

class PassContext {
public:
    explicit PassContext(std::shared_ptr<torch::jit::Graph> g, RewriteBudget* budget = nullptr);
    PassContext(const PassContext&) = delete; // may point at its own budget
    PassContext& operator=(const PassContext&) = delete;

    std::shared_ptr<torch::jit::Graph> graph;
    /// The receiver (`self`, graph input 0); absent for bare graphs in tests.
    std::optional<torch::jit::Module> module;
    /// forward()'s arguments after self; empty when none were given.
    std::vector<at::Tensor> exampleInputs;
    /// Chain-wide facts the passes leave for the diagnostics.
    bool froze = false;
    std::string freezeError;
    std::vector<std::string> warnings;

    /// Counts and remarks of the pass running now (the manager resets it).
    std::vector<Count> counts;
    std::vector<std::string> remarks;
    std::vector<NodeRemark> nodeRemarks;
    bool limited = false;
    /// Stable node ids of the chain (null for a pass run on its own in tests).
    const NodeIdentity* identity = nullptr;

    /// Asks for one rewrite and counts it under `statistic`. False past the
    /// rewrite limit: the pass must then leave the graph alone and return.
    bool rewrite(std::string_view statistic);
    /// Asks for one rewrite without counting (for passes that count in bulk).
    bool allowRewrite();
    /// Rewrites still allowed (a large number without a limit).
    int64_t remainingRewrites() const;
    void count(std::string_view statistic, int64_t n = 1);
    void remark(std::string text);
    /// A remark about `node` ("missed: condition depends on input x"): also
    /// attached to the node's stable id, so it shows on the node. Call it
    /// before destroying the node.
    void remark(const torch::jit::Node* node, std::string text);

    /// The graph can be run: example inputs match the graph's inputs.
    /// Otherwise remarks why (as "missed: ...") and returns false.
    bool canRun(std::string_view what);

private:
    RewriteBudget ownBudget_;
    RewriteBudget* budget_;
};

using jit::Recorded;

/// The passes that need values: runs ctx.graph on ctx.module and
/// ctx.exampleInputs, recording `wanted` (nothing when it is empty).
Recorded runAndRecord(const PassContext& ctx, const std::vector<const torch::jit::Value*>& wanted);

} // namespace t2n::harden
