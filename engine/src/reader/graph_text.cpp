#include "t2n/graph_text.h"

#include "reader/archive_reader.h"
#include "reader/model_reader.h"
#include "t2n/error.h"

#include <fmt/format.h>

#include <optional>

namespace t2n {

namespace {
// Thrown by the visitor once graph.nnef is read: the entries after it
// (mostly .dat tensors) need not be streamed through.
struct GraphTextFound {};
} // namespace

std::string readGraphText(const std::filesystem::path& artifact) {
    std::optional<std::string> text;
    auto visit = [&](const std::string& path, archive::EntryStream& bytes) {
        if (path != "graph.nnef")
            return;
        text = nnef::readGraphTextEntry(artifact.string(), path, bytes);
        throw GraphTextFound{};
    };
    try {
        archive::forEachEntry(artifact, visit);
    } catch (const GraphTextFound&) {
    }
    if (!text)
        throw Error(
            Stage::Check, ErrorCode::ModelFile,
            fmt::format("{}: no graph.nnef at the root of the artifact", artifact.string()));
    return std::move(*text);
}

} // namespace t2n
