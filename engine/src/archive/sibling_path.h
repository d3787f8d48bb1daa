// Temporary names next to a destination, shared by every writer that must
// never leave a partial or overwritten result (archives, reports, debug
// bundles): the write protocol of t2n/outputs.h.
#pragma once

#include "t2n/error.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace t2n::archive {

/// ".<name>.t2n-<kind>-<pid>-<random>" next to `final`: hidden (tract ignores
/// dot files), in the same directory, so the final rename never crosses file
/// systems, and naming the process that owns it, so that a later run can
/// tell a temporary of a killed run from one still being written. A name too
/// long to leave room for that (over 219 bytes: a file name holds 255) is
/// cut and ends in '~' and a hash of the whole name. Every path handed out
/// is remembered for removeOwnTemporaries() (t2n/outputs.h).
std::filesystem::path siblingPath(const std::filesystem::path& final, std::string_view kind);

/// Remembers `path` (a work folder outside the destination's directory) as
/// a temporary of this process for removeOwnTemporaries().
void noteTemporary(const std::filesystem::path& path);

/// A new folder "<prefix>XXXXXX" in the system's temporary directory
/// ($TMPDIR, else /tmp), made by mkdtemp: a name nobody can guess or plant
/// a link at, readable by its owner only, one per call (so that exports
/// running at once in one process never share it), noted as a temporary
/// (noteTemporary). Throws t2n::Error (stage, OutputPath) when it cannot be made.
std::filesystem::path makePrivateTempFolder(std::string_view prefix, Stage stage);

/// A temporary this process named, still to be removed or put back.
struct OwnTemporary {
    std::filesystem::path path;
    std::filesystem::path final; ///< empty for noteTemporary()'s
    std::string kind;
};
/// Every temporary named so far, oldest first.
std::vector<OwnTemporary> ownTemporaries();

/// What a sibling name says: its kind ("tmp", "old", "probe") and owner.
struct SiblingName {
    std::string kind;
    std::optional<pid_t> pid; ///< absent in names written before t2n 0.1 recorded it
    /// The destination's file name, as the sibling name holds it; nullopt
    /// when it was cut to fit (only the full name's hash is left).
    std::optional<std::string> finalName;
};
/// The parts of `name` when it is a sibling name of `finalName`.
std::optional<SiblingName> parseSiblingName(std::string_view name, std::string_view finalName);
/// The parts of `name` when it is the sibling name of any destination.
std::optional<SiblingName> parseSiblingName(std::string_view name);

} // namespace t2n::archive
