#include "archive_names.h"

#include "reader/model_reader.h"
#include "t2n/error.h"
#include "t2n/graph_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace t2n::check {

namespace {

/// The symbol a dimension of an external's shape names: `T`, or `32 * H_32`
/// (an axis written as a multiple of a new symbol: H with multiple-of=32).
std::optional<DynamicAxis> symbolOf(const nnef::ast::Expr& dim) {
    using Kind = nnef::ast::Expr::Kind;
    DynamicAxis axis;
    if (dim.kind == Kind::Identifier) {
        axis.symbol = dim.text;
        return axis;
    }
    if (dim.kind != Kind::Binary || dim.op != "*" || dim.items.size() != 2 ||
        dim.items[0]->kind != Kind::Integer || dim.items[1]->kind != Kind::Identifier)
        return std::nullopt;
    const int64_t multiple = dim.items[0]->integer;
    const std::string& name = dim.items[1]->text;
    const std::string suffix = fmt::format("_{}", multiple);
    axis.symbol = name.size() > suffix.size() && name.ends_with(suffix)
                      ? name.substr(0, name.size() - suffix.size())
                      : name;
    axis.multipleOf = multiple;
    return axis;
}

/// The dynamic axes an archive's externals declare, named after the
/// options' inputs (by position). Without them the check translated the
/// model with static sizes, and a recurrent layer's weights, laid out for a
/// symbolic time axis, differed in shape from the archive's ([1, 24, 6] vs
/// [24, 6]) although the archive was right.
std::vector<DynamicAxis> archiveDynamicAxes(const nnef::ast::Document& doc,
                                            const ExportOptions& options) {
    std::vector<DynamicAxis> axes;
    for (const auto& a : doc.graph.body) {
        if (!a.lhs || a.lhs->kind != nnef::ast::Expr::Kind::Identifier || !a.rhs ||
            a.rhs->kind != nnef::ast::Expr::Kind::Invocation || a.rhs->text != "external")
            continue;
        const auto at = std::find(doc.graph.inputs.begin(), doc.graph.inputs.end(), a.lhs->text);
        const auto index = static_cast<size_t>(at - doc.graph.inputs.begin());
        const nnef::ast::Expr* shape = nnef::ast::invocationArgument(*a.rhs, "shape", 0);
        if (at == doc.graph.inputs.end() || index >= options.inputs.size() || !shape ||
            shape->kind != nnef::ast::Expr::Kind::Array)
            continue;
        for (size_t d = 0; d < shape->items.size(); ++d)
            if (auto axis = symbolOf(*shape->items[d])) {
                axis->tensor = options.inputs[index].name;
                axis->axis = static_cast<int>(d);
                axes.push_back(*axis);
            }
    }
    return axes;
}

} // namespace

std::optional<ExportOptions> namedAsArchive(const std::filesystem::path& artifact,
                                            const ExportOptions& options, std::string* said) {
    const bool namesGiven = !options.inputNames.empty() || !options.outputNames.empty();
    if (namesGiven && !options.dynamicAxes.empty())
        return std::nullopt;
    nnef::ast::Document doc;
    try {
        doc = nnef::parseDocument(readGraphText(artifact), "graph.nnef", nnef::ReadMode::Tract);
    } catch (const Error&) {
        return std::nullopt;
    }
    std::vector<std::string> defaultInputs, defaultOutputs;
    for (const auto& in : options.inputs)
        defaultInputs.push_back(in.name);
    for (size_t i = 0; i < doc.graph.outputs.size(); ++i)
        defaultOutputs.push_back(fmt::format("output_{}", i));
    ExportOptions named = options;
    std::vector<std::string> changes;
    // Only as many names as the options give inputs: a different count is the
    // check's to report, with the model's own words.
    if (!namesGiven && doc.graph.inputs != defaultInputs &&
        doc.graph.inputs.size() == defaultInputs.size()) {
        named.inputNames = doc.graph.inputs;
        changes.push_back(fmt::format("--input-name {}", fmt::join(doc.graph.inputs, " ")));
    }
    if (!namesGiven && doc.graph.outputs != defaultOutputs) {
        named.outputNames = doc.graph.outputs;
        changes.push_back(fmt::format("--output-name {}", fmt::join(doc.graph.outputs, " ")));
    }
    if (options.dynamicAxes.empty()) {
        named.dynamicAxes = archiveDynamicAxes(doc, options);
        for (const auto& axis : named.dynamicAxes)
            changes.push_back("--dynamic-axis " + axis.toString());
    }
    if (changes.empty())
        return std::nullopt;
    if (said)
        *said = fmt::format("the archive names its graph's values or declares dynamic axes "
                            "otherwise than the options: checking as if given {}",
                            fmt::join(changes, " "));
    return named;
}

} // namespace t2n::check
