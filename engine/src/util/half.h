// IEEE binary16 <-> binary32 without LibTorch: f16 weights and graphs, f16
// scales of Q4_0 blocks, f16 values read from files.
#pragma once

#include "t2n/tensor_data.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace t2n::util {

/// What a weights listing says of a bf16 tensor written as f32.
inline constexpr const char* kBf16WidenedNote = "bf16 widened to f32 (NNEF .dat has no bf16)";

/// Round to nearest, ties to even; overflow gives infinity, NaN stays NaN.
uint16_t floatToHalf(float f);
/// Exact for every half value.
float halfToFloat(uint16_t h);
/// `count` little-endian bf16 values as an f32 tensor of `shape`, in a buffer
/// of its own. bf16 is the top half of an f32: widening is exact.
TensorData widenBf16(const std::byte* src, std::vector<int64_t> shape, uint64_t count);

} // namespace t2n::util
