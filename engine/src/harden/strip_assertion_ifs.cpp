#include "harden/strip_assertion_ifs.h"

#include "jit/graph_runner.h"
#include "harden/graph_utils.h"

#include <fmt/format.h>

#include <unordered_set>

namespace t2n::harden {

using torch::jit::Block;
using torch::jit::Node;

namespace {
bool assertionKind(const Node* n) {
    static const std::unordered_set<c10::Symbol> kinds = [] {
        std::unordered_set<c10::Symbol> s;
        for (const char* k : {"prim::Constant",
                              "prim::ListConstruct",
                              "prim::TupleConstruct",
                              "aten::format",
                              "aten::__getitem__",
                              "aten::__contains__",
                              "aten::__not__",
                              "aten::dim",
                              "aten::size",
                              "aten::len",
                              "aten::eq",
                              "aten::ne",
                              "aten::Int",
                              "aten::str",
                              "aten::add",
                              "aten::mul",
                              "prim::dtype",
                              "prim::device",
                              "prim::Uninitialized",
                              "prim::RaiseException"})
            s.insert(c10::Symbol::fromQualString(k));
        return s;
    }();
    return kinds.count(n->kind()) > 0;
}

// The block raises, and does nothing else that matters.
bool onlyRaises(const Block* b) {
    bool raises = false;
    for (const Node* n : b->nodes()) {
        if (!assertionKind(n))
            return false;
        raises = raises || n->kind() == c10::prim::RaiseException;
    }
    return raises;
}

// The message the check would raise, for the remark: constant parts as
// they are, the format string of aten::format, "..." for the rest.
std::string render(const torch::jit::Value* v) {
    const Node* n = v->node();
    if (auto s = torch::jit::toIValue(v); s && s->isString())
        return s->toStringRef();
    if (n->kind() == c10::aten::format)
        return render(n->input(0));
    if (n->kind() == c10::aten::add && n->inputs().size() == 2)
        return render(n->input(0)) + render(n->input(1));
    return "...";
}

std::string messageOf(const Block* b) {
    for (const Node* n : b->nodes())
        if (n->kind() == c10::prim::RaiseException)
            return render(n->input(0));
    return {};
}

// A check that fires on the example inputs is no check to strip: the model
// refuses these inputs, and an export without it would compute something
// the model never does. One run of the graph as it is (only when there are
// checks to strip) raises the model's own error, at its line.
void refuseFiringChecks(PassContext& ctx, const std::vector<Node*>& ifs) {
    bool any = false;
    for (Node* n : ifs)
        any = any || onlyRaises(n->blocks()[0]) != onlyRaises(n->blocks()[1]);
    if (!any || !ctx.canRun("checks that fire on the example inputs"))
        return;
    std::vector<const torch::jit::Value*> wanted{ctx.graph->outputs().begin(),
                                                 ctx.graph->outputs().end()};
    runAndRecord(ctx, wanted);
}
} // namespace

void stripAssertionIfs(PassContext& ctx) {
    const auto ifs = nodesOfKind(ctx.graph->block(), c10::prim::If);
    refuseFiringChecks(ctx, ifs);
    for (Node* n : ifs) {
        bool thenRaises = onlyRaises(n->blocks()[0]);
        bool elseRaises = onlyRaises(n->blocks()[1]);
        if (thenRaises == elseRaises)
            continue; // no check, or a model that always raises
        Block* raising = n->blocks()[thenRaises ? 0 : 1];
        std::string message = messageOf(raising);
        std::string at = where(n);
        if (!ctx.rewrite("assertions_stripped"))
            return;
        ctx.remark(n, fmt::format("stripped the check at {}: {}", at.empty() ? "?" : at,
                                  message.empty() ? "(no constant message)" : message));
        inlineIfBranch(n, thenRaises ? 1 : 0);
    }
}

} // namespace t2n::harden
