#include "ir/trace_stage.h"

#include "ir/ir_builder.h"
#include "ir/naming.h"
#include "jit/graph_runner.h"
#include "util/input_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace t2n::ir {

std::vector<std::map<int, std::string>> inputSymbols(const TraceRequest& request) {
    const auto& inputs = request.inputs;
    std::vector<std::map<int, std::string>> symbols(inputs.size());
    for (const auto& dyn : request.dynamicAxes)
        for (size_t i = 0; i < inputs.size(); ++i)
            if (inputs[i].name == dyn.tensor ||
                (i < request.inputNames.size() && request.inputNames[i] == dyn.tensor)) {
                int rank = static_cast<int>(inputs[i].shape.size());
                int axis = dyn.axis < 0 ? dyn.axis + rank : dyn.axis;
                if (axis >= 0 && axis < rank)
                    symbols[i][axis] = dyn.symbol;
            }
    return symbols;
}

std::vector<InputSpec> probeSpecs(std::vector<InputSpec> specs,
                                  const std::vector<std::map<int, std::string>>& symbols,
                                  int64_t delta, int64_t farFactor) {
    std::map<std::string, int64_t> sizes;
    for (size_t i = 0; i < specs.size() && i < symbols.size(); ++i)
        for (auto& [axis, sym] : symbols[i]) {
            int64_t& d = specs[i].shape[static_cast<size_t>(axis)];
            const int64_t grown =
                farFactor > 0 ? std::max<int64_t>(d * farFactor, d + 2) : d + delta;
            d = sizes.try_emplace(sym, grown).first->second;
            dropValuesOfOtherSize(specs[i]);
        }
    return specs;
}

TraceResult runTrace(const TraceRequest& request) {
    const auto& prepared = *request.prepared;
    const auto& m = prepared.module;
    const auto symbols = inputSymbols(request);
    std::vector<std::string> torchWarnings;
    jit::RunOptions run;
    run.warnings = &torchWarnings;
    // The IR reads only dtypes and shapes of input-dependent values: the run
    // keeps their data no longer than the model needs it (the outputs stay
    // whole: they are the check's reference).
    run.shapeOnly = inputDependentValues(*prepared.graph);
    for (const torch::jit::Value* out : prepared.graph->outputs())
        run.shapeOnly.erase(out);
    std::optional<jit::Recorded> recorded;
    try {
        recorded = jit::runGraph(&m, *prepared.graph, request.example, run);
    } catch (Error& e) {
        // Name the node the run fails at: the CLI prints it, the studio marks it.
        // (Unless the model's own traceback located it already.)
        if (e.code() == ErrorCode::ModelRun && e.details().empty())
            if (const auto* node = jit::firstFailingNode(&m, *prepared.graph, request.example))
                e.addDetail(
                    {"the first node that fails on these inputs", describeNode(node), true});
        throw;
    }
    for (const auto& w : torchWarnings)
        request.warn("PyTorch: " + w);
    request.step(0.5, "probing the dynamic axes");
    std::optional<jit::Recorded> probe;
    bool dynamic = false;
    for (const auto& s : symbols)
        dynamic = dynamic || !s.empty();
    if (dynamic) {
        for (int64_t delta : {1, 2}) {
            try {
                jit::RunOptions probeRun;
                probeRun.shapeOnly = run.shapeOnly;
                probe = jit::runGraph(
                    &m, *prepared.graph,
                    request.probeInputs(probeSpecs(request.inputs, symbols, delta)), probeRun);
                break;
            } catch (const Error& e) {
                if (delta == 2)
                    request.warn(fmt::format("the model does not run with the dynamic axes grown "
                                             "by 1 or 2 ({}); which values depend on them is "
                                             "unknown",
                                             e.message()));
            }
        }
    }
    // The far probe: a symbol divided by a stride (frames of a hop of 160
    // samples, a side downsampled 32 times) may give the same number at the
    // example size and one or two more; doubled, it moves. A model that does
    // not run there (a table of fixed length) keeps the near probe alone.
    std::optional<jit::Recorded> farProbe;
    if (probe) {
        request.step(0.65, "probing the dynamic axes at a larger step");
        try {
            jit::RunOptions farRun;
            farRun.shapeOnly = run.shapeOnly;
            farProbe = jit::runGraph(&m, *prepared.graph,
                                     request.probeInputs(probeSpecs(request.inputs, symbols, 0, 2)),
                                     farRun);
        } catch (const Error&) {
            // Not worth a warning: the near probe still decides, as before.
        }
    }
    request.step(0.8, "building the IR");
    TraceInputs in;
    in.prepared = &prepared;
    in.main = &*recorded;
    in.probe = probe ? &*probe : nullptr;
    in.farProbe = farProbe ? &*farProbe : nullptr;
    in.inputSymbols = symbols;
    auto traced = buildGraph(in);
    for (const auto& w : traced.warnings)
        request.warn(w);
    applyNaming(traced.graph, request.naming);
    return {std::move(traced.graph), std::move(traced.jitValues)};
}

} // namespace t2n::ir
