// Which operation names each target accepts: the Khronos NNEF 1.0.5 standard
// operations (stdlib primitives and compound fragments) and, for tract, the
// standard set tract registers (minus what it lacks, plus recip/square) and
// the tract_* operations with the registry each needs. One table
// (op_catalog.cpp), written from reference/nnef-and-tract.md §1.3, §2.2, §2.3.
#pragma once

#include <span>
#include <string_view>

namespace t2n::target {

/// The registry of tract's standard operations: always loaded.
inline constexpr std::string_view kTractStandardRegistry = "tract_nnef";

struct OpInfo {
    std::string_view name;
    bool khronos;           ///< in the Khronos NNEF 1.0.5 standard library
    std::string_view tract; ///< tract registry that provides it; "" = tract lacks it
    std::string_view note;  ///< why tract lacks it / what to use instead ("" = nothing to say)
};

std::span<const OpInfo> opCatalog();
/// nullptr for names in neither set.
const OpInfo* findOp(std::string_view name);

/// The tract registries an `extension tract_registry X;` line can name.
std::span<const std::string_view> tractRegistries();
/// Canonical registry name for a declared one ("pulse" -> "tract_pulse");
/// "" when it is no known registry.
std::string_view canonicalRegistry(std::string_view declared);

} // namespace t2n::target
