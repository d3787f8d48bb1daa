#include "archive_names.h"

#include "reader/model_reader.h"
#include "t2n/error.h"
#include "t2n/graph_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace t2n::check {

std::optional<ExportOptions> namedAsArchive(const std::filesystem::path& artifact,
                                            const ExportOptions& options, std::string* said) {
    if (!options.inputNames.empty() || !options.outputNames.empty())
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
    if (doc.graph.inputs != defaultInputs && doc.graph.inputs.size() == defaultInputs.size()) {
        named.inputNames = doc.graph.inputs;
        changes.push_back(fmt::format("--input-name {}", fmt::join(doc.graph.inputs, " ")));
    }
    if (doc.graph.outputs != defaultOutputs) {
        named.outputNames = doc.graph.outputs;
        changes.push_back(fmt::format("--output-name {}", fmt::join(doc.graph.outputs, " ")));
    }
    if (changes.empty())
        return std::nullopt;
    if (said)
        *said = fmt::format("the archive names its graph's values otherwise than the default: "
                            "checking as if given {}",
                            fmt::join(changes, " "));
    return named;
}

} // namespace t2n::check
