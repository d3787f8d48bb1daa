#include "harden/fold_constant_scalar_arithmetic.h"

#include "harden/graph_utils.h"

#include <unordered_set>

namespace t2n::harden {

using torch::jit::Node;
using torch::jit::Value;

namespace {
const std::unordered_set<c10::Symbol>& foldableKinds() {
    static const std::unordered_set<c10::Symbol> kinds = [] {
        std::unordered_set<c10::Symbol> s;
        for (const char* k :
             {"aten::eq",        "aten::ne",  "aten::lt",          "aten::le",
              "aten::gt",        "aten::ge",  "aten::__not__",     "aten::__contains__",
              "aten::Bool",      "aten::Int", "aten::Float",       "aten::add",
              "aten::sub",       "aten::mul", "aten::div",         "aten::floordiv",
              "aten::remainder", "aten::neg", "aten::__getitem__", "aten::len"})
            s.insert(c10::Symbol::fromQualString(k));
        return s;
    }();
    return kinds;
}

bool mayBeNone(const c10::TypePtr& t) {
    auto k = t->kind();
    return k == c10::TypeKind::NoneType || k == c10::TypeKind::OptionalType ||
           k == c10::TypeKind::AnyType;
}

bool isNoneConstant(const Value* v) {
    return v->node()->kind() == c10::prim::Constant && v->type()->kind() == c10::TypeKind::NoneType;
}

// `x is None` where x's type rules None out (or both sides are None).
std::optional<bool> identityWithNone(const Node* n) {
    const Value* a = n->input(0);
    const Value* b = n->input(1);
    std::optional<bool> isSame;
    if (isNoneConstant(a) && isNoneConstant(b))
        isSame = true;
    else if ((isNoneConstant(a) && !mayBeNone(b->type())) ||
             (isNoneConstant(b) && !mayBeNone(a->type())))
        isSame = false;
    if (!isSame)
        return std::nullopt;
    return n->kind() == c10::aten::__is__ ? *isSame : !*isSame;
}

std::optional<c10::IValue> evaluate(Node* n) {
    if (n->kind() == c10::aten::__is__ || n->kind() == c10::aten::__isnot__) {
        if (auto r = identityWithNone(n))
            return c10::IValue(*r);
        return std::nullopt;
    }
    if (!foldableKinds().count(n->kind()) || n->outputs().size() != 1 ||
        !isPrimitive(n->output()->type()))
        return std::nullopt;
    torch::jit::Stack stack;
    for (const Value* in : n->inputs()) {
        if (!isPrimitive(in->type()))
            return std::nullopt; // tensor comparisons are data, not guards
        auto c = constantValue(in);
        if (!c)
            return std::nullopt;
        stack.push_back(*c);
    }
    if (!n->maybeOperator())
        return std::nullopt;
    try {
        n->getOperation()(stack);
    } catch (const std::exception&) {
        return std::nullopt; // e.g. a division by zero: leave it to run time
    }
    return stack.size() == 1 ? std::optional<c10::IValue>(stack.back()) : std::nullopt;
}
} // namespace

void foldConstantScalarArithmetic(PassContext& ctx) {
    // allNodes() lists definitions before uses, so chains fold in one walk.
    for (Node* n : allNodes(ctx.graph->block())) {
        auto value = evaluate(n);
        if (!value)
            continue;
        if (!ctx.allowRewrite())
            return;
        if (replaceWithConstant(n, *value))
            ctx.count("expressions_folded");
    }
}

} // namespace t2n::harden
