#include "harden/remove_view_mutation.h"

#include "harden/graph_utils.h"

#include <torch/csrc/jit/ir/alias_analysis.h>

#include <algorithm>
#include <fmt/format.h>

#include <memory>
#include <unordered_set>
#include <variant>

namespace t2n::harden {

using torch::jit::Graph;
using torch::jit::Node;
using torch::jit::Value;

namespace {
// The views a write can be put back through: slice, select, narrow (int start).
bool scatterableView(const Node* n) {
    auto k = n->kind();
    if (n->inputs().empty() || !isTensor(n->input(0)))
        return false;
    if (k == c10::aten::slice)
        return n->inputs().size() == 5;
    if (k == c10::aten::select)
        return n->inputs().size() == 3;
    if (k == c10::aten::narrow)
        return n->inputs().size() == 4 && n->input(2)->type()->kind() == c10::TypeKind::IntType;
    return false;
}

// Whether `v` may share memory with a tensor made before it: the result of a
// view (transpose, reshape, ...) or of an in-place op, per the schema; or of a
// prim op such as prim::ListUnpack (unbind's pieces are views).
bool mayBeView(const Value* v) {
    const Node* n = v->node();
    if (n->kind() == c10::prim::Param || n->kind() == c10::prim::Constant)
        return false;
    const auto* schema = n->maybeSchema();
    if (!schema)
        return true;
    const auto& returns = schema->returns();
    return v->offset() >= returns.size() || returns[v->offset()].alias_info() != nullptr;
}

struct Write {
    Node* node = nullptr;
    std::vector<Node*> chain; // views from the written one up to the root's
    Value* root = nullptr;
};

// The view chain of a write, or why it is not one this pass rewrites.
std::variant<Write, std::string> analyse(Node* w) {
    Write out;
    out.node = w;
    Value* v = w->input(0);
    while (scatterableView(v->node()) && v->node()->owningBlock() == w->owningBlock()) {
        out.chain.push_back(v->node());
        v = v->node()->input(0);
    }
    out.root = v;
    // x.to(device) (or a dtype it already has) returns x itself; a write
    // through it is a write into its result, and aliasReadAfter refuses it
    // when x, which may share the memory, is read after the write (molann's
    // `diag_mat = eye.repeat(B, 1, 1).to(x.device); diag_mat[:, 2, 2] = s`).
    if (mayBeView(v) && v->node()->kind() != c10::aten::to)
        return fmt::format("writes through a view made by {}, which is not put back",
                           v->node()->kind().toQualString());
    if (v->node()->owningBlock() != w->owningBlock())
        return std::string("writes into a tensor from outside its block");
    if (v->node()->kind() == c10::prim::Param && v->node()->owningBlock()->owningNode())
        return std::string("writes into a loop-carried tensor");
    return out;
}

// A tensor in memory of its own: a clone, or what an ATen op returns whose
// schema gives its results no alias annotation (a functional op).
bool freshTensor(const Value* v) {
    const Node* n = v->node();
    if (n->kind() == c10::aten::clone)
        return true;
    if (!n->kind().is_aten() || v->type()->kind() != c10::TypeKind::TensorType)
        return false;
    const c10::FunctionSchema* schema = n->maybeSchema();
    if (!schema || schema->is_mutable())
        return false;
    return std::none_of(schema->returns().begin(), schema->returns().end(),
                        [](const c10::Argument& r) { return r.alias_info() != nullptr; });
}

// A value other than the write's own views that may hold the written memory
// and is read after the write (it would see the write), or null.
const Value* aliasReadAfter(torch::jit::AliasDb& db, Graph& g, const Write& w) {
    std::unordered_set<const Value*> own{w.root, w.node->output()};
    for (const Node* v : w.chain)
        own.insert(v->output());
    for (Node* n : allNodes(g.block())) {
        if (!n->isBefore(w.node))
            continue;
        for (Value* v : n->outputs()) {
            if (own.count(v))
                continue;
            bool readAfter = false;
            for (const auto& use : v->uses())
                readAfter = readAfter || use.user->isAfter(w.node);
            // A clone's memory is its own, and so is a tensor a functional
            // op returns, whatever list both went through (alias analysis
            // merges a list's elements: a recurrent policy's cloned hidden
            // and cell states, read by lstm, and the states lstm returns).
            const bool distinct = w.root->node()->kind() == c10::aten::clone && freshTensor(v);
            if (readAfter && !distinct && db.mayContainAlias(v, w.root))
                return v;
        }
    }
    return nullptr;
}

// The view's value after the write, computed without writing.
Value* writtenValue(Graph& g, Node* w) {
    Value* self = w->input(0);
    const auto k = w->kind();
    if (k == c10::aten::copy_ || (k == c10::aten::fill_ && isTensor(w->input(1)))) {
        Value* cast = g.insert(c10::aten::type_as, {w->input(1), self});
        return g.insert(c10::aten::expand_as, {cast, self});
    }
    if (k == c10::aten::fill_)
        return g.insert(c10::aten::full_like, {self, w->input(1)});
    if (k == c10::aten::zero_)
        return g.insert(c10::aten::zeros_like, {self});
    // The functional twin takes the same arguments (keyword-only ones such
    // as add's alpha included, which the node holds in position).
    std::string name = w->kind().toUnqualString();
    name.pop_back();
    Node* f = g.create(c10::Symbol::aten(name), w->inputs());
    f->output()->setType(w->output()->type());
    if (!f->maybeSchema()) {
        f->destroy();
        return nullptr;
    }
    g.insertNode(f);
    return g.insert(c10::aten::type_as, {f->output(), self}); // in-place keeps self's dtype
}

// Puts `value` (the new value of view `view`) back into the view's source.
Value* scatter(Graph& g, Node* view, Value* value) {
    Value* source = view->input(0);
    if (view->kind() == c10::aten::select)
        return g.insert(c10::aten::select_scatter, {source, value, view->input(1), view->input(2)});
    if (view->kind() == c10::aten::narrow) {
        Value* end = g.insert(c10::aten::add, {view->input(2), view->input(3)});
        return g.insert(c10::aten::slice_scatter,
                        {source, value, view->input(1), view->input(2), end, int64_t{1}});
    }
    return g.insert(c10::aten::slice_scatter, {source, value, view->input(1), view->input(2),
                                               view->input(3), view->input(4)});
}

// Rewrites the write; false (graph unchanged but for dead nodes) when the op
// has no functional twin.
bool rewrite(Graph& g, const Write& w) {
    Node* prev = w.node->prev();
    torch::jit::WithInsertPoint guard(w.node);
    Value* value = writtenValue(g, w.node);
    if (!value)
        return false;
    std::vector<std::pair<Value*, Value*>> renewed{{w.node->input(0), value}};
    for (Node* view : w.chain) {
        value = scatter(g, view, value);
        renewed.emplace_back(view->input(0), value);
    }
    for (Node* n = prev->next(); n != w.node; n = n->next())
        copyOrigin(n, w.node);
    w.node->output()->replaceAllUsesWith(renewed.front().second);
    for (auto& [before, after] : renewed)
        before->replaceAllUsesAfterNodeWith(w.node, after);
    w.node->destroy();
    return true;
}
} // namespace

void removeViewMutation(PassContext& ctx) {
    std::unique_ptr<torch::jit::AliasDb> db; // rebuilt after each rewrite
    for (Node* n : allNodes(ctx.graph->block())) {
        if (!isInPlace(n) || n->inputs().empty() || !isTensor(n->input(0)) || !writesInput(n, 0))
            continue;
        auto found = analyse(n);
        if (auto* why = std::get_if<std::string>(&found)) {
            if (!insideLoop(n)) // loop bodies are reached once unrolled
                ctx.remark(n, fmt::format("missed: {}: {}", describe(n), *why));
            continue;
        }
        const Write& w = std::get<Write>(found);
        if (!db) {
            try {
                db = std::make_unique<torch::jit::AliasDb>(ctx.graph);
            } catch (const std::exception& e) {
                std::string what = e.what();
                ctx.remark(fmt::format("missed: alias analysis failed on this graph: {}",
                                       what.substr(0, what.find('\n'))));
                return;
            }
        }
        if (const Value* alias = aliasReadAfter(*db, *ctx.graph, w)) {
            ctx.remark(n, fmt::format("missed: {}: %{} may share the written memory and is read "
                                      "after the write",
                                      describe(n), alias->debugName()));
            continue;
        }
        if (!ctx.allowRewrite())
            return;
        bool done = rewrite(*ctx.graph, w);
        db.reset(); // the graph has new nodes either way
        if (!done) {
            ctx.remark(n, fmt::format("missed: {}: no functional form of {}", describe(n),
                                      n->kind().toQualString()));
            continue;
        }
        ctx.count("writes_made_functional");
    }
}

} // namespace t2n::harden
