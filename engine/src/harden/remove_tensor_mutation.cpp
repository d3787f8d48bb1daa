#include "harden/remove_tensor_mutation.h"

#include "harden/graph_utils.h"

#include <torch/csrc/jit/passes/remove_mutation.h>

#include <fmt/format.h>

namespace t2n::harden {

namespace {
int64_t inPlaceCount(torch::jit::Graph& g) {
    int64_t n = 0;
    for (auto* node : allNodes(g.block()))
        n += isInPlace(node) ? 1 : 0;
    return n;
}
} // namespace

void removeTensorMutation(PassContext& ctx) {
    int64_t before = inPlaceCount(*ctx.graph);
    if (before == 0)
        return;
    // The filter bounds how many nodes torch may rewrite under a rewrite
    // limit; what it actually rewrote is counted afterwards.
    int64_t allowed = ctx.remainingRewrites();
    int64_t offered = 0;
    auto filter = [&](torch::jit::Node*) { return offered++ < allowed; };
    torch::jit::RemoveTensorMutation(ctx.graph, filter);
    int64_t after = inPlaceCount(*ctx.graph);
    for (int64_t i = 0; i < before - after; ++i)
        ctx.rewrite("ops_made_functional");
    if (offered > allowed)
        ctx.allowRewrite(); // records that the limit stopped the pass
    if (after > 0)
        ctx.remark(fmt::format("kept {} in-place op(s): alias analysis cannot prove the "
                               "rewrite safe",
                               after));
}

} // namespace t2n::harden
