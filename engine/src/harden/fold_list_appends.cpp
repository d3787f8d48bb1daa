#include "harden/fold_list_appends.h"

#include "harden/fold_list_indexing.h"
#include "harden/graph_utils.h"

#include <algorithm>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
// What a write that grows the list `list` adds at the end: append(l, x) adds
// x; `l += [a, b]` (aten::add_ of lists) and l.extend([a, b]) add the
// elements of a list construct nobody else writes. Nothing for other writes.
std::optional<std::vector<Value*>> added(Node* n, const Value* list) {
    if (n->inputs().size() != 2 || n->input(0) != list || n->input(1) == list)
        return std::nullopt;
    if (n->kind() == c10::aten::append)
        return std::vector<Value*>{n->input(1)};
    static const c10::Symbol extend = c10::Symbol::fromQualString("aten::extend");
    if (n->kind() != c10::aten::add_ && n->kind() != extend)
        return std::nullopt;
    Node* more = n->input(1)->node();
    if (more->kind() != c10::prim::ListConstruct || !isOnlyRead(n->input(1)))
        return std::nullopt;
    return std::vector<Value*>(more->inputs().begin(), more->inputs().end());
}

// The list and the results of the writes that grow it (`l += [x]` returns
// the same list, which an unrolled loop carries to the next write), and all
// their users in block order, when they allow the rewrite: all in the list's
// block (its return included), growing writes the only writes, at least one,
// and no alias kept (`masks = [rc_mask, q_mask]` before rc_mask.append(...)).
struct Family {
    std::vector<Value*> names; // the list, then each growing write's result
    std::vector<Node*> users;
};

std::optional<Family> foldable(Value* list) {
    const auto* block = list->node()->owningBlock();
    Family f{{list}, {}};
    bool grown = false;
    for (size_t k = 0; k < f.names.size(); ++k) {
        for (const auto& use : f.names[k]->uses()) {
            Node* user = use.user;
            if (user->owningBlock() != block)
                return std::nullopt;
            if (use.offset == 0 && added(user, f.names[k])) {
                grown = true;
                f.names.push_back(user->output());
            } else if (writesInput(user, use.offset) || keepsInput(user, use.offset)) {
                return std::nullopt; // another write, or an alias that sees the growth
            }
            if (std::find(f.users.begin(), f.users.end(), user) == f.users.end())
                f.users.push_back(user);
        }
    }
    if (!grown)
        return std::nullopt;
    std::sort(f.users.begin(), f.users.end(),
              [](const Node* a, const Node* b) { return a->isBefore(b); });
    return f;
}
} // namespace

namespace {
// Whether a write grows `list` (its result is appended to, extended ...).
bool grown(const Value* list) {
    return std::any_of(list->uses().begin(), list->uses().end(), [&](const torch::jit::Use& u) {
        return u.offset == 0 && added(u.user, list).has_value();
    });
}

/// Rebuilds every foldable family of the block once; false when nothing
/// changed or the rewrite limit is reached.
bool rebuildFamilies(PassContext& ctx);
} // namespace

// A sliding window (`buf = buf[1:]; buf.append(x)` in an unrolled loop) grows
// the slice of the list the previous append rebuilt: that slice becomes a
// construct here (fold_list_indexing's rule), and the rebuilding repeats, so
// one pass settles the whole chain instead of one iteration per round of the
// folding group (which stopped kws_crnn's 51 iterations after 8).
void foldListAppends(PassContext& ctx) {
    for (bool progress = true; progress;) {
        progress = rebuildFamilies(ctx);
        for (Node* n : nodesOfKind(ctx.graph->block(), c10::aten::slice))
            if (grown(n->output()) && foldListSlice(ctx, n))
                progress = true;
    }
}

namespace {
bool rebuildFamilies(PassContext& ctx) {
    bool changed = false;
    for (Node* construct : nodesOfKind(ctx.graph->block(), c10::prim::ListConstruct)) {
        Value* list = construct->output();
        auto family = foldable(list);
        if (!family)
            continue;
        if (!ctx.rewrite("lists_rebuilt"))
            return false;
        changed = true;
        const auto& names = family->names;
        auto isName = [&](const Value* v) {
            return std::find(names.begin(), names.end(), v) != names.end();
        };
        std::vector<Value*> elements(construct->inputs().begin(), construct->inputs().end());
        std::vector<Node*> grows;
        Value* current = list;
        for (Node* user : family->users) {
            if (isName(user->input(0)) && added(user, user->input(0))) {
                auto more = *added(user, user->input(0));
                elements.insert(elements.end(), more.begin(), more.end());
                Node* next = ctx.graph->create(c10::prim::ListConstruct, elements);
                next->output()->setType(list->type());
                copyOrigin(next, user);
                next->insertBefore(user);
                current = next->output();
                grows.push_back(user);
                ctx.count("appends_folded");
                continue;
            }
            for (size_t i = 0; i < user->inputs().size(); ++i)
                if (isName(user->input(i)))
                    user->replaceInput(i, current);
        }
        // Every read now names a construct; the writes only feed each other.
        for (auto it = grows.rbegin(); it != grows.rend(); ++it)
            (*it)->destroy();
        if (!list->hasUses())
            construct->destroy();
    }
    return changed;
}
} // namespace

} // namespace t2n::harden
