#include "harden/fold_list_indexing.h"

#include "harden/graph_utils.h"
#include "jit/graph_runner.h"

#include <fmt/format.h>

#include <algorithm>

#include <unordered_set>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
// Ops whose result is a list of tensors with a count known from shapes:
// split pieces, meshgrid and broadcast_tensors results (RAFT reverses its
// meshgrid with coords[::-1]).
bool splitsTensor(const Node* n) {
    static const std::unordered_set<c10::Symbol> kinds = [] {
        std::unordered_set<c10::Symbol> s;
        for (const char* k :
             {"aten::unbind", "aten::split", "aten::split_with_sizes", "aten::chunk",
              "aten::unsafe_chunk", "aten::unsafe_split", "aten::unsafe_split_with_sizes",
              "aten::tensor_split", "aten::meshgrid", "aten::broadcast_tensors"})
            s.insert(c10::Symbol::fromQualString(k));
        return s;
    }();
    return kinds.count(n->kind()) > 0 && n->outputs().size() == 1 &&
           n->output()->type()->kind() == c10::TypeKind::ListType;
}

bool isListSlice(const Node* n) {
    return n->kind() == c10::aten::slice && n->inputs().size() == 4 &&
           n->input(0)->type()->kind() == c10::TypeKind::ListType;
}

// list(L): a copy (`return list(x.split(2, 1))`), a new construct of the
// same elements.
bool isListCopy(const Node* n) {
    return n->kind() == c10::aten::list && n->inputs().size() == 1 &&
           n->input(0)->type()->kind() == c10::TypeKind::ListType;
}

// A read this pass folds once the elements are known.
bool foldableRead(const torch::jit::Use& use) {
    const Node* n = use.user;
    if (use.offset != 0)
        return false;
    if (n->kind() == c10::aten::__getitem__)
        return constantValue(n->input(1)).has_value();
    if (n->kind() == c10::aten::len || isListCopy(n))
        return true;
    if (isListSlice(n)) {
        for (size_t i = 1; i < 4; ++i)
            if (!constantValue(n->input(i)))
                return false;
        return true;
    }
    return n->kind() == c10::prim::ListUnpack &&
           n->input(0)->node()->kind() == c10::prim::ListConstruct;
}

bool hasFoldableRead(const Value* list) {
    for (const auto& use : list->uses())
        if (foldableRead(use))
            return true;
    return false;
}

// The graph returns the list, directly or inside a returned tuple or list
// (`return torch.chunk(x, 2, 1)`, `return list(x.split(2, 1)), y`). NNEF
// outputs are tensors: the IR flattens constructs of tensors into one output
// each (ir_builder.cpp), so the return should read a construct of the pieces.
bool returnedRead(const torch::jit::Use& use) {
    const Node* n = use.user;
    if (n == n->owningGraph()->return_node())
        return true;
    if (n->kind() != c10::prim::TupleConstruct && n->kind() != c10::prim::ListConstruct)
        return false;
    const auto& uses = n->output()->uses();
    return !uses.empty() && std::all_of(uses.begin(), uses.end(), returnedRead);
}

bool hasReturnedRead(const Value* list) {
    const auto& uses = list->uses();
    return std::any_of(uses.begin(), uses.end(), returnedRead);
}

// isOnlyRead, where a returned tuple or list holding the list (which keeps
// it, by its schema-less alias) counts as a read: nothing runs after it.
bool onlyReadOrReturned(const Value* list) {
    for (const auto& use : list->uses())
        if (!returnedRead(use) &&
            (writesInput(use.user, use.offset) || keepsInput(use.user, use.offset)))
            return false;
    return true;
}

Node* existingUnpack(const Value* list) {
    for (const auto& use : list->uses())
        if (use.user->kind() == c10::prim::ListUnpack)
            return use.user;
    return nullptr;
}

// Python's list slicing (slice.indices), with None for missing bounds; a
// negative step walks backwards (RAFT's coords[::-1]).
std::vector<Value*> sliced(const std::vector<Value*>& items, const c10::IValue& start,
                           const c10::IValue& end, int64_t step) {
    const auto n = static_cast<int64_t>(items.size());
    const int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? n : n - 1;
    auto bound = [&](const c10::IValue& v, int64_t fallback) {
        if (v.isNone())
            return fallback;
        int64_t i = v.toInt();
        return std::clamp<int64_t>(i < 0 ? i + n : i, lo, hi);
    };
    std::vector<Value*> out;
    const int64_t first = bound(start, step > 0 ? 0 : n - 1);
    const int64_t last = bound(end, step > 0 ? n : -1);
    for (int64_t i = first; step > 0 ? i < last : i > last; i += step)
        out.push_back(items[static_cast<size_t>(i)]);
    return out;
}

// A construct of `items` typed `like`'s list, inserted before `before` with
// `origin`'s source position.
Value* insertListConstruct(PassContext& ctx, const std::vector<Value*>& items, const Value* like,
                           Node* origin, Node* before) {
    Node* c = ctx.graph->create(c10::prim::ListConstruct, items);
    c->output()->setType(like->type());
    copyOrigin(c, origin);
    c->insertBefore(before);
    return c->output();
}

// `r`'s list result becomes a construct of `items`, counted under `counter`;
// false once the rewrite limit is reached.
bool replaceWithListConstruct(PassContext& ctx, Node* r, const std::vector<Value*>& items,
                              const char* counter) {
    if (!ctx.rewrite(counter))
        return false;
    r->output()->replaceAllUsesWith(insertListConstruct(ctx, items, r->output(), r, r));
    r->destroy();
    return true;
}

class Folder {
public:
    explicit Folder(PassContext& ctx) : ctx_(ctx) {}

    // Folds the reads of `list`, whose elements are `items`; false once the
    // rewrite limit is reached.
    bool fold(Value* list, const std::vector<Value*>& items) {
        std::vector<Node*> readers;
        for (const auto& use : list->uses())
            if (foldableRead(use))
                readers.push_back(use.user);
        const auto n = static_cast<int64_t>(items.size());
        for (Node* r : readers) {
            if (r->kind() == c10::aten::__getitem__) {
                int64_t k = constantValue(r->input(1))->toInt();
                k = k < 0 ? k + n : k;
                if (k < 0 || k >= n)
                    continue; // raises at run time: keep it
                if (!ctx_.rewrite("items_folded"))
                    return false;
                r->output()->replaceAllUsesWith(items[static_cast<size_t>(k)]);
                r->destroy();
            } else if (r->kind() == c10::aten::len) {
                if (!ctx_.rewrite("lengths_folded"))
                    return false;
                replaceWithConstant(r, c10::IValue(n));
            } else if (isListSlice(r)) {
                int64_t step = constantValue(r->input(3))->toInt();
                if (step == 0)
                    continue; // raises at run time: keep it
                if (!replaceWithListConstruct(ctx_, r,
                                              sliced(items, *constantValue(r->input(1)),
                                                     *constantValue(r->input(2)), step),
                                              "slices_folded"))
                    return false;
            } else if (isListCopy(r)) {
                if (!replaceWithListConstruct(ctx_, r, items, "copies_folded"))
                    return false;
            } else if (r->outputs().size() == items.size()) { // prim::ListUnpack
                if (!ctx_.rewrite("items_folded"))
                    return false;
                for (size_t i = 0; i < items.size(); ++i)
                    r->outputs()[i]->replaceAllUsesWith(items[i]);
                r->destroy();
            }
        }
        return true;
    }

    // The returned reads of `list` (see returnedRead) read a construct of
    // `items` instead; false once the rewrite limit is reached.
    bool constructReturned(Value* list, const std::vector<Value*>& items) {
        std::vector<torch::jit::Use> returned;
        for (const auto& use : list->uses())
            if (returnedRead(use))
                returned.push_back(use);
        for (const auto& use : returned) {
            if (!ctx_.rewrite("returns_constructed"))
                return false;
            use.user->replaceInput(use.offset,
                                   insertListConstruct(ctx_, items, list, list->node(), use.user));
        }
        return true;
    }

    // One prim::ListUnpack of `n` pieces right after the op that splits.
    std::vector<Value*> unpack(Value* list, size_t n) {
        Node* u = ctx_.graph->createListUnpack(list, n);
        copyOrigin(u, list->node());
        u->insertAfter(list->node());
        ctx_.count("lists_unpacked");
        return {u->outputs().begin(), u->outputs().end()};
    }

private:
    PassContext& ctx_;
};
} // namespace

namespace {
// `a + b` of two lists whose elements are known (RemoveTensorMutation makes
// Tacotron2's first `gate_outputs += [g]` one): a construct of both.
bool foldConcatenations(PassContext& ctx) {
    auto known = [](const Value* v) {
        return v->type()->kind() == c10::TypeKind::ListType &&
               v->node()->kind() == c10::prim::ListConstruct && isOnlyRead(v);
    };
    for (Node* n : nodesOfKind(ctx.graph->block(), c10::aten::add)) {
        if (n->inputs().size() != 2 || !known(n->input(0)) || !known(n->input(1)))
            continue;
        std::vector<Value*> items(n->input(0)->node()->inputs().begin(),
                                  n->input(0)->node()->inputs().end());
        for (Value* v : n->input(1)->node()->inputs())
            items.push_back(v);
        if (!replaceWithListConstruct(ctx, n, items, "concatenations_folded"))
            return false;
    }
    return true;
}
} // namespace

bool foldListSlice(PassContext& ctx, Node* slice) {
    if (!isListSlice(slice) || slice->input(0)->node()->kind() != c10::prim::ListConstruct ||
        !isOnlyRead(slice->input(0)))
        return false;
    auto start = constantValue(slice->input(1)), end = constantValue(slice->input(2)),
         step = constantValue(slice->input(3));
    if (!start || !end || !step || !step->isInt() || step->toInt() == 0 ||
        !(start->isInt() || start->isNone()) || !(end->isInt() || end->isNone()))
        return false;
    const auto& in = slice->input(0)->node()->inputs();
    return replaceWithListConstruct(
        ctx, slice, sliced({in.begin(), in.end()}, *start, *end, step->toInt()), "slices_folded");
}

void foldListIndexing(PassContext& ctx) {
    if (!foldConcatenations(ctx))
        return;
    Folder folder(ctx);
    std::vector<Node*> toCount; // splits without an unpack: their counts come from a run
    for (Node* n : allNodes(ctx.graph->block())) {
        bool construct = n->kind() == c10::prim::ListConstruct;
        if (construct ? !isOnlyRead(n->output()) || !hasFoldableRead(n->output())
                      : !splitsTensor(n) || !onlyReadOrReturned(n->output()) ||
                            !(hasFoldableRead(n->output()) || hasReturnedRead(n->output())))
            continue;
        if (construct) {
            if (!folder.fold(n->output(), {n->inputs().begin(), n->inputs().end()}))
                return;
            continue;
        }
        if (Node* u = existingUnpack(n->output())) {
            std::vector<Value*> items(u->outputs().begin(), u->outputs().end());
            if (!folder.fold(n->output(), items) || !folder.constructReturned(n->output(), items))
                return;
            continue;
        }
        if (n->owningBlock() != ctx.graph->block()) {
            ctx.remark(n, fmt::format("missed: {}: its pieces are counted on a run, which sees "
                                      "only values outside loops and branches",
                                      describe(n)));
            continue;
        }
        toCount.push_back(n);
    }
    if (toCount.empty() || !ctx.canRun("lists split from tensors"))
        return;
    std::vector<const Value*> wanted;
    for (const Node* n : toCount)
        wanted.push_back(n->output());
    Recorded rec = runAndRecord(ctx, wanted);
    for (Node* n : toCount) {
        auto it = rec.find(n->output());
        if (it == rec.end() || !it->second.isList())
            continue;
        if (!ctx.allowRewrite())
            return;
        auto items = folder.unpack(n->output(), it->second.toListRef().size());
        if (!folder.fold(n->output(), items) || !folder.constructReturned(n->output(), items))
            return;
    }
}

} // namespace t2n::harden
