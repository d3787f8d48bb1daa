// tract_core_properties: provenance key/values tract keeps with the model.
#pragma once

#include "t2n/options.h"
#include "target/tract_target.h"

#include <string>
#include <utility>
#include <vector>

namespace t2n::target {

/// tract_target_version, t2n_version, torch_version, exported_model, then
/// os/hostname/user (identity properties), export_date (when asked), then the
/// user's own properties. Values are sanitized. Throws t2n::Error (Usage) for
/// a user key that is empty, not printable or already used.
std::vector<std::pair<std::string, std::string>> buildProperties(const ExportOptions& options,
                                                                 const TractTarget& target,
                                                                 const PropertyContext& ctx);

} // namespace t2n::target
