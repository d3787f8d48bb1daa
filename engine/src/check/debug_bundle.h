// The debug bundle written when a check fails (torch_to_nnef's
// debug_bundle_path, reference/torch-to-nnef-upstream.md §5): everything
// needed to replay the tract check elsewhere, as a folder or a .tgz.
// Like the exporter, it is written under a temporary name and renamed at the
// end (never a partial bundle), and a .tgz is reproducible (entry times 0,
// owner 0, no gzip timestamp). Torch-free: the caller produces the contents.
#pragma once

#include "check/tract_cli.h"

#include <filesystem>
#include <optional>
#include <string>

namespace t2n::check {

struct DebugBundle {
    /// The exported artifact (folder, .tar or .tgz), copied byte for byte.
    std::filesystem::path modelArchive;
    /// The io.npz tract was (or would have been) run with.
    std::filesystem::path ioNpz;
    /// Version, tolerance and resource use of the tract command in run.sh;
    /// its archive and ioBundle names are replaced by the bundle's own.
    TractCommandOptions tract;
    /// run.sh's default tract binary (its first argument overrides it);
    /// empty: "tract" from the PATH.
    std::string tractProgram;
    std::string reportJson;
    std::string hardenedGraph;
    std::optional<std::string> divergenceJson;
    /// The export as a recipe (t2n/recipe.h) whose output is the bundled
    /// model, so that `t2n-studio BUNDLE` opens the same export; may be empty.
    std::string recipeJson;
};

/// Name of the model inside the bundle: model.nnef (folder), model.nnef.tar
/// or model.nnef.tgz, after the artifact's form.
std::string bundledModelName(const std::filesystem::path& modelArchive);

/// The tract command line of run.sh, relative to the bundle folder.
TractCommand bundleTractCommand(const DebugBundle& bundle);

/// The text of run.sh and README.txt.
std::string runScript(const DebugBundle& bundle);
std::string readmeText(const DebugBundle& bundle);

/// Writes the bundle to `destination`: a .tgz when the path ends in .tgz or
/// .tar.gz (its entries under one folder named after the file), else a
/// folder. An existing bundle there is replaced, only once the new one is
/// complete; anything else there is refused. Throws t2n::Error (Check,
/// OutputPath) when it cannot be written; nothing is left behind then.
void writeDebugBundle(const std::filesystem::path& destination, const DebugBundle& bundle);

} // namespace t2n::check
