#include "harden/inline_unresolvable_submodules.h"

#include "harden/graph_utils.h"

#include <torch/csrc/jit/api/function_impl.h>

#include <fmt/format.h>

#include <array>
#include <regex>
#include <unordered_set>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
// The classes the translator lowers as whole modules (module-level extractors).
constexpr std::array<std::string_view, 4> kKeptModules{
    "__torch__.torch.nn.modules.rnn.LSTM",
    "__torch__.torch.nn.modules.rnn.GRU",
    "__torch__.torch.nn.modules.rnn.RNN",
    "__torch__.torch.nn.modules.rnn.LSTMCell",
};

std::string unmangled(std::string_view name) {
    static const std::regex mangle(R"(___torch_mangle_\d+\.)");
    return std::regex_replace(std::string(name), mangle, "");
}

// The object a module-typed value stands for: a prim::GetAttr chain from
// `self` (graph input 0), followed on the live module.
std::optional<c10::IValue> objectOf(const Value* v, const PassContext& ctx) {
    if (!ctx.module)
        return std::nullopt;
    if (v == ctx.graph->inputs().at(0))
        return ctx.module->_ivalue();
    const Node* n = v->node();
    if (n->kind() != c10::prim::GetAttr)
        return std::nullopt;
    auto owner = objectOf(n->input(), ctx);
    if (!owner || !owner->isObject())
        return std::nullopt;
    return owner->toObjectRef().getAttr(n->s(c10::attr::name));
}

// A key is resolvable when constant, or an attribute that forward() never sets.
std::optional<c10::IValue> keyOf(const Value* v, const PassContext& ctx) {
    if (auto c = constantValue(v))
        return c;
    const Node* n = v->node();
    if (n->kind() != c10::prim::GetAttr)
        return std::nullopt;
    const std::string& name = n->s(c10::attr::name);
    for (const Node* set : nodesOfKind(ctx.graph->block(), c10::prim::SetAttr))
        if (set->s(c10::attr::name) == name)
            return std::nullopt;
    return objectOf(v, ctx);
}

bool resolveContainerIndex(Node* n, PassContext& ctx) {
    auto container = n->input(0)->type()->cast<c10::ClassType>();
    auto object = objectOf(n->input(0), ctx);
    auto key = keyOf(n->input(1), ctx);
    if (!container || !object || !key) {
        ctx.remark(n, fmt::format("missed: {}: the container or its key is not known before run "
                                  "time",
                                  describe(n)));
        return false;
    }
    std::string name;
    if (key->isInt()) {
        int64_t i = key->toInt();
        int64_t size = 0;
        for (const auto& t : container->containedTypes())
            size += t->is_module() ? 1 : 0;
        name = std::to_string(i < 0 ? i + size : i);
    } else if (key->isString()) {
        name = key->toStringRef();
    }
    if (name.empty() || !container->hasAttribute(name)) {
        ctx.remark(n, fmt::format("missed: {}: no submodule '{}'", describe(n), name));
        return false;
    }
    if (!ctx.rewrite("container_indices_resolved"))
        return false;
    auto* graph = n->owningGraph();
    Node* get = graph->createGetAttr(n->input(0), name);
    get->insertBefore(n);
    get->output()->setType(container->getAttribute(name));
    n->output()->replaceAllUsesWith(get->output());
    n->destroy();
    return true;
}

torch::jit::GraphFunction* calleeOf(Node* n) {
    if (n->kind() == c10::prim::CallFunction) {
        auto fn = n->input(0)->type()->cast<c10::FunctionType>();
        return fn ? torch::jit::tryToGraphFunction(*fn->function()) : nullptr;
    }
    auto cls = n->input(0)->type()->cast<c10::ClassType>();
    if (!cls)
        return nullptr;
    auto* method = cls->findMethod(n->s(c10::attr::name));
    return method ? torch::jit::tryToGraphFunction(*method) : nullptr;
}

// One sweep over the graph; true when something changed.
bool sweep(PassContext& ctx, std::unordered_set<const Node*>& reported) {
    bool changed = false;
    for (Node* n : allNodes(ctx.graph->block())) {
        if (n->kind() == c10::prim::ModuleContainerIndex) {
            if (reported.count(n))
                continue;
            if (resolveContainerIndex(n, ctx))
                changed = true;
            else
                reported.insert(n);
            continue;
        }
        if (n->kind() != c10::prim::CallMethod && n->kind() != c10::prim::CallFunction)
            continue;
        if (reported.count(n))
            continue;
        if (n->kind() == c10::prim::CallMethod) {
            auto cls = n->input(0)->type()->cast<c10::ClassType>();
            if (cls && cls->name() && keptAsModuleCall(cls->name()->qualifiedName())) {
                ctx.remark(n, fmt::format("kept {} as a module call ({})", describe(n),
                                          unmangled(cls->name()->qualifiedName())));
                reported.insert(n);
                continue;
            }
        }
        auto* callee = calleeOf(n);
        if (!callee) {
            ctx.remark(n, fmt::format("missed: {}: the callee is not known before run time ({})",
                                      describe(n), n->input(0)->type()->str()));
            reported.insert(n);
            continue;
        }
        if (!ctx.rewrite("calls_inlined"))
            return false;
        if (n->kind() == c10::prim::CallFunction)
            n->removeInput(0); // the function constant is not an argument
        // The callee's own graph, not its optimized_graph(): the latter is
        // already fully inlined, kept torch.nn calls included.
        torch::jit::inlineCallTo(n, callee, /*use_graph=*/false);
        changed = true;
    }
    return changed;
}
} // namespace

bool keptAsModuleCall(std::string_view qualifiedClassName) {
    std::string name = unmangled(qualifiedClassName);
    for (auto kept : kKeptModules)
        if (name == kept)
            return true;
    return false;
}

void inlineUnresolvableSubmodules(PassContext& ctx) {
    // Inlined bodies bring their own calls: sweep until nothing changes.
    std::unordered_set<const Node*> reported;
    while (sweep(ctx, reported) && !ctx.limited) {
    }
}

} // namespace t2n::harden
