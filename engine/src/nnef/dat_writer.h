// NNEF tensor files (.dat): a 128-byte little-endian header followed by the
// raw row-major data (NNEF 1.0.5 "Tensor Data Format"; see
// reference/nnef-and-tract.md §1.4). Bool items are bit-packed, MSB first.
#pragma once

#include "t2n/tensor_data.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

namespace t2n::nnef {

inline constexpr std::size_t kDatHeaderSize = 128;

/// Writes `v` little-endian at `offset` of a header.
inline void putU32(std::array<std::byte, kDatHeaderSize>& h, std::size_t offset, uint32_t v) {
    for (std::size_t i = 0; i < 4; ++i)
        h[offset + i] = static_cast<std::byte>((v >> (8 * i)) & 0xffu);
}

/// Item-type codes of the Khronos vendor (high 16 bits = 0).
enum class DatItemType : uint32_t {
    Float = 0,
    UnsignedInt = 1,
    QuantizedUnsigned = 2,
    QuantizedSigned = 3,
    SignedInt = 4,
    Bool = 5,
};

struct DatLayout {
    DatItemType itemType;
    uint32_t bitsPerItem;
    uint64_t dataLength; ///< bytes after the header
};

/// Item type, bits and data length for a tensor. Throws t2n::Error (Write)
/// for a rank above 8 or data longer than the u32 length field allows.
/// `quantized`: integer items are the stored form of a quantized tensor
/// (codes 2/3 instead of 1/4; scale and zero point live in graph.quant).
DatLayout datLayout(const TensorData& t, bool quantized = false);

/// The exact 128 header bytes for `t`.
std::array<std::byte, kDatHeaderSize> datHeader(const TensorData& t, bool quantized = false);

/// Streams header then data to `sink` in pieces (no whole-tensor copy except
/// for bool, which is packed in chunks). Returns the total byte count.
using ByteSink = std::function<void(std::span<const std::byte>)>;
uint64_t writeDat(const TensorData& t, const ByteSink& sink, bool quantized = false);

/// Total file size of the .dat for `t`.
uint64_t datFileSize(const TensorData& t);

} // namespace t2n::nnef
