#include "harden/fold_list_appends.h"

#include "harden/graph_utils.h"

#include <fmt/format.h>

#include <algorithm>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
bool isAppend(const Node* n) {
    return n->kind() == c10::aten::append;
}

// The list's users in block order, when they allow the rewrite: all in the
// list's block (its return included), appends the only writes, at least one.
std::optional<std::vector<Node*>> foldableUsers(const Value* list) {
    const auto* block = list->node()->owningBlock();
    std::vector<Node*> users;
    bool appended = false;
    for (const auto& use : list->uses()) {
        if (use.user->owningBlock() != block)
            return std::nullopt;
        if (isAppend(use.user) && use.offset == 0)
            appended = true;
        else if (writesInput(use.user, use.offset))
            return std::nullopt;
        if (std::find(users.begin(), users.end(), use.user) == users.end())
            users.push_back(use.user);
    }
    if (!appended)
        return std::nullopt;
    std::sort(users.begin(), users.end(),
              [](const Node* a, const Node* b) { return a->isBefore(b); });
    return users;
}
} // namespace

void foldListAppends(PassContext& ctx) {
    for (Node* construct : nodesOfKind(ctx.graph->block(), c10::prim::ListConstruct)) {
        Value* list = construct->output();
        auto users = foldableUsers(list);
        if (!users)
            continue;
        if (!ctx.rewrite("lists_rebuilt"))
            return;
        std::vector<Value*> elements(construct->inputs().begin(), construct->inputs().end());
        Value* current = list;
        for (Node* user : *users) {
            if (isAppend(user) && user->input(0) == list) {
                elements.push_back(user->input(1));
                Node* next = ctx.graph->create(c10::prim::ListConstruct, elements);
                next->output()->setType(list->type());
                copyOrigin(next, user);
                next->insertBefore(user);
                current = next->output();
                user->output()->replaceAllUsesWith(current);
                user->destroy();
                ctx.count("appends_folded");
                continue;
            }
            for (size_t i = 0; i < user->inputs().size(); ++i)
                if (user->input(i) == list)
                    user->replaceInput(i, current);
        }
        if (!list->hasUses())
            construct->destroy();
    }
}

} // namespace t2n::harden
