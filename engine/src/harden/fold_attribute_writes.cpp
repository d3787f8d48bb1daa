#include "harden/fold_attribute_writes.h"

#include "harden/graph_utils.h"

#include <fmt/format.h>

#include <map>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {

// "corr_block.corr_pyramid": the attribute path from `self` that a
// prim::SetAttr writes; "" when its receiver is not reached from `self`.
std::string writtenPath(const Node* set) {
    const Value* owner = set->input(0);
    const std::string& name = set->s(c10::attr::name);
    const Node* def = owner->node();
    const bool self = def->kind() == c10::prim::Param && !def->owningBlock()->owningNode() &&
                      owner->offset() == 0;
    if (self)
        return name;
    if (def->kind() != c10::prim::GetAttr)
        return {};
    const std::string prefix = receiverPath(def);
    return prefix.empty() ? std::string() : prefix + "." + name;
}

// The node of the top-level block that contains `n` (n itself when it is
// there): program order between a top-level write and a nested read.
const Node* topLevel(const Node* n) {
    while (n->owningBlock()->owningNode())
        n = n->owningBlock()->owningNode();
    return n;
}

} // namespace

void foldAttributeWrites(PassContext& ctx) {
    torch::jit::Block* top = ctx.graph->block();
    std::map<std::string, std::vector<Node*>> writes;
    for (Node* set : nodesOfKind(top, c10::prim::SetAttr)) {
        const std::string path = writtenPath(set);
        if (!path.empty())
            writes[path].push_back(set);
    }
    for (auto& [path, sets] : writes) {
        Node* set = sets.front();
        if (sets.size() > 1) {
            ctx.remark(set, fmt::format("missed: '{}' is written {} times", path, sets.size()));
            continue;
        }
        if (set->owningBlock() != top) {
            ctx.remark(set, fmt::format("missed: '{}' is written inside a loop or an if", path));
            continue;
        }
        std::vector<Node*> reads;
        for (Node* get : nodesOfKind(top, c10::prim::GetAttr))
            if (receiverPath(get) == path && topLevel(get)->isAfter(set))
                reads.push_back(get);
        if (!ctx.rewrite("writes_folded"))
            return;
        Value* value = set->input(1);
        for (Node* get : reads) {
            get->output()->replaceAllUsesWith(value);
            get->destroy();
        }
        ctx.count("reads_forwarded", static_cast<int64_t>(reads.size()));
        ctx.remark(set, fmt::format("'{}' written once: {} read(s) after it take the written "
                                    "value; the write is dropped",
                                    path, reads.size()));
        set->destroy();
    }
}

} // namespace t2n::harden
