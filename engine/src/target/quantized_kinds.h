// Which TorchScript kinds tract computes exactly on stored quantized integers
// (reference/quantized-and-tract-versions.md): the translator keeps them on
// the integers and sends every other arithmetic on quantized tensors through
// f32; the check expects them to equal PyTorch's values exactly.
#pragma once

#include <string_view>

namespace t2n::target {

/// True for quantize_per_tensor / dequantize (t2n writes PyTorch's rounding)
/// and for the kinds that move or select stored integers without arithmetic:
/// relu (tract's max(x, 0.0) with 0.0 cast to the zero point), max pools
/// (comparisons of stored integers), reshapes, transposes, slices, chunks,
/// concatenations of equal quantization, nearest upsampling.
bool keepsQuantizedIntegers(std::string_view kind);

} // namespace t2n::target
