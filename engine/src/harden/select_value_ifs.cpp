#include "harden/select_value_ifs.h"

#include "harden/graph_utils.h"

#include <fmt/format.h>
#include <torch/csrc/jit/ir/ir.h>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
constexpr size_t kMaxBranchNodes = 16; // a choice, not a computation worth guarding

bool pureAndSmall(const torch::jit::Block* b) {
    size_t count = 0;
    for (const Node* m : b->nodes()) {
        if (++count > kMaxBranchNodes || !m->blocks().empty() || m->hasSideEffects())
            return false;
        if (const auto* schema = m->maybeSchema(); schema && schema->is_mutable())
            return false;
    }
    return true;
}

bool isFloat(const Value* v) {
    return v->type()->kind() == c10::TypeKind::FloatType;
}

// The tensor whose truth the if tests: aten::Bool(t) (`bool(p > best)`), or
// aten::is_nonzero(t).
Value* conditionTensor(const Node* n) {
    const Node* c = n->input(0)->node();
    static const auto isNonzero = c10::Symbol::fromQualString("aten::is_nonzero");
    if ((c->kind() != c10::aten::Bool && c->kind() != isNonzero) || c->inputs().size() != 1 ||
        c->input(0)->type()->kind() != c10::TypeKind::TensorType)
        return nullptr;
    return c->input(0);
}

bool selectable(const Node* n) {
    if (n->kind() != c10::prim::If || !conditionTensor(n) || n->outputs().empty())
        return false;
    for (const Value* o : n->outputs())
        if (!isFloat(o))
            return false;
    return pureAndSmall(n->blocks()[0]) && pureAndSmall(n->blocks()[1]);
}
} // namespace

void selectValueIfs(PassContext& ctx) {
    std::vector<Node*> ifs;
    for (Node* n : ctx.graph->block()->nodes())
        if (selectable(n))
            ifs.push_back(n);
    for (Node* n : ifs) {
        if (!ctx.rewrite("ifs_selected"))
            return;
        ctx.remark(n, fmt::format("If at {}: both branches computed, its {} result(s) chosen by "
                                  "where() on {} (the condition reads tensor data)",
                                  where(n).empty() ? "?" : where(n), n->outputs().size(),
                                  describe(n->input(0)->node())));
        Value* cond = conditionTensor(n);
        auto* thenBlock = n->blocks()[0];
        auto* elseBlock = n->blocks()[1];
        for (auto* b : {thenBlock, elseBlock})
            for (auto it = b->nodes().begin(); it != b->nodes().end();) {
                Node* m = *it++;
                m->moveBefore(n);
            }
        torch::jit::WithInsertPoint guard(n);
        for (size_t i = 0; i < n->outputs().size(); ++i) {
            Value* out = n->outputs()[i];
            Value* chosen = ctx.graph->insert(
                c10::aten::where, {cond, thenBlock->outputs()[i], elseBlock->outputs()[i]});
            Value* number = ctx.graph->insert(c10::aten::FloatImplicit, {chosen});
            copyOrigin(chosen->node(), n);
            copyOrigin(number->node(), n);
            out->replaceAllUsesWith(number);
        }
        n->destroy();
    }
}

} // namespace t2n::harden
