#include "nnef/dat_writer.h"

#include "t2n/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace t2n::nnef {

namespace {

constexpr std::size_t kWriteMaxRank = 8;
// Pieces handed to the sink: large enough to amortise the per-call cost, small
// enough that a bool tensor never needs a whole packed copy.
constexpr std::size_t kPassThroughChunk = std::size_t{4} << 20; // 4 MiB of tensor bytes
constexpr std::size_t kBoolPackedChunk = std::size_t{1} << 20;  // 1 MiB of packed bytes

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

/// Element count with overflow and sign checks (TensorData::numel does neither).
uint64_t checkedNumel(const TensorData& t) {
    uint64_t n = 1;
    for (int64_t d : t.shape()) {
        if (d < 0)
            throw Error(Stage::Write, ErrorCode::Internal,
                        fmt::format("cannot write a .dat file for a tensor of shape {}: negative "
                                    "extent",
                                    shapeText(t.shape())),
                        "this is a bug in t2n: please report it with the model");
        const auto ud = static_cast<uint64_t>(d);
        if (ud != 0 && n > std::numeric_limits<uint64_t>::max() / ud)
            throw Error(Stage::Write, ErrorCode::Unsupported,
                        fmt::format("tensor of shape {} is too large for an NNEF .dat file",
                                    shapeText(t.shape())));
        n *= ud;
    }
    return n;
}

} // namespace

DatLayout datLayout(const TensorData& t, bool quantized) {
    if (t.shape().size() > kWriteMaxRank)
        throw Error(Stage::Write, ErrorCode::Internal,
                    fmt::format("cannot write a .dat file for a tensor of rank {} (shape {}): "
                                "NNEF tensor files hold at most rank {}",
                                t.shape().size(), shapeText(t.shape()), kWriteMaxRank),
                    "this tensor should have been rejected before writing; please report it");
    for (int64_t d : t.shape())
        if (d > std::numeric_limits<uint32_t>::max())
            throw Error(Stage::Write, ErrorCode::Unsupported,
                        fmt::format("tensor of shape {} has an extent above 2^32-1, which an "
                                    "NNEF .dat header cannot store",
                                    shapeText(t.shape())));

    DatLayout layout{};
    switch (t.dtype()) {
    case DType::F16:
    case DType::F32:
    case DType::F64:
        layout.itemType = DatItemType::Float;
        break;
    case DType::I8:
    case DType::I16:
    case DType::I32:
    case DType::I64:
        layout.itemType = DatItemType::SignedInt;
        break;
    case DType::U8:
        layout.itemType = DatItemType::UnsignedInt;
        break;
    case DType::Bool:
        layout.itemType = DatItemType::Bool;
        break;
    }
    if (quantized && layout.itemType == DatItemType::SignedInt)
        layout.itemType = DatItemType::QuantizedSigned;
    else if (quantized && layout.itemType == DatItemType::UnsignedInt)
        layout.itemType = DatItemType::QuantizedUnsigned;
    layout.bitsPerItem =
        t.dtype() == DType::Bool ? 1u : static_cast<uint32_t>(dtypeBits(t.dtype()));

    const uint64_t n = checkedNumel(t);
    if (n > std::numeric_limits<uint64_t>::max() / layout.bitsPerItem)
        throw Error(Stage::Write, ErrorCode::Unsupported,
                    fmt::format("tensor of shape {} is too large for an NNEF .dat file",
                                shapeText(t.shape())));
    layout.dataLength = (n * layout.bitsPerItem + 7) / 8;
    if (layout.dataLength > std::numeric_limits<uint32_t>::max())
        throw Error(Stage::Write, ErrorCode::Unsupported,
                    fmt::format("tensor of shape {} ({}) holds {} bytes, more than the 4 GiB an "
                                "NNEF .dat file can describe (its length field is 32-bit)",
                                shapeText(t.shape()), dtypeName(t.dtype()), layout.dataLength),
                    "split the weight in the model, or store it in a smaller dtype");
    return layout;
}

std::array<std::byte, kDatHeaderSize> datHeader(const TensorData& t, bool quantized) {
    const DatLayout layout = datLayout(t, quantized);
    std::array<std::byte, kDatHeaderSize> h{}; // zero: unused extents and reserved bytes
    h[0] = std::byte{0x4E};
    h[1] = std::byte{0xEF};
    h[2] = std::byte{1}; // version major
    h[3] = std::byte{0}; // version minor
    putU32(h, 4, static_cast<uint32_t>(layout.dataLength));
    putU32(h, 8, static_cast<uint32_t>(t.shape().size()));
    for (std::size_t i = 0; i < t.shape().size(); ++i)
        putU32(h, 12 + 4 * i, static_cast<uint32_t>(t.shape()[i]));
    putU32(h, 44, layout.bitsPerItem);
    // Low 16 bits: item-type code; high 16 bits: vendor (0 = Khronos).
    putU32(h, 48, static_cast<uint32_t>(layout.itemType) & 0xffffu);
    return h;
}

uint64_t datFileSize(const TensorData& t) {
    return kDatHeaderSize + datLayout(t).dataLength;
}

uint64_t writeDat(const TensorData& t, const ByteSink& sink, bool quantized) {
    const DatLayout layout = datLayout(t, quantized);
    const auto header = datHeader(t, quantized);
    const auto n = static_cast<std::size_t>(checkedNumel(t));
    if (n != 0 && t.empty())
        throw Error(Stage::Write, ErrorCode::Internal,
                    fmt::format("tensor of shape {} has no data to write", shapeText(t.shape())),
                    "this is a bug in t2n: please report it with the model");
    sink(header);
    uint64_t total = header.size();

    const std::span<const std::byte> src = t.bytes();
    if (t.dtype() != DType::Bool) {
        for (std::size_t off = 0; off < src.size(); off += kPassThroughChunk) {
            const auto piece = src.subspan(off, std::min(kPassThroughChunk, src.size() - off));
            sink(piece);
            total += piece.size();
        }
    } else {
        // One byte per item in memory (non-zero = true); item i becomes bit 7 - i%8
        // of packed byte i/8.
        std::vector<std::byte> packed;
        packed.reserve(std::min<std::size_t>(kBoolPackedChunk, (n + 7) / 8));
        constexpr std::size_t itemsPerChunk = kBoolPackedChunk * 8;
        for (std::size_t first = 0; first < n; first += itemsPerChunk) {
            const std::size_t count = std::min(itemsPerChunk, n - first);
            packed.assign((count + 7) / 8, std::byte{0});
            for (std::size_t j = 0; j < count; ++j)
                if (src[first + j] != std::byte{0})
                    packed[j / 8] |= static_cast<std::byte>(0x80u >> (j % 8));
            sink(packed);
            total += packed.size();
        }
    }
    if (total != kDatHeaderSize + layout.dataLength)
        throw Error(Stage::Write, ErrorCode::Internal,
                    fmt::format("wrote {} bytes for a .dat file of {} bytes (tensor of shape {})",
                                total, kDatHeaderSize + layout.dataLength, shapeText(t.shape())),
                    "this is a bug in t2n: please report it with the model");
    return total;
}

} // namespace t2n::nnef
