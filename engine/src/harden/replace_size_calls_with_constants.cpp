#include "harden/replace_size_calls_with_constants.h"

#include "harden/graph_utils.h"
#include "jit/graph_runner.h"

#include <fmt/format.h>

#include <unordered_set>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
// Where a size value goes: only control flow, and at least once there.
struct Reach {
    bool control = false;
    const Node* tensorUse = nullptr; // first use that is not control flow
};

void follow(const Value* v, Reach& r, std::unordered_set<const Value*>& seen);

// A use of a value: control flow, more primitives to follow, or a blocker.
void followUse(const torch::jit::Use& use, Reach& r, std::unordered_set<const Value*>& seen) {
    const Node* user = use.user;
    const auto k = user->kind();
    if (k == c10::prim::If || k == c10::prim::RaiseException) {
        r.control = true;
        return;
    }
    if (k == c10::prim::Loop) {
        if (use.offset < 2) {
            r.control = true; // trip count or initial condition
            return;
        }
        // A carried value flows into the body and out of the loop.
        follow(user->outputs()[use.offset - 2], r, seen);
        follow(user->blocks()[0]->inputs()[use.offset - 1], r, seen);
        return;
    }
    if (k == c10::prim::Return) {
        const Node* owner = user->owningBlock()->owningNode();
        if (!owner) {
            r.tensorUse = r.tensorUse ? r.tensorUse : user; // a graph output
            return;
        }
        if (owner->kind() == c10::prim::If) {
            follow(owner->outputs()[use.offset], r, seen);
        } else if (use.offset == 0) {
            r.control = true; // the loop's continue condition
        } else {
            follow(owner->outputs()[use.offset - 1], r, seen);
            follow(user->owningBlock()->inputs()[use.offset], r, seen);
        }
        return;
    }
    for (const Value* out : user->outputs())
        if (!isPrimitive(out->type())) {
            r.tensorUse = r.tensorUse ? r.tensorUse : user;
            return;
        }
    for (const Value* out : user->outputs())
        follow(out, r, seen);
}

void follow(const Value* v, Reach& r, std::unordered_set<const Value*>& seen) {
    if (!seen.insert(v).second)
        return;
    for (const auto& use : v->uses())
        followUse(use, r, seen);
}

bool topLevel(const Value* v) {
    const auto* g = v->owningGraph();
    return v->node() == g->block()->param_node() || v->node()->owningBlock() == g->block();
}

// The size call's value from the recorded inputs.
std::optional<c10::IValue> evaluate(Node* n, const Recorded& rec) {
    torch::jit::Stack stack;
    for (const Value* in : n->inputs()) {
        if (auto c = constantValue(in)) {
            stack.push_back(*c);
            continue;
        }
        auto it = rec.find(in);
        if (it == rec.end())
            return std::nullopt;
        stack.push_back(it->second);
    }
    try {
        n->getOperation()(stack);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return stack.back();
}
} // namespace

void replaceSizeCallsWithConstants(PassContext& ctx) {
    std::vector<Node*> candidates;
    std::vector<const Value*> wanted;
    for (Node* n : allNodes(ctx.graph->block())) {
        if (!isSizeCall(n))
            continue;
        Reach reach;
        std::unordered_set<const Value*> seen;
        follow(n->output(), reach, seen);
        if (!reach.control)
            continue; // shape arithmetic for tensors, or dead: not ours
        if (n->kind() == c10::aten::len && isWritten(n->input(0))) {
            // A run records the list as it ends, not as it was at this call.
            ctx.remark(n, fmt::format("missed: {}: the list is written to, its length changes",
                                      describe(n)));
            continue;
        }
        if (reach.tensorUse) {
            ctx.remark(n, fmt::format("missed: {}: also flows into {}, so it stays dynamic",
                                      describe(n), reach.tensorUse->kind().toQualString()));
            continue;
        }
        bool known = true;
        for (const Value* in : n->inputs())
            if (!constantValue(in) && !topLevel(in))
                known = false;
        if (!known) {
            ctx.remark(
                n, fmt::format("missed: {}: its input is computed inside a block", describe(n)));
            continue;
        }
        candidates.push_back(n);
        for (const Value* in : n->inputs())
            wanted.push_back(in);
    }
    if (candidates.empty() || !ctx.canRun("size calls into control flow"))
        return;
    Recorded rec = runAndRecord(ctx, wanted);
    for (Node* n : candidates) {
        auto value = evaluate(n, rec);
        if (!value) {
            ctx.remark(n,
                       fmt::format("missed: {}: not evaluated on the example inputs", describe(n)));
            continue;
        }
        if (!ctx.allowRewrite())
            return;
        if (replaceWithConstant(n, *value))
            ctx.count("size_calls_replaced");
    }
}

} // namespace t2n::harden
