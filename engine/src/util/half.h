// IEEE binary16 <-> binary32 without LibTorch: f16 weights and graphs, f16
// scales of Q4_0 blocks, f16 values read from files.
#pragma once

#include <cstdint>

namespace t2n::util {

/// Round to nearest, ties to even; overflow gives infinity, NaN stays NaN.
uint16_t floatToHalf(float f);
/// Exact for every half value.
float halfToFloat(uint16_t h);

} // namespace t2n::util
