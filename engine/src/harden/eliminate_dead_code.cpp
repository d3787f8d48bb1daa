#include "harden/eliminate_dead_code.h"

#include "harden/graph_utils.h"

#include <torch/csrc/jit/passes/dead_code_elimination.h>

namespace t2n::harden {

using torch::jit::Node;

namespace {
// Only numbers in, numbers out, no effects: safe to drop when unused.
bool pureNumeric(const torch::jit::Block* body) {
    for (const Node* n : body->nodes()) {
        if (n->hasSideEffects())
            return false;
        if (const auto* schema = n->maybeSchema(); schema && schema->is_mutable())
            return false;
        for (const auto* out : n->outputs())
            if (!isPrimitive(out->type()))
                return false;
        for (const auto* b : n->blocks())
            if (!pureNumeric(b))
                return false;
    }
    return true;
}

bool removeDeadLoops(torch::jit::Graph& g) {
    bool removed = false;
    for (Node* n : nodesOfKind(g.block(), c10::prim::Loop)) {
        bool used = false;
        for (const auto* out : n->outputs())
            used = used || out->hasUses();
        if (used || !pureNumeric(n->blocks()[0]))
            continue;
        n->destroy();
        removed = true;
    }
    return removed;
}

void sweep(const std::shared_ptr<torch::jit::Graph>& g) {
    do {
        torch::jit::EliminateDeadCode(g);
    } while (removeDeadLoops(*g));
}
} // namespace

void eliminateDeadCode(PassContext& ctx) {
    int64_t before = countNodes(*ctx.graph);
    if (ctx.remainingRewrites() == 0) {
        // Limit reached: remark it only if the sweep would have removed something.
        auto trial = ctx.graph->copy();
        sweep(trial);
        if (countNodes(*trial) < before)
            ctx.allowRewrite();
        return;
    }
    sweep(ctx.graph);
    int64_t removed = before - countNodes(*ctx.graph);
    if (removed > 0) {
        ctx.allowRewrite();
        ctx.count("nodes_removed", removed);
    }
}

} // namespace t2n::harden
