// Names the user gives (inputs, --input-name, --output-name, dynamic-axis
// tensors and symbols, .npz members) become NNEF identifiers, .npz member
// names and labels in every view. A name of tens of thousands of characters
// is a mistake (a pasted file, a runaway script), never a name: it is
// refused before any work, instead of reaching libarchive's zip writer
// (which overflows a buffer on member names over 64 KiB) or the studio's
// graph layout (minutes per label).
#pragma once

#include "t2n/error.h"
#include "t2n/options.h"

#include <cstddef>
#include <string_view>

namespace t2n::util {

/// The longest name t2n takes, in bytes: room for any identifier a person
/// or a naming scheme writes, far below the 64 KiB of a zip member name.
inline constexpr std::size_t kMaxNameBytes = 1024;

/// Throws Error(Load, Usage) naming `what` ("input name") when `name` is
/// longer than kMaxNameBytes.
void checkNameLength(std::string_view name, std::string_view what);
/// Every name `options` holds.
void checkNameLengths(const ExportOptions& options);

/// A path that names a file (`what`: "output path", "$.output") must be one
/// the operating system can hold: a NUL byte ends a path for every system
/// call, so "model.pt\0.nnef.tgz" would pass a suffix check on the whole
/// text and then write "model.pt". Throws Error(stage, code) naming `what`,
/// before anything compares or opens the path.
void checkPathText(std::string_view path, std::string_view what, Stage stage = Stage::Load,
                   ErrorCode code = ErrorCode::Usage);
/// Every path `options` holds (values files, debug bundle, tract binary).
void checkOptionPaths(const ExportOptions& options);

} // namespace t2n::util
