// Temporary names next to a destination, shared by every writer that must
// never leave a partial or overwritten result (archives, reports, debug
// bundles): the write protocol of t2n/outputs.h.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace t2n::archive {

/// ".<name>.t2n-<kind>-<pid>-<random>" next to `final`: hidden (tract ignores
/// dot files), in the same directory, so the final rename never crosses file
/// systems, and naming the process that owns it, so that a later run can
/// tell a temporary of a killed run from one still being written.
std::filesystem::path siblingPath(const std::filesystem::path& final, std::string_view kind);

/// What a sibling name says: its kind ("tmp", "old", "probe") and owner.
struct SiblingName {
    std::string kind;
    std::optional<pid_t> pid; ///< absent in names written before t2n 0.1 recorded it
};
/// The parts of `name` when it is a sibling name of `final`'s file name.
std::optional<SiblingName> parseSiblingName(std::string_view name, std::string_view finalName);

} // namespace t2n::archive
