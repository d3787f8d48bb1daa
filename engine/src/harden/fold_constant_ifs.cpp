#include "harden/fold_constant_ifs.h"

#include "harden/graph_utils.h"

#include <fmt/format.h>

namespace t2n::harden {

using torch::jit::Block;
using torch::jit::Node;

namespace {
// Folds the Ifs of `block` and of the blocks nested in it. The inlined
// branch's nodes land before the If, where this walk has already been, so
// they are visited in the caller's next sweep. Returns true on a change.
bool sweep(Block* block, PassContext& ctx) {
    bool changed = false;
    for (auto it = block->nodes().begin(); it != block->nodes().end();) {
        Node* n = *it++;
        if (n->kind() == c10::prim::If) {
            auto cond = torch::jit::toIValue(n->input(0));
            if (cond && cond->isBool()) {
                if (!ctx.rewrite("ifs_folded"))
                    return changed;
                const Node* c = n->input(0)->node();
                ctx.remark(n,
                           fmt::format("folded: condition %{} is {}{}, branch {} kept",
                                       n->input(0)->debugName(), cond->toBool(),
                                       c->kind() == c10::prim::Constant ? std::string()
                                                                        : " (" + describe(c) + ")",
                                       cond->toBool() ? 0 : 1));
                inlineIfBranch(n, cond->toBool() ? 0 : 1);
                changed = true;
                continue;
            }
        }
        for (Block* b : n->blocks())
            changed = sweep(b, ctx) || changed;
    }
    return changed;
}
} // namespace

void foldConstantIfs(PassContext& ctx) {
    while (sweep(ctx.graph->block(), ctx) && !ctx.limited) {
    }
}

} // namespace t2n::harden
