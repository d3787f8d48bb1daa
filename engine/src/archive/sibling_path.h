// Temporary names next to a destination, shared by every writer that must
// never leave a partial or overwritten result (archives, debug bundles).
#pragma once

#include <filesystem>
#include <string_view>

namespace t2n::archive {

/// ".<name>.t2n-<kind>-<random>" next to `final`: hidden (tract ignores dot
/// files) and in the same directory, so the final rename never crosses file
/// systems.
std::filesystem::path siblingPath(const std::filesystem::path& final, std::string_view kind);

} // namespace t2n::archive
