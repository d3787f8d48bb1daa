#include "harden/fold_dict_writes.h"

#include "harden/graph_utils.h"

#include <torch/csrc/jit/ir/constants.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
const c10::Symbol kSetItem = c10::Symbol::fromQualString("aten::_set_item");
const c10::Symbol kDict = c10::Symbol::fromQualString("aten::dict");

std::optional<std::string> constantKey(const Value* v) {
    const auto iv = torch::jit::toIValue(v);
    if (!iv || !iv->isString())
        return std::nullopt;
    return iv->toStringRef();
}

using Entries = std::vector<std::pair<std::string, Value*>>;

Value* lookup(const Entries& entries, const std::string& key) {
    for (const auto& [k, v] : entries)
        if (k == key)
            return v;
    return nullptr;
}

// The dict's writes and reads in block order when it can be folded: every use
// in its block, a constant-key _set_item (the dict as first input) or
// __getitem__ of a key already written, or the block's return; at least one
// write.
std::optional<std::vector<Node*>> foldableUsers(Value* dict) {
    Node* maker = dict->node();
    const auto* block = maker->owningBlock();
    std::vector<Node*> users;
    bool returned = false;
    for (const auto& use : dict->uses()) {
        Node* user = use.user;
        if (user->owningBlock() != block && user != block->return_node())
            return std::nullopt;
        if (user == block->return_node()) {
            returned = true;
            continue;
        }
        const bool keyed = use.offset == 0 && user->inputs().size() >= 2 &&
                           constantKey(user->input(1)).has_value();
        if (!keyed || (user->kind() != kSetItem && user->kind() != c10::aten::__getitem__))
            return std::nullopt;
        if (std::find(users.begin(), users.end(), user) == users.end())
            users.push_back(user);
    }
    std::sort(users.begin(), users.end(),
              [](const Node* a, const Node* b) { return a->isBefore(b); });
    // Reads of keys not written yet raise KeyError in the model: leave them.
    Entries written;
    bool wrote = false;
    for (Node* user : users) {
        const std::string key = *constantKey(user->input(1));
        if (user->kind() == kSetItem) {
            wrote = true;
            written.emplace_back(key, user->input(2));
        } else if (!lookup(written, key)) {
            return std::nullopt;
        }
    }
    (void)returned;
    if (!wrote)
        return std::nullopt;
    return users;
}
} // namespace

void foldDictWrites(PassContext& ctx) {
    std::vector<Node*> makers = nodesOfKind(ctx.graph->block(), kDict);
    for (Node* n : nodesOfKind(ctx.graph->block(), c10::prim::DictConstruct))
        makers.push_back(n);
    for (Node* maker : makers) {
        if (!maker->inputs().empty() || maker->outputs().size() != 1)
            continue;
        Value* dict = maker->output();
        auto users = foldableUsers(dict);
        if (!users)
            continue;
        if (!ctx.rewrite("dicts_rebuilt"))
            return;
        Entries entries;
        std::vector<Node*> done;
        for (Node* user : *users) {
            const std::string key = *constantKey(user->input(1));
            if (user->kind() == kSetItem) {
                auto it = std::find_if(entries.begin(), entries.end(),
                                       [&](const auto& e) { return e.first == key; });
                if (it != entries.end())
                    it->second = user->input(2); // Python keeps the first position
                else
                    entries.emplace_back(key, user->input(2));
                ctx.count("dict_writes_folded");
            } else {
                user->output()->replaceAllUsesWith(lookup(entries, key));
            }
            done.push_back(user);
        }
        for (auto it = done.rbegin(); it != done.rend(); ++it)
            (*it)->destroy();
        if (dict->hasUses()) { // returned: one construct of the final entries
            Node* ret = maker->owningBlock()->return_node();
            torch::jit::WithInsertPoint guard(ret);
            std::vector<Value*> items;
            for (const auto& [key, value] : entries) {
                items.push_back(ctx.graph->insertConstant(key));
                items.push_back(value);
            }
            Node* construct = ctx.graph->create(c10::prim::DictConstruct, items);
            construct->output()->setType(dict->type());
            copyOrigin(construct, maker);
            construct->insertBefore(ret);
            dict->replaceAllUsesWith(construct->output());
        }
        maker->destroy();
    }
}

} // namespace t2n::harden
