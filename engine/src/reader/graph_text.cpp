#include "t2n/graph_text.h"

#include "reader/archive_reader.h"
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
    // A text file, not a tensor: 64 MiB is far beyond any graph t2n writes.
    constexpr uint64_t kMaxGraphBytes = uint64_t{64} << 20;
    std::optional<std::string> text;
    auto visit = [&](const std::string& path, archive::EntryStream& bytes) {
        if (path != "graph.nnef")
            return;
        if (bytes.announcedSize() > kMaxGraphBytes)
            throw Error(Stage::Check, ErrorCode::ModelFile,
                        fmt::format("{}: graph.nnef is {} bytes, more than a graph t2n can show",
                                    artifact.string(), bytes.announcedSize()));
        std::string t;
        for (auto piece = bytes.next(); !piece.empty(); piece = bytes.next())
            t.append(reinterpret_cast<const char*>(piece.data()), piece.size());
        text = std::move(t);
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
