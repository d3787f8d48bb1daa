// The export path and compression level decide the artifact form, as in
// torch_to_nnef >= 0.21 (seed 000, "Artifacts and Compression").
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace t2n {

enum class ArtifactForm { Folder, Tar, Tgz };

struct Artifact {
    std::filesystem::path path; ///< where the artifact is finally written
    ArtifactForm form = ArtifactForm::Tar;
    int gzipLevel = 0; ///< Tgz only
    std::string note;  ///< why the path differs from the request, if it does
};

/// requested must end in .nnef, .nnef.tar, .nnef.tgz or .nnef.tar.gz.
///   level None  -> folder  X.nnef
///   level 0     -> X.nnef.tar, or X.nnef.tgz (gzip level 0) when the path says .tgz
///   level 1..9  -> X.nnef.tgz
/// Throws t2n::Error (OutputPath) for other suffixes or levels.
Artifact resolveArtifact(const std::filesystem::path& requested, std::optional<int> level);

std::string_view artifactFormName(ArtifactForm f);

} // namespace t2n
