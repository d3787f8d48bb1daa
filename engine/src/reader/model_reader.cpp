// An NNEF artifact read back: archive -> graph.nnef (required at the root),
// every .dat by label (decoded as the archive streams it), graph.quant when
// present.
#include "reader/model_reader.h"

#include "reader/archive_reader.h"
#include "t2n/error.h"

#include <fmt/format.h>

#include <optional>

namespace t2n::nnef {

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

} // namespace

std::string readGraphTextEntry(const std::string& artifact, const std::string& path,
                               archive::EntryStream& bytes) {
    auto tooLarge = [&](uint64_t size) {
        return Error(Stage::Check, ErrorCode::ModelFile,
                     fmt::format("{}: {} has {} bytes or more; t2n reads NNEF text of at most {} "
                                 "bytes (whitespace included)",
                                 artifact, path, size, kMaxGraphTextBytes));
    };
    if (bytes.announcedSize() > kMaxGraphTextBytes)
        throw tooLarge(bytes.announcedSize());
    std::string text;
    text.reserve(static_cast<std::size_t>(bytes.announcedSize()));
    for (auto piece = bytes.next(); !piece.empty(); piece = bytes.next()) {
        if (text.size() + piece.size() > kMaxGraphTextBytes)
            throw tooLarge(text.size() + piece.size());
        text.append(reinterpret_cast<const char*>(piece.data()), piece.size());
    }
    return text;
}

LoadedModel readModel(const std::filesystem::path& artifact, const ReadOptions& options) {
    LoadedModel model;
    std::optional<std::string> graph, quant;
    std::vector<std::string> subModels;
    // A bad .dat is reported after what concerns the whole artifact (limits,
    // duplicates, a missing graph.nnef), as when the archive was read whole.
    std::optional<Error> datError;
    // Entries stream through: text files are kept, .dat files decoded as they
    // come, everything else is only named in a warning.
    auto visit = [&](const std::string& path, archive::EntryStream& bytes) {
        if (path == "graph.nnef" || path == "graph.quant") {
            (path == "graph.nnef" ? graph : quant) =
                readGraphTextEntry(artifact.string(), path, bytes);
        } else if (endsWith(path, "/graph.nnef")) {
            subModels.push_back(path);
            model.warnings.push_back(fmt::format(
                "'{}' not checked: tract loads it as a sub-model, t2n's reader does not", path));
        } else if (endsWith(path, "/graph.quant")) {
            // a sub-model's graph.quant is covered by its graph.nnef warning
        } else if (endsWith(path, ".dat")) {
            std::string label = path.substr(0, path.size() - 4);
            const TensorData* known = nullptr;
            if (options.known)
                if (auto it = options.known->find(label); it != options.known->end())
                    known = &it->second;
            if (datError)
                return; // the rest is only read through
            try {
                DatDecoder decoder(path, known, bytes.announcedSize());
                for (auto piece = bytes.next(); !piece.empty(); piece = bytes.next())
                    decoder.feed(piece);
                if (decoder.blockQuantized())
                    model.blockQuantized.insert(label);
                model.tensors.emplace(std::move(label), decoder.finish());
            } catch (const Error& e) {
                if (e.stage() != Stage::Check || e.code() != ErrorCode::ModelFile ||
                    e.message().rfind(path + ":", 0) != 0)
                    throw; // the archive's own error (a limit), not the file's
                datError = e;
            }
        } else {
            model.warnings.push_back(fmt::format(
                "'{}' ignored: neither graph.nnef, graph.quant nor a .dat tensor{}", path,
                endsWith(path, ".safetensors") || endsWith(path, ".json") ||
                        endsWith(path, ".nnef.tgz") || endsWith(path, ".nnef.tar")
                    ? " (tract may load it as a resource or a sub-model)"
                    : ""));
        }
    };
    const auto contents = archive::forEachEntry(
        artifact, visit, archive::ReadLimits{options.maxEntryBytes, options.maxTotalBytes});
    std::vector<std::string> warnings;
    for (const auto& hidden : contents.hidden)
        warnings.push_back(fmt::format(
            "'{}' ignored: tract skips every path component that starts with '.'", hidden));
    warnings.insert(warnings.end(), model.warnings.begin(), model.warnings.end());
    model.warnings = std::move(warnings);
    if (!graph) {
        std::string more;
        if (!subModels.empty())
            more = fmt::format(" ('{}' is one level down: tract reads that as a sub-model)",
                               subModels.front());
        throw Error(Stage::Check, ErrorCode::ModelFile,
                    fmt::format("{}: no graph.nnef at the root of the artifact{}",
                                artifact.string(), more));
    }
    if (datError)
        throw *datError;
    model.graphText = std::move(*graph);
    model.document = parseDocument(model.graphText, "graph.nnef", options.mode);
    if (quant)
        model.quant = parseQuant(*quant, "graph.quant");
    return model;
}

} // namespace t2n::nnef
