// Element types t2n moves between TorchScript, its IR and NNEF.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace t2n {

enum class DType { F16, F32, F64, I8, I16, I32, I64, U8, Bool };

/// Short name used on the command line and in reports: f16, f32, ..., bool.
std::string_view dtypeName(DType t);
std::optional<DType> parseDType(std::string_view name);

/// Bits one element occupies in memory (bool: 8; its .dat form packs to 1).
std::size_t dtypeBits(DType t);
bool isFloat(DType t);
bool isSignedInt(DType t);

} // namespace t2n
