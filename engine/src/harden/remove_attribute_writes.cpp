#include "harden/remove_attribute_writes.h"

#include "harden/graph_utils.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace t2n::harden {

namespace {

using torch::jit::Block;
using torch::jit::Node;
using torch::jit::Value;

bool isSelf(const Value* v) {
    return v->node()->kind() == c10::prim::Param && !v->node()->owningBlock()->owningNode() &&
           v->offset() == 0;
}

// "running" or "norm.running": the attribute `name` of `owner`, a chain of
// attribute reads from self; "" when the owner is something else.
std::string attributePath(const Value* owner, const std::string& name) {
    if (isSelf(owner))
        return name;
    if (owner->node()->kind() != c10::prim::GetAttr)
        return {};
    const std::string path = receiverPath(owner->node());
    return path.empty() ? std::string() : path + "." + name;
}

// " at model.py:8": the node's line, or (an assignment has none of its own)
// the line of the value it assigns.
// The pass repeats with the folding group: each warning is given once.
void warnOnce(PassContext& ctx, std::string text) {
    if (std::find(ctx.warnings.begin(), ctx.warnings.end(), text) == ctx.warnings.end())
        ctx.warnings.push_back(std::move(text));
}

std::string at(const Node* n) {
    std::string w = where(n);
    if (w.empty() && n->kind() == c10::prim::SetAttr)
        w = where(n->input(1)->node());
    return w.empty() ? std::string() : " at " + w;
}

struct Walk {
    PassContext& ctx;
    Block* top;
    std::set<std::string> nested;        // assigned inside a branch or loop: left alone
    std::map<std::string, Value*> value; // the value an attribute was assigned
    std::set<std::string> readSaved;     // read before any assignment: the saved value is used
    std::set<std::string> warned;
    bool stopped = false;

    // Nodes in the order they run: a branch's nodes before the next node.
    void block(Block* b) {
        std::vector<Node*> nodes(b->nodes().begin(), b->nodes().end());
        for (Node* n : nodes) {
            if (stopped)
                return;
            visit(n);
        }
    }

    void visit(Node* n) {
        if (n->kind() == c10::prim::GetAttr) {
            const std::string path = attributePath(n->input(), n->s(c10::attr::name));
            auto it = value.find(path);
            if (path.empty())
                return;
            if (it == value.end()) {
                readSaved.insert(path);
                return;
            }
            if (!ctx.rewrite("attribute_reads_forwarded")) {
                stopped = true;
                return;
            }
            n->output()->replaceAllUsesWith(it->second);
            n->destroy();
            return;
        }
        if (n->kind() == c10::prim::SetAttr) {
            const std::string path = attributePath(n->input(0), n->s(c10::attr::name));
            if (path.empty() || n->owningBlock() != top || nested.count(path)) {
                ctx.remark(n, fmt::format("missed: {}: an assignment t2n cannot follow (inside a "
                                          "branch or loop, or of an object it cannot name)",
                                          describe(n)));
                return;
            }
            if (!ctx.rewrite("attribute_writes_removed")) {
                stopped = true;
                return;
            }
            if (!readSaved.count(path)) {
                // Assigned before anything reads it: every call computes it
                // afresh, nothing is carried between calls.
                ctx.remark(n, fmt::format("'{}' is assigned before any read: a value passed "
                                          "between methods, no state is lost",
                                          path));
            } else if (warned.insert(path).second)
                warnOnce(
                    ctx,
                    fmt::format("forward() assigns module attribute '{}'{}: an NNEF graph keeps no "
                                "state, so "
                                "the archive computes every call from the attribute's saved value "
                                "(the reads "
                                "after the assignment use the assigned value) and drops the update",
                                path, at(n)));
            value[path] = n->input(1);
            n->destroy();
            return;
        }
        if (isInPlace(n) && n->inputs().size() > 0 && writesInput(n, 0)) {
            // The tensor written: through the in-place ops that return it.
            const Value* v = n->input(0);
            while (isInPlace(v->node()) && v->node()->inputs().size() > 0)
                v = v->node()->input(0);
            const std::string path =
                v->node()->kind() == c10::prim::GetAttr ? receiverPath(v->node()) : std::string();
            if (!path.empty() && warned.insert(path).second)
                warnOnce(
                    ctx,
                    fmt::format(
                        "forward() writes into module attribute '{}' in place ({}{}): t2n does not "
                        "follow writes into module state, so the archive holds '{}' as the "
                        "export's "
                        "own runs of forward() left it and never updates it (assign it instead, "
                        "self.{} = ..., to compute every call from its saved value)",
                        path, n->kind().toQualString(), at(n), path, path));
        }
        for (Block* b : n->blocks())
            block(b);
    }
};

} // namespace

void removeAttributeWrites(PassContext& ctx) {
    Walk walk{ctx, ctx.graph->block(), {}, {}, {}, {}, false};
    for (Node* n : nodesOfKind(ctx.graph->block(), c10::prim::SetAttr))
        if (n->owningBlock() != walk.top)
            walk.nested.insert(attributePath(n->input(0), n->s(c10::attr::name)));
    walk.block(walk.top);
}

} // namespace t2n::harden
