#include "ir/trace_stage.h"

#include "ir/ir_builder.h"
#include "ir/naming.h"
#include "ir/size_rules.h"
#include "jit/graph_runner.h"
#include "util/input_values.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>

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

std::vector<InputSpec> probeSpecs(std::vector<InputSpec> specs,
                                  const std::vector<std::map<int, std::string>>& symbols,
                                  const std::map<std::string, int64_t>& sizes) {
    for (size_t i = 0; i < specs.size() && i < symbols.size(); ++i)
        for (auto& [axis, sym] : symbols[i])
            if (auto it = sizes.find(sym); it != sizes.end()) {
                specs[i].shape[static_cast<size_t>(axis)] = it->second;
                dropValuesOfOtherSize(specs[i]);
            }
    return specs;
}

namespace {

// The probe: the model run again with every symbol at another size, the
// first the model accepts among each symbol's candidates (its rule's next
// sizes, the example grown by 1 and 2), a bounded number of runs. Its sizes
// tell which values follow the symbols, and are the check's second sizes.
std::vector<SymbolProbe> probeSymbols(const TraceRequest& request,
                                      const std::vector<std::map<int, std::string>>& symbols,
                                      const jit::Recorded& main, const jit::RunOptions& run,
                                      std::optional<jit::Recorded>& probe) {
    std::map<std::string, int64_t> example;
    for (size_t i = 0; i < request.inputs.size() && i < symbols.size(); ++i)
        for (const auto& [axis, sym] : symbols[i])
            example.try_emplace(sym, request.inputs[i].shape[static_cast<size_t>(axis)]);
    if (example.empty())
        return {};
    // The rules only order the sizes tried: a graph the reading does not
    // foresee leaves every axis with the example + 1 and + 2, as before.
    std::map<std::string, SizeRule> rules;
    try {
        rules = inferSizeRules(*request.prepared->graph, main, symbols);
    } catch (const std::exception&) {
        rules.clear();
    }
    for (const auto& d : request.dynamicAxes)
        if ((d.multipleOf > 0 || d.min > 0) && example.count(d.symbol)) {
            SizeRule& r = rules[d.symbol];
            r = {};
            r.multipleOf = std::max<int64_t>(d.multipleOf, 1);
            r.min = std::max<int64_t>(d.min, 1);
            r.declared = true;
            r.why = fmt::format("given with --dynamic-axis {}", d.toString());
        }
    std::vector<SymbolProbe> probes;
    std::map<std::string, std::vector<int64_t>> candidates;
    size_t attempts = 0;
    for (const auto& [sym, size] : example) {
        const SizeRule& r = rules[sym];
        SymbolProbe p;
        p.name = sym;
        p.example = size;
        p.rule = r.text();
        p.multipleOf = std::max<int64_t>(r.multipleOf, 1);
        p.why = r.why;
        p.declared = r.declared;
        probes.push_back(p);
        candidates[sym] = candidateSizes(size, r);
        attempts = std::max(attempts, candidates[sym].size());
    }
    attempts = std::min<size_t>(attempts, 5);
    // Symbols of the same example size (H and W of a square image) are
    // probed at different sizes first: at equal sizes every value that
    // follows one follows the other as well, and the IR would name either
    // (tract then refused "8*B*H*W should be equal to 8*B*H*H"). A model that
    // needs them equal gets one more attempt at equal sizes.
    bool twins = false;
    for (const auto& [a, ea] : example)
        for (const auto& [b, eb] : example)
            twins = twins || (a < b && ea == eb);
    const size_t distinctAttempts = twins ? std::min<size_t>(attempts, 2) : 0;
    for (size_t k = 0; k < attempts + distinctAttempts && !probe; ++k) {
        const bool distinct = k < distinctAttempts;
        const size_t at = distinct ? k : k - distinctAttempts;
        std::map<std::string, int64_t> sizes;
        for (const auto& [sym, list] : candidates) {
            if (list.empty())
                continue;
            size_t i = std::min(at, list.size() - 1);
            auto taken = [&](int64_t size) {
                for (const auto& [other, given] : sizes)
                    if (given == size && example.at(other) == example.at(sym))
                        return true;
                return false;
            };
            // The next candidate of the same list that no twin has yet.
            while (distinct && i + 1 < list.size() && taken(list[i]))
                ++i;
            sizes[sym] = list[i];
        }
        if (distinct) {
            std::set<std::pair<int64_t, int64_t>> pairs;
            bool unique = true;
            for (const auto& [sym, size] : sizes)
                unique = pairs.insert({example.at(sym), size}).second && unique;
            if (!unique)
                continue; // not enough candidates to tell the twins apart
        }
        try {
            jit::RunOptions probeRun;
            probeRun.shapeOnly = run.shapeOnly;
            probe = jit::runGraph(&request.prepared->module, *request.prepared->graph,
                                  request.probeInputs(probeSpecs(request.inputs, symbols, sizes)),
                                  probeRun);
            for (auto& p : probes)
                p.second = sizes.count(p.name) ? sizes[p.name] : 0;
        } catch (const Error& e) {
            if (e.code() == ErrorCode::Cancelled)
                throw;
            for (auto& p : probes)
                if (sizes.count(p.name) &&
                    std::find(p.refused.begin(), p.refused.end(), sizes[p.name]) == p.refused.end())
                    p.refused.push_back(sizes[p.name]);
            // The model's words, without runGraph's "failed on the example
            // inputs" (these are the probe's).
            constexpr std::string_view said = "the model failed on the example inputs: ";
            const std::string words =
                e.message().starts_with(said) ? e.message().substr(said.size()) : e.message();
            for (auto& p : probes)
                if (p.refusal.empty())
                    p.refusal = words;
        }
    }
    if (!probe) {
        std::vector<std::string> tried;
        for (const auto& p : probes)
            tried.push_back(fmt::format("{} = {}", p.name, fmt::join(p.refused, ", ")));
        request.warn(fmt::format(
            "the model runs at none of the other sizes tried ({}; {}): which values depend on the "
            "dynamic axes is unknown, and the check runs at the example sizes only",
            fmt::join(tried, "; "), probes.empty() ? "" : probes.front().refusal));
    }
    return probes;
}

} // namespace

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
    std::vector<SymbolProbe> probes = probeSymbols(request, symbols, *recorded, run, probe);
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
    traced.graph.symbolProbes = std::move(probes);
    applyNaming(traced.graph, request.naming);
    return {std::move(traced.graph), std::move(traced.jitValues)};
}

} // namespace t2n::ir
