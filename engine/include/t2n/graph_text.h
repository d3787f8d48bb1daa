// graph.nnef of an NNEF archive as it is on disk, for views that must show
// what was checked rather than what t2n would write for the model now (a
// hand-edited archive, a debug bundle written by another t2n).
#pragma once

#include <filesystem>
#include <string>

namespace t2n {

/// The text of graph.nnef at the root of `artifact` (a folder, a .tar or a
/// gzipped tar, told by its bytes), read under the reader's limits; the rest
/// of the archive is not decoded. Throws t2n::Error (Check, ModelFile) when
/// the artifact cannot be read or has no graph.nnef.
std::string readGraphText(const std::filesystem::path& artifact);

} // namespace t2n
