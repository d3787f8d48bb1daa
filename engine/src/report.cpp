#include "t2n/report.h"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace t2n {

namespace {
// The fraction `part / whole` of a count of elements (0 of none).
double share(int64_t part, int64_t whole) {
    return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}
} // namespace

std::string Divergence::toJson() const {
    nlohmann::json j{{"identifier", identifier},
                     {"operation", operation},
                     {"nnef_line", nnefLine},
                     {"torch_node", node.describe()},
                     {"torch_kind", node.kind},
                     {"module_path", node.modulePath},
                     {"source_file", node.sourceFile},
                     {"source_line", node.sourceLine},
                     {"detail", detail}};
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<std::string> FrozenSizes::columns() const {
    const std::string example = exampleSizes.empty() ? "the example sizes" : exampleSizes;
    const std::string second = secondSizes.empty() ? "the second sizes" : secondSizes;
    return {"value",         "node",         "source line",
            "at " + example, "at " + second, "the archive at " + second};
}

std::vector<std::string> FrozenSizes::cells(const FrozenSize& f) const {
    std::string value = f.value.empty() ? f.identifier : "%" + f.value;
    if (!f.value.empty() && !f.identifier.empty())
        value += " (NNEF " + f.identifier + ")";
    std::string node = f.node.kind;
    if (!f.node.modulePath.empty())
        node += " in " + f.node.modulePath;
    std::string source;
    if (f.node.sourceLine > 0) {
        source = std::filesystem::path(f.node.sourceFile).filename().string() + ":" +
                 std::to_string(f.node.sourceLine);
        std::string text = f.node.sourceText.substr(0, f.node.sourceText.find('\n'));
        text.erase(0, text.find_first_not_of(" \t"));
        if (!text.empty())
            source += "  " + text;
    }
    std::string archive = f.archive;
    if (!f.readBy.empty())
        archive += "; read by " + f.readBy;
    return {value, node, source, f.atExample, f.atSecond, archive};
}

std::string ExportReport::toJson() const {
    using nlohmann::json;
    json j;
    j["t2n_version"] = t2nVersion;
    j["model"] = model;
    j["target"] = target;
    j["artifact"] = {{"path", artifact.path.string()},
                     {"form", std::string(artifactFormName(artifact.form))},
                     {"gzip_level", artifact.gzipLevel},
                     {"bytes", bytesWritten},
                     {"written", written}};
    if (!artifact.note.empty())
        j["artifact"]["note"] = artifact.note;
    json stages = json::array();
    for (const auto& t : timings)
        stages.push_back({{"stage", std::string(stageName(t.stage))},
                          {"seconds", t.seconds},
                          {"peak_rss_mib", t.peakRssMiB}});
    j["stages"] = stages;
    j["warnings"] = warnings;
    j["graph_nodes"] = graphNodes;
    j["harden"] = json::parse(harden::toJson(harden));
    j["torch_ops"] = torchOps;
    j["nnef_ops"] = nnefOps;
    j["inputs"] = inputs;
    j["outputs"] = outputs;
    j["extensions"] = extensions;
    json vars = json::array();
    for (const auto& v : variables) {
        json e{{"identifier", v.identifier},
               {"label", v.label},
               {"dtype", v.dtype},
               {"shape", v.shape},
               {"origin", v.origin}};
        if (!v.from.empty())
            e["from"] = v.from;
        e["min"] = v.min;
        e["max"] = v.max;
        e["mean"] = v.mean;
        vars.push_back(std::move(e));
    }
    j["variables"] = vars;
    if (check.ran) {
        json outs = json::array();
        for (const auto& o : check.outputs) {
            json e{{"name", o.name},
                   {"ok", o.ok},
                   {"elements", o.elements},
                   {"mismatches", o.mismatches},
                   {"mismatch_ratio", o.mismatchRatio},
                   {"max_abs_error", o.maxAbsError},
                   {"max_rel_error", o.maxRelError},
                   {"worst_index", o.worstIndex},
                   {"worst_expected", o.expected},
                   {"worst_got", o.got},
                   {"note", o.note}};
            e["compared_by"] = o.distribution.applied ? "distribution" : "elements";
            if (o.distribution.applied) {
                const DistributionCheck& d = o.distribution;
                auto moments = [](const ValueMoments& m) {
                    return json{{"count", m.count},      {"non_finite", m.nonFinite},
                                {"min", m.min},          {"max", m.max},
                                {"mean", m.mean},        {"std", m.std},
                                {"kurtosis", m.kurtosis}};
                };
                e["distribution"] = {{"criterion", "shape and dtype exactly; range and moments "
                                                   "(min, max, mean, std) within bounds that "
                                                   "follow from the independent values"},
                                     {"random_draw", d.source},
                                     {"independent_values", d.independent},
                                     {"values_compared", d.valuesCompared},
                                     {"expected", moments(d.expected)},
                                     {"got", moments(d.got)},
                                     {"mean_bound", d.meanBound},
                                     {"std_bound", d.stdBound},
                                     {"outside_range", d.outside},
                                     {"outside_range_allowed", d.outsideAllowed}};
                if (!d.failure.empty())
                    e["distribution"]["failure"] = d.failure;
            }
            if (o.quantStep > 0)
                e["quantized"] = {{"step", o.quantStep},
                                  {"max_error_steps", o.maxErrorSteps},
                                  {"off_by_one", o.offByOne},
                                  {"off_by_one_share", share(o.offByOne, o.elements)},
                                  {"off_by_more", o.offByMore}};
            outs.push_back(std::move(e));
        }
        json c{{"passed", check.passed},
               {"readable", check.readable},
               {"tolerance", check.tolerance},
               {"structure_problems", check.structureProblems},
               {"outputs", outs},
               {"tract", check.tract},
               {"seconds", check.seconds},
               {"torch_forward_seconds", check.torchForwardSeconds},
               {"interpreter_seconds", check.interpreterSeconds}};
        if (!check.tractCommand.empty())
            c["tract_command"] = check.tractCommand;
        if (check.diverged)
            c["divergence"] = json::parse(check.divergence.toJson());
        if (!check.debugBundle.empty())
            c["debug_bundle"] = check.debugBundle;
        if (check.quantized.applied) {
            const QuantizedCheck& q = check.quantized;
            c["quantized"] = {{"criterion",
                               "each quantized value fed the model's operands: exact at "
                               "quantize, dequantize and data movement, within one step after "
                               "quantized arithmetic (docs/quantized.md)"},
                              {"passed", q.passed},
                              {"values", q.values},
                              {"exact", q.exact},
                              {"off_by_one", q.offByOne},
                              {"beyond", q.beyond},
                              {"elements", q.elements},
                              {"off_by_one_elements", q.offByOneElements},
                              {"off_by_one_share", share(q.offByOneElements, q.elements)},
                              {"worst_steps", q.worstSteps},
                              {"worst", q.worst},
                              {"worst_kind", q.worstKind}};
        }
        if (!check.dynamicSizes.empty()) {
            json sizes = json::array();
            for (const auto& d : check.dynamicSizes) {
                json e{{"symbol", d.symbol},
                       {"example", d.example},
                       {"second", d.second == 0 ? json(nullptr) : json(d.second)},
                       {"rule", d.rule},
                       {"rule_from", d.rule.empty() ? ""
                                     : d.declared   ? "--dynamic-axis"
                                                    : "graph"},
                       {"checked_at_one_size_only", d.second == 0},
                       {"words", d.words}};
                sizes.push_back(std::move(e));
            }
            c["dynamic_sizes"] = sizes;
        }
        if (!check.valueErrors.empty()) {
            json values = json::array();
            for (const auto& v : check.valueErrors)
                values.push_back({{"identifier", v.identifier},
                                  {"operation", v.operation},
                                  {"nnef_line", v.nnefLine},
                                  {"max_abs_error", v.maxAbs},
                                  {"relative_error", v.relative},
                                  {"ok", v.ok}});
            c["value_errors"] = values;
        }
        j["check"] = c;
    }
    if (!frozenSizes.empty()) {
        json values = json::array();
        for (const auto& f : frozenSizes.values) {
            json e{{"value", f.value},
                   {"torch_node", f.node.describe()},
                   {"torch_kind", f.node.kind},
                   {"module_path", f.node.modulePath},
                   {"source_file", f.node.sourceFile},
                   {"source_line", f.node.sourceLine},
                   {"source_text", f.node.sourceText},
                   {"at_example", f.atExample},
                   {"at_second", f.atSecond},
                   {"archive", f.archive}};
            if (!f.identifier.empty())
                e["identifier"] = f.identifier;
            if (!f.readBy.empty())
                e["read_by"] = f.readBy;
            values.push_back(std::move(e));
        }
        j["frozen_sizes"] = {{"example_sizes", frozenSizes.exampleSizes},
                             {"second_sizes", frozenSizes.secondSizes},
                             {"values", values}};
    }
    if (!state.empty()) {
        nlohmann::json carried = nlohmann::json::array();
        for (const auto& c : state)
            carried.push_back({{"attribute", c.attribute},
                               {"input", c.input},
                               {"output", c.output},
                               {"shape", c.shape},
                               {"dtype", std::string(dtypeName(c.dtype))}});
        j["state"] = carried;
    }
    if (!specialisedFor.empty())
        j["specialised_for"] = specialisedFor;
    // Model strings (module paths, labels, property values) and paths are
    // bytes, not always UTF-8: an invalid sequence is written as U+FFFD
    // instead of ending the run after all its work (json type_error.316).
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace t2n
