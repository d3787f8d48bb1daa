#include "harden/node_identity.h"

#include "harden/graph_utils.h"

#include <fmt/format.h>

#include <deque>
#include <limits>
#include <map>
#include <set>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
size_t firstOutputUnique(const Node* n) {
    return n->outputs().empty() ? std::numeric_limits<size_t>::max() : n->outputs()[0]->unique();
}

// What a node is, independent of where it lives in memory: enough to find
// it again in freeze_module's clone of the graph.
std::string matchKey(const Node* n, bool withNames) {
    std::string key = n->kind().toQualString();
    auto range = n->sourceRange();
    if (auto flc = range.file_line_col())
        key += fmt::format("|{}:{}:{}", std::get<0>(*flc), std::get<1>(*flc), std::get<2>(*flc));
    auto scope = const_cast<Node*>(n)->scope(); // Node::scope() has no const overload
    key += fmt::format("|{}-{}|{}|{}", range.start(), range.end(), callPath(n),
                       scope ? scope->namesFromRoot() : std::string());
    if (withNames)
        for (const Value* v : n->outputs()) {
            key += '|';
            key.append(v->debugName());
        }
    return key;
}

int blockIndex(const Node* parent, const torch::jit::Block* b) {
    for (size_t i = 0; i < parent->blocks().size(); ++i)
        if (parent->blocks()[i] == b)
            return static_cast<int>(i);
    return -1;
}
} // namespace

void NodeIdentity::start(const torch::jit::Graph& graph) {
    ids_.clear();
    slot_.clear();
    entries_.clear();
    graph_ = nullptr;
    update(graph);
}

std::vector<NodeIdentity::Entry> NodeIdentity::assign(const torch::jit::Graph& graph,
                                                      bool replaced) {
    auto nodes = allNodes(const_cast<torch::jit::Graph&>(graph).block());
    std::vector<Entry> out(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        const Node* n = nodes[i];
        Entry& e = out[i];
        e.kind = n->kind();
        e.firstOutput = firstOutputUnique(n);
        e.matchKey = matchKey(n, true);
        e.looseKey = matchKey(n, false);
        if (replaced)
            continue;
        auto it = slot_.find(n);
        if (it != slot_.end()) {
            const Entry& old = entries_[it->second];
            if (old.kind == e.kind && old.firstOutput == e.firstOutput)
                e.id = old.id;
        }
    }
    if (replaced) {
        // A replaced graph: match by what the nodes are, in graph order; exact
        // keys (output names included) first, then without the names, which
        // inlining may have changed.
        std::set<StableId> taken;
        auto match = [&](std::string Entry::*key) {
            std::map<std::string, std::deque<StableId>> queues;
            for (const auto& old : entries_)
                if (!taken.count(old.id))
                    queues[old.*key].push_back(old.id);
            for (auto& e : out) {
                if (e.id >= 0)
                    continue;
                auto it = queues.find(e.*key);
                if (it == queues.end() || it->second.empty())
                    continue;
                e.id = it->second.front();
                it->second.pop_front();
                taken.insert(e.id);
            }
        };
        match(&Entry::matchKey);
        match(&Entry::looseKey);
    }
    for (auto& e : out)
        if (e.id < 0)
            e.id = next_++;
    describeInputs(out, nodes);
    return out;
}

void NodeIdentity::describeInputs(std::vector<Entry>& entries, const std::vector<Node*>& nodes) {
    std::unordered_map<const Node*, StableId> ids;
    for (size_t i = 0; i < nodes.size(); ++i)
        ids[nodes[i]] = entries[i].id;
    auto source = [&](const Value* v) -> std::string {
        const Node* p = v->node();
        if (p->kind() != c10::prim::Param)
            return fmt::format("n{}.{}", ids.at(p), v->offset());
        const auto* owner = p->owningBlock()->owningNode();
        if (!owner)
            return "in:" + v->debugName();
        return fmt::format("b{}.{}.{}", ids.at(owner), blockIndex(owner, p->owningBlock()),
                           v->offset());
    };
    for (size_t i = 0; i < nodes.size(); ++i) {
        const Node* n = nodes[i];
        Entry& e = entries[i];
        for (const Value* v : n->inputs())
            e.inputs.push_back(source(v));
        if (const Node* owner = n->owningBlock()->owningNode()) {
            e.parent = ids.at(owner);
            e.block = blockIndex(owner, n->owningBlock());
        }
    }
}

std::vector<NodeEvent> NodeIdentity::update(const torch::jit::Graph& graph) {
    bool replaced = graph_ != nullptr && graph_ != &graph;
    bool first = graph_ == nullptr;
    auto fresh = assign(graph, replaced);
    std::vector<NodeEvent> events;
    if (!first) {
        std::unordered_map<StableId, const Entry*> now;
        for (const auto& e : fresh)
            now[e.id] = &e;
        std::set<StableId> before;
        for (const auto& old : entries_) {
            before.insert(old.id);
            auto it = now.find(old.id);
            if (it == now.end())
                events.push_back({old.id, NodeEventKind::Removed, {}});
            else if (it->second->inputs != old.inputs || it->second->parent != old.parent ||
                     it->second->block != old.block)
                events.push_back({old.id, NodeEventKind::Rewired, {}});
        }
        for (const auto& e : fresh)
            if (!before.count(e.id))
                events.push_back({e.id, NodeEventKind::Added, {}});
    }
    auto nodes = allNodes(const_cast<torch::jit::Graph&>(graph).block());
    ids_.clear();
    slot_.clear();
    for (size_t i = 0; i < nodes.size(); ++i) {
        ids_[nodes[i]] = fresh[i].id;
        slot_[nodes[i]] = i;
    }
    entries_ = std::move(fresh);
    graph_ = &graph;
    return events;
}

StableId NodeIdentity::idOf(const Node* node) const {
    auto it = ids_.find(node);
    if (it == ids_.end())
        return -1;
    // A pointer reused by a node made after the last update is not that node.
    const Entry& e = entries_[slot_.at(node)];
    return e.kind == node->kind() && e.firstOutput == firstOutputUnique(node) ? it->second : -1;
}

} // namespace t2n::harden
