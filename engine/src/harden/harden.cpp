#include "harden/harden.h"

#include "harden/default_arguments.h"
#include "harden/graph_utils.h"
#include "t2n/error.h"

#include <chrono>

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

PreparedModule hardenForExport(const torch::jit::Module& model,
                               const std::vector<at::Tensor>& exampleInputs,
                               const HardenOptions& options,
                               std::span<PassObserver* const> observers) {
    auto start = std::chrono::steady_clock::now();
    if (!model.find_method("forward"))
        throw Error(Stage::Harden, ErrorCode::ModelFile, "the model has no forward() method",
                    "export a module whose forward() computes the outputs");
    PreparedModule out;
    // Frozen constants and the clone share storage with the model's
    // parameters, so their addresses name them.
    out.paramNames = collectParamNames(model);
    // clone(inplace=true): new types and graph copies, shared tensors. The
    // passes edit the clone's forward graph, never the caller's.
    torch::jit::Module working = model.clone(/*inplace=*/true);
    working.eval();
    // Arguments the caller left out (Optional lengths = None) take their
    // defaults before anything runs the graph on the example inputs.
    std::vector<std::string> defaulted;
    if (!exampleInputs.empty() && !defaultedArguments(working, exampleInputs.size()).empty())
        defaulted = bindDefaultArguments(working, exampleInputs.size());
    RewriteBudget budget{options.rewriteLimit, 0};
    PassContext ctx(working.get_method("forward").graph(), &budget);
    ctx.module = working;
    ctx.exampleInputs = exampleInputs;

    HardenDiagnostics& d = out.diagnostics;
    d.nodesBefore = countNodes(*ctx.graph);
    if (options.snapshots)
        d.inputGraphText = graphText(*ctx.graph);
    ChainRun run = runPasses(ctx, options, observers);
    d.passes = std::move(run.records);
    d.inputSnapshot = std::move(run.inputSnapshot);
    d.rounds = run.rounds;
    d.froze = ctx.froze;
    d.freezeError = ctx.freezeError;
    const auto* inliner = findPass("inline_unresolvable_submodules");
    d.manualInline = !ctx.froze && inliner && !skipped(*inliner, options);
    d.rewriteLimit = options.rewriteLimit;
    d.rewrites = budget.used;
    d.nodesAfter = countNodes(*ctx.graph);
    ctx.warnings.insert(ctx.warnings.begin(), defaulted.begin(), defaulted.end());
    d.warnings = ctx.warnings;
    d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    out.module = *ctx.module;
    out.graph = ctx.graph;
    out.nodeIds = std::move(run.nodeIds);
    out.froze = ctx.froze;
    out.warnings = ctx.warnings;
    return out;
}

} // namespace t2n::harden
