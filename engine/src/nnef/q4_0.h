// tract's Q4_0 block quantization (GGML's block_q4_0, tract >= 0.21.11):
// each run of 32 weights in row-major order becomes 18 bytes, an f16 scale d
// then 16 bytes of 4-bit codes q (byte j: weight j in the low nibble, weight
// j+16 in the high one), standing for (q - 8) * d. The rules follow tract's
// linalg/src/frame/block_quant/q4_0.rs (quant_block), so that a weight t2n
// quantizes is the weight tract would compute from the same floats:
//   max = the weight of largest magnitude (with its sign), d = max / -8,
//   q = min(15, trunc(w * (1/d) + 8.5)), and q = 8 everywhere when d == 0.
// The .dat header: vendor 0x5452 ("TR"), item type 0x3040, bits per item
// 0xFFFFFFFF, the logical shape, data length = n / 32 * 18.
#pragma once

#include "nnef/dat_writer.h"
#include "nnef/document.h"
#include "t2n/tensor_data.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <vector>

namespace t2n::nnef {

inline constexpr std::size_t kQ4_0BlockValues = 32;
inline constexpr std::size_t kQ4_0BlockBytes = 18;

/// Whether `shape` can be stored as Q4_0: rank 2 to 4 (upstream's rule, tract
/// flattens them to [shape[0], rest]) and a multiple of 32 weights per row.
bool q4_0Eligible(const std::vector<int64_t>& shape);

/// One block: 32 floats to 18 bytes, and back (dequantized in f32, as tract
/// does on x86).
std::array<std::byte, kQ4_0BlockBytes> quantizeQ4_0Block(std::span<const float, 32> w);
void dequantizeQ4_0Block(std::span<const std::byte, kQ4_0BlockBytes> block,
                         std::span<float, 32> out);

/// Replaces each value by the one tract reads back from its Q4_0 form, in
/// place (`w.size()` a multiple of 32). Applying it twice changes nothing, so
/// a model whose weights went through it is exactly what the archive stores.
void roundTripQ4_0(std::span<float> w);

/// Header + blocks of a Q4_0 .dat for `t` (f32, q4_0Eligible). Returns the
/// byte count. Throws t2n::Error (Write, Internal) for any other tensor.
uint64_t writeQ4_0Dat(const TensorData& t, const ByteSink& sink);
uint64_t q4_0DatFileSize(const TensorData& t);

/// Marks for Q4_0 the parameter variables of `doc` whose bytes are one of
/// `storages` (weights roundTripQ4_0 already rounded) and that can be stored
/// so. An f16 variable (--compute f16) listed in `f32Of` (its f16 bytes ->
/// the f32 tensor it was converted from) is marked when that f32 tensor is,
/// and gets it back: the blocks are made from the exact rounded weights.
/// A variable read by an operation tract cannot apply to Q4_0 blocks (only
/// matmul, linear, conv, tract_core_einsum and a tract_core_gather naming
/// its datum_type can) stays as it is; `refused`, when given, receives
/// "LABEL: read by 'OP' ..." for each. Returns how many were marked.
size_t markQ4_0Variables(Document& doc, const std::set<const void*>& storages,
                         const std::map<const void*, TensorData>& f32Of = {},
                         std::vector<std::string>* refused = nullptr);

} // namespace t2n::nnef
