#include "harden/fold_data_dependent_ifs.h"

#include "harden/dependence.h"
#include "harden/graph_utils.h"
#include "jit/graph_runner.h"

#include <fmt/format.h>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
std::vector<Node*> topLevelIfs(torch::jit::Graph& g) {
    std::vector<Node*> ifs;
    for (Node* n : g.block()->nodes())
        if (n->kind() == c10::prim::If)
            ifs.push_back(n);
    return ifs;
}

/// Specialises the top-level ifs whose condition the run recorded; returns
/// how many (0 also when the rewrite limit stopped it).
int specialiseOnce(PassContext& ctx, const std::vector<Node*>& ifs);
} // namespace

// An `if/elif/elif` chain (nn.MultiheadAttention's fast-path checks) nests
// each test in the previous else branch: inlining one branch lifts the next
// if to the top level. The pass runs the graph again until no top-level if
// is left to specialise, so one pass settles a whole chain instead of one
// level per round of the folding group.
void foldDataDependentIfs(PassContext& ctx) {
    for (Node* n : nodesOfKind(ctx.graph->block(), c10::prim::If))
        if (insideLoop(n))
            ctx.remark(n, fmt::format("missed: {}: inside a loop body, the condition may change "
                                      "per iteration",
                                      describe(n)));
    if (topLevelIfs(*ctx.graph).empty() || !ctx.canRun("data-dependent ifs"))
        return;
    constexpr int kMaxRuns = 64; // a guard: each run lifts at least one level
    for (int run = 0; run < kMaxRuns; ++run) {
        const auto ifs = topLevelIfs(*ctx.graph);
        if (ifs.empty() || specialiseOnce(ctx, ifs) == 0)
            return;
    }
}

namespace {
int specialiseOnce(PassContext& ctx, const std::vector<Node*>& ifs) {
    std::vector<const Value*> conditions;
    for (Node* n : ifs)
        conditions.push_back(n->input(0));
    Recorded rec = runAndRecord(ctx, conditions);
    const bool hasSelf = ctx.module.has_value();
    int done = 0;
    for (Node* n : ifs) {
        auto it = rec.find(n->input(0));
        if (it == rec.end() || !it->second.isBool())
            continue;
        bool taken = it->second.toBool();
        bool onValues = false;
        std::string why =
            explainDependence(dependenceOf(n->input(0)), *ctx.graph, hasSelf, onValues);
        std::string at = where(n);
        std::string cond = describe(n->input(0)->node());
        if (!ctx.rewrite("ifs_specialized"))
            return 0;
        ctx.remark(n,
                   fmt::format("If at {}: took the {} branch; its condition {} was {} on the "
                               "example inputs and {}",
                               at.empty() ? "?" : at, taken ? "then" : "else", cond, taken, why));
        if (onValues)
            ctx.warnings.push_back(fmt::format(
                "the If at {} was specialised to its {} branch: its condition {} and was {} on "
                "the example inputs; inputs that make it {} will compute a different result "
                "than the model",
                at.empty() ? "?" : at, taken ? "then" : "else", why, taken, !taken));
        inlineIfBranch(n, taken ? 0 : 1);
        ++done;
    }
    return done;
}
} // namespace

} // namespace t2n::harden
