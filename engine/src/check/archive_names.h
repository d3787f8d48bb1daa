#pragma once

#include "t2n/options.h"

#include <filesystem>
#include <optional>
#include <string>

namespace t2n::check {

/// `t2n check ARCHIVE --model M` translates the model again with the check's
/// options and compares value by value under the names that translation
/// gives. An archive exported with `--input-name` or `--output-name` names
/// its graph's inputs and outputs otherwise, and the check found none of its
/// outputs; one exported with `--dynamic-axis` lays out some weights for the
/// symbolic axis. When the options name nothing (declare no dynamic axis)
/// themselves, this returns them with the archive's own names (its
/// externals' symbols) and in `said`, a line for the log; nothing when both
/// already agree or the options give them, or the archive cannot be read
/// (the check's own read reports that).
std::optional<ExportOptions> namedAsArchive(const std::filesystem::path& artifact,
                                            const ExportOptions& options, std::string* said);

} // namespace t2n::check
