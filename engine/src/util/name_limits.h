// Names the user gives (inputs, --input-name, --output-name, dynamic-axis
// tensors and symbols, .npz members) become NNEF identifiers, .npz member
// names and labels in every view. A name of tens of thousands of characters
// is a mistake (a pasted file, a runaway script), never a name: it is
// refused before any work, instead of reaching libarchive's zip writer
// (which overflows a buffer on member names over 64 KiB) or the studio's
// graph layout (minutes per label).
#pragma once

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

} // namespace t2n::util
