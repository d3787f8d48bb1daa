// An NNEF artifact read back whole: archive -> graph.nnef (required at the
// root), every .dat by label, graph.quant when present.
#include "reader/model_reader.h"

#include "reader/archive_reader.h"
#include "t2n/error.h"

#include <fmt/format.h>

namespace t2n::nnef {

namespace {

std::string textOf(const std::vector<std::byte>& bytes) {
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

} // namespace

LoadedModel readModel(const std::filesystem::path& artifact, const ReadOptions& options) {
    auto contents = archive::readArchive(
        artifact, archive::ReadLimits{options.maxEntryBytes, options.maxTotalBytes});
    LoadedModel model;
    for (const auto& hidden : contents.hidden)
        model.warnings.push_back(fmt::format(
            "'{}' ignored: tract skips every path component that starts with '.'", hidden));

    // graph.nnef first: without it nothing else is worth decoding.
    const std::vector<std::byte>* graph = nullptr;
    const std::vector<std::byte>* quant = nullptr;
    std::vector<std::string> subModels;
    for (const auto& entry : contents.entries) {
        if (entry.path == "graph.nnef")
            graph = &entry.bytes;
        else if (entry.path == "graph.quant")
            quant = &entry.bytes;
        else if (endsWith(entry.path, "/graph.nnef"))
            subModels.push_back(entry.path);
    }
    if (!graph) {
        std::string more;
        if (!subModels.empty())
            more = fmt::format(" ('{}' is one level down: tract reads that as a sub-model)",
                               subModels.front());
        throw Error(Stage::Check, ErrorCode::ModelFile,
                    fmt::format("{}: no graph.nnef at the root of the artifact{}",
                                artifact.string(), more));
    }
    for (auto& entry : contents.entries) {
        const std::string& path = entry.path;
        if (path == "graph.nnef" || path == "graph.quant" || endsWith(path, "/graph.quant"))
            continue; // a sub-model's graph.quant is covered by its graph.nnef warning
        if (endsWith(path, ".dat")) {
            std::string label = path.substr(0, path.size() - 4);
            model.tensors.emplace(std::move(label), readDat(std::move(entry.bytes), path));
        } else if (endsWith(path, "/graph.nnef")) {
            model.warnings.push_back(fmt::format(
                "'{}' not checked: tract loads it as a sub-model, t2n's reader does not", path));
        } else {
            model.warnings.push_back(fmt::format(
                "'{}' ignored: neither graph.nnef, graph.quant nor a .dat tensor{}", path,
                endsWith(path, ".safetensors") || endsWith(path, ".json") ||
                        endsWith(path, ".nnef.tgz") || endsWith(path, ".nnef.tar")
                    ? " (tract may load it as a resource or a sub-model)"
                    : ""));
        }
    }
    model.graphText = textOf(*graph);
    model.document = parseDocument(model.graphText, "graph.nnef", options.mode);
    if (quant)
        model.quant = parseQuant(textOf(*quant), "graph.quant");
    return model;
}

} // namespace t2n::nnef
