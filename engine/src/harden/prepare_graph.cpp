#include "harden/prepare_graph.h"

#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/jit/passes/freeze_module.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/passes/remove_mutation.h>

#include <fmt/format.h>

namespace t2n::harden {

namespace {
std::unordered_map<const void*, std::string> collectParamNames(const torch::jit::Module& m) {
    std::unordered_map<const void*, std::string> names;
    for (const auto& p : m.named_parameters(/*recurse=*/true))
        names.emplace(p.value.data_ptr(), p.name);
    for (const auto& b : m.named_buffers(/*recurse=*/true))
        names.emplace(b.value.data_ptr(), b.name);
    return names;
}
} // namespace

PreparedModule prepareGraph(const torch::jit::Module& model, bool freeze) {
    PreparedModule out;
    out.paramNames = collectParamNames(model);
    if (freeze) {
        try {
            // freeze_module, not freeze(): the frozen-graph optimisations of
            // freeze() fold batch norms into convolutions, and exported
            // weights must stay the model's own parameters.
            out.module = torch::jit::freeze_module(model);
            out.graph = out.module.get_method("forward").graph();
            out.froze = true;
        } catch (const c10::Error& e) {
            std::string what = e.what_without_backtrace();
            out.warnings.push_back(fmt::format(
                "freezing failed ({}); falling back to inlining calls and reading attributes",
                what.substr(0, what.find('\n'))));
        }
    }
    if (!out.froze) {
        out.module = model.clone();
        out.graph = out.module.get_method("forward").graph();
        torch::jit::Inline(*out.graph);
    }
    torch::jit::RemoveTensorMutation(out.graph);
    torch::jit::EliminateDeadCode(out.graph);
    return out;
}

} // namespace t2n::harden
