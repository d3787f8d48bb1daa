#include "harden/freeze_module.h"

#include "harden/graph_utils.h"

#include <torch/csrc/jit/passes/freeze_module.h>

#include <fmt/format.h>

namespace t2n::harden {

namespace {
struct Unresolved {
    int64_t calls = 0;
    int64_t attributes = 0;
};

Unresolved unresolved(torch::jit::Graph& g) {
    Unresolved u;
    for (auto* n : allNodes(g.block())) {
        if (n->kind() == c10::prim::CallMethod || n->kind() == c10::prim::CallFunction)
            ++u.calls;
        else if (n->kind() == c10::prim::GetAttr)
            ++u.attributes;
    }
    return u;
}

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n'));
}
} // namespace

void freezeModule(PassContext& ctx) {
    if (!ctx.module) {
        ctx.remark("missed: no module to freeze (a bare graph)");
        return;
    }
    Unresolved before = unresolved(*ctx.graph);
    if (before.calls == 0 && before.attributes == 0) {
        // Already frozen (or never had calls): freezing again would only
        // re-run its clean-ups, which must not count as a change.
        ctx.froze = true;
        return;
    }
    if (ctx.remainingRewrites() == 0) {
        ctx.allowRewrite(); // records that the limit stopped the pass
        return;
    }
    torch::jit::Module frozen;
    try {
        frozen = torch::jit::freeze_module(*ctx.module);
    } catch (const c10::Error& e) {
        ctx.freezeError = firstLine(e.what_without_backtrace());
    } catch (const std::exception& e) {
        ctx.freezeError = firstLine(e.what());
    }
    if (!ctx.freezeError.empty()) {
        ctx.remark("missed: freezing failed: " + ctx.freezeError);
        ctx.warnings.push_back(fmt::format(
            "freezing failed ({}); falling back to inlining the calls t2n cannot translate "
            "as modules and reading attributes from the module",
            ctx.freezeError));
        return;
    }
    auto graph = frozen.get_method("forward").graph();
    Unresolved after = unresolved(*graph);
    ctx.froze = true;
    if (after.calls == before.calls && after.attributes == before.attributes) {
        ctx.remark(fmt::format("freezing resolved nothing: the {} attribute read(s) left are "
                               "attributes forward() mutates",
                               before.attributes));
        return;
    }
    ctx.allowRewrite();
    ctx.count("calls_inlined", before.calls - after.calls);
    ctx.count("attributes_folded", before.attributes - after.attributes);
    if (after.attributes > 0)
        ctx.remark(
            fmt::format("kept {} attribute read(s): forward() mutates them", after.attributes));
    ctx.module = frozen;
    ctx.graph = graph;
}

} // namespace t2n::harden
