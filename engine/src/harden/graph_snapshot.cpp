// The TorchScript graph as the torch-free GraphSnapshot the studio draws.
#include "harden/graph_utils.h"
#include "harden/node_identity.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
// The node's own line without its blocks or the trailing "# file.py:3" comment.
std::string oneLine(const Node* n) {
    std::ostringstream os;
    n->print(os, 0, nullptr, /*print_source_locations=*/false, /*print_attributes=*/true,
             /*print_scopes=*/false, /*print_body=*/false);
    std::string s = os.str();
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    auto start = s.find_first_not_of(' ');
    return start == std::string::npos ? std::string() : s.substr(start);
}

std::string typeText(const Value* v) {
    std::ostringstream os;
    os << *v->type();
    return os.str();
}

class Builder {
public:
    Builder(const torch::jit::Graph& g, const NodeIdentity& identity) : g_(g), ids_(identity) {}

    GraphSnapshot build() {
        for (const Value* v : g_.inputs())
            snap_.inputs.push_back(v->debugName());
        // TorchScript prints "graph(" with one input per line, then one line
        // per node; a node's blocks follow it, each as a "blockN(...):" line,
        // its nodes, and a "-> (...)" line (string constants are escaped).
        line_ = 1 + std::max<int>(1, static_cast<int>(g_.inputs().size()));
        addBlock(g_.block(), -1, -1);
        for (const Value* v : g_.outputs()) {
            snap_.outputs.push_back(v->debugName());
            snap_.edges.push_back({producer(v), kGraphOutput, v->debugName()});
        }
        return std::move(snap_);
    }

private:
    StableId producer(const Value* v) const {
        const Node* p = v->node();
        if (p->kind() != c10::prim::Param)
            return ids_.idOf(p);
        const Node* owner = p->owningBlock()->owningNode();
        return owner ? ids_.idOf(owner) : kGraphInput;
    }

    void addBlock(const torch::jit::Block* block, StableId parent, int index) {
        for (const Node* n : block->nodes()) {
            SnapshotNode s;
            s.id = ids_.idOf(n);
            s.kind = n->kind().toQualString();
            s.text = oneLine(n);
            for (const Value* v : n->inputs()) {
                s.inputs.push_back(v->debugName());
                snap_.edges.push_back({producer(v), s.id, v->debugName()});
            }
            for (const Value* v : n->outputs()) {
                s.outputs.push_back(v->debugName());
                s.outputTypes.push_back(typeText(v));
            }
            s.modulePath = receiverPath(n);
            if (s.modulePath.empty())
                s.modulePath = callPath(n);
            s.source = where(n);
            s.parent = parent;
            s.block = index;
            s.line = line_++;
            snap_.nodes.push_back(std::move(s));
            StableId id = snap_.nodes.back().id;
            for (size_t b = 0; b < n->blocks().size(); ++b) {
                const auto* inner = n->blocks()[b];
                ++line_; // blockN(...):
                addBlock(inner, id, static_cast<int>(b));
                ++line_; // -> (...)
                // Block results flow back to the enclosing node.
                for (const Value* v : inner->outputs())
                    snap_.edges.push_back({producer(v), id, v->debugName()});
            }
        }
    }

    const torch::jit::Graph& g_;
    const NodeIdentity& ids_;
    GraphSnapshot snap_;
    int line_ = 1;
};
} // namespace

GraphSnapshot snapshotOf(const torch::jit::Graph& graph, const NodeIdentity& identity) {
    return Builder(graph, identity).build();
}

} // namespace t2n::harden
