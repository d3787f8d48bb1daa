// What the check needs from the translation besides the archive: which model
// input feeds each NNEF input, the NNEF outputs, and the TorchScript value
// each NNEF identifier stands for (for the first diverging operation). The
// translation makes it; the debug bundle stores it beside its archive
// (manifestBeside), so that `t2n check` reads such an archive without
// translating the model again.
#pragma once

#include "t2n/error.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace t2n {

inline constexpr int kManifestVersion = 1;

struct ManifestValue {
    std::string identifier; ///< NNEF identifier
    /// Debug name of the value of the hardened TorchScript graph it stands
    /// for; "" when it has no TorchScript counterpart.
    std::string torchValue;
    NodeRef node; ///< the TorchScript node (or parameter) it comes from
};

struct CheckManifest {
    std::vector<std::string> inputs; ///< NNEF graph inputs, in order
    /// For each NNEF input, the forward() argument it is.
    std::vector<size_t> inputIndices;
    std::vector<std::string> outputs; ///< NNEF graph outputs, in order
    std::vector<ManifestValue> values;

    /// Null when no value has that identifier.
    const ManifestValue* find(const std::string& identifier) const;

    std::string toJson() const;
    /// Throws t2n::Error (Check, Usage) naming `where` and the bad field.
    static CheckManifest fromJson(std::string_view text, const std::string& where);
};

/// Where the manifest of `artifact` is kept: "model.nnef.tgz.manifest.json".
std::filesystem::path manifestBeside(const std::filesystem::path& artifact);

} // namespace t2n
