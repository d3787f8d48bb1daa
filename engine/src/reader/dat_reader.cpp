// NNEF .dat tensor files, read from NNEF 1.0.5 "Tensor Data Format": a
// 128-byte little-endian header (magic, version, data length, rank, extents,
// bits per item, item type, reserved) followed by the row-major data. Every
// field is validated; nonzero reserved bytes are an error (the spec says they
// must be 0, and only pre-1.0.3 writers used them).
#include "reader/model_reader.h"

#include "t2n/error.h"
#include "util/memory_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>

namespace t2n::nnef {

static_assert(std::endian::native == std::endian::little,
              ".dat data is little-endian and is used in place");

namespace {

constexpr std::size_t kHeader = 128;
constexpr uint32_t kReadMaxRank = 8;

enum Code : uint32_t { Float = 0, UInt = 1, QUInt = 2, QInt = 3, Int = 4, Bool = 5 };
// Vendor "TR" (0x5452), GGML-ordered Q4_0 blocks (tract >= 0.21.11).
constexpr uint32_t kTractQ4_0 = 0x54523040u;

uint32_t u32(std::span<const std::byte> b, std::size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

[[noreturn]] void bad(const std::string& file, const std::string& message) {
    throw Error(Stage::Check, ErrorCode::ModelFile, fmt::format("{}: {}", file, message));
}

const char* codeName(uint32_t code) {
    switch (code) {
    case Float:
        return "float";
    case UInt:
        return "unsigned int";
    case QUInt:
        return "quantized unsigned int";
    case QInt:
        return "quantized signed int";
    case Int:
        return "signed int";
    case Bool:
        return "bool";
    default:
        return "unknown";
    }
}

[[noreturn]] void badBits(const std::string& file, uint32_t code, uint32_t bits,
                          const char* allowed) {
    bad(file, fmt::format("bits per item (offset 44) is {}, invalid for item type {} ({}); "
                          "expected {}",
                          bits, code, codeName(code), allowed));
}

/// The t2n dtype of (code, bits); throws for pairs the format forbids or
/// t2n cannot hold.
DType dtypeOf(const std::string& file, uint32_t code, uint32_t bits) {
    switch (code) {
    case Float:
        if (bits == 16)
            return DType::F16;
        if (bits == 32)
            return DType::F32;
        if (bits == 64)
            return DType::F64;
        badBits(file, code, bits, "16, 32 or 64");
    case Int:
    case QInt: // tract writes every integer tensor with the quantized codes
        if (bits == 8)
            return DType::I8;
        if (bits == 16)
            return DType::I16;
        if (bits == 32)
            return DType::I32;
        if (bits == 64)
            return DType::I64;
        if (bits == 0 || bits > 64)
            badBits(file, code, bits, "1 to 64");
        break;
    case UInt:
    case QUInt:
        if (bits == 8)
            return DType::U8;
        if (bits == 0 || bits > 64)
            badBits(file, code, bits, "1 to 64");
        break;
    case Bool:
        if (bits == 1 || bits == 8)
            return DType::Bool;
        badBits(file, code, bits, "1 or 8");
    default:
        bad(file, fmt::format("item type code (offset 48) is {}, not a Khronos code (0 float, 1 "
                              "unsigned, 2 quantized unsigned, 3 quantized signed, 4 signed, 5 "
                              "bool)",
                              code));
    }
    bad(file, fmt::format("{}-bit {} items are valid NNEF but not supported: t2n has no such "
                          "element type",
                          bits, codeName(code)));
}

} // namespace

struct DatDecoder::Header {
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    uint32_t bits = 0;
    uint32_t length = 0; ///< data bytes
    uint64_t count = 0;  ///< items
    bool q4_0 = false;   ///< tract's Q4_0 blocks, decoded to f32 by finish()
};

namespace {
/// Every field of the 128-byte header, validated (NNEF 1.0.5 "Tensor Data
/// Format"); the file's total length is checked at the end.
DatDecoder::Header parseHeader(std::span<const std::byte> bytes, const std::string& f);
DatDecoder::Header q4_0Header(const std::string& f, std::vector<int64_t> shape, uint64_t count,
                              uint32_t bits, uint32_t length);
TensorData decodeQ4_0(const std::vector<std::byte>& raw, std::vector<int64_t> shape, std::size_t n);
} // namespace

DatDecoder::DatDecoder(std::string fileName, const TensorData* known, uint64_t sizeHint)
    : file_(std::move(fileName)), known_(known), sizeHint_(sizeHint) {}

DatDecoder::~DatDecoder() = default;

void DatDecoder::feed(std::span<const std::byte> piece) {
    if (piece.empty())
        return;
    if (fed_ < kHeader) {
        const std::size_t take = std::min<std::size_t>(piece.size(), kHeader - fed_);
        std::memcpy(head_.data() + fed_, piece.data(), take);
        fed_ += take;
        piece = piece.subspan(take);
        if (fed_ < kHeader)
            return;
        header_ = std::make_unique<Header>(parseHeader(head_, file_));
        startData();
    }
    fed_ += piece.size();
    const auto room = static_cast<std::size_t>(
        std::min<uint64_t>(piece.size(), uint64_t(header_->length) - stored_));
    piece = piece.first(room); // bytes past the length only count (finish() refuses them)
    if (matching_) {
        if (std::memcmp(known_->bytes().data() + stored_, piece.data(), piece.size()) == 0) {
            stored_ += piece.size();
            return;
        }
        // The file differs from the tensor: from here on, keep what it holds.
        matching_ = false;
        data_->reserve(header_->length);
        const auto same = known_->bytes().first(static_cast<std::size_t>(stored_));
        data_->insert(data_->end(), same.begin(), same.end());
    }
    data_->insert(data_->end(), piece.begin(), piece.end());
    stored_ += piece.size();
}

void DatDecoder::startData() {
    const Header& h = *header_;
    data_ = std::make_shared<std::vector<std::byte>>();
    matching_ = known_ && h.dtype != DType::Bool && !h.q4_0 && known_->dtype() == h.dtype &&
                known_->shape() == h.shape && known_->byteSize() == h.length &&
                (h.length == 0 || !known_->empty());
    if (!matching_) {
        // The container's size bounds the reservation: a header alone cannot
        // make the reader allocate gigabytes.
        uint64_t reserve = h.length;
        if (sizeHint_ > 0)
            reserve = std::min<uint64_t>(reserve, sizeHint_ > kHeader ? sizeHint_ - kHeader : 0);
        data_->reserve(static_cast<std::size_t>(reserve));
    }
}

bool DatDecoder::blockQuantized() const {
    return header_ && header_->q4_0;
}

TensorData DatDecoder::finish() {
    const std::string& f = file_;
    if (fed_ < kHeader)
        bad(f, fmt::format("file is {} bytes, shorter than the 128-byte header", fed_));
    Header& h = *header_;
    const uint64_t expectedSize = kHeader + uint64_t(h.length);
    if (fed_ < expectedSize)
        bad(f, fmt::format("file is truncated: {} bytes, but the header promises 128 + {} = {}",
                           fed_, h.length, expectedSize));
    if (fed_ > expectedSize)
        bad(f, fmt::format("file is {} bytes, {} more than the 128 + {} the header promises", fed_,
                           fed_ - expectedSize, h.length));
    if (matching_)
        return *known_; // same dtype, shape and bytes: the caller's tensor
    const auto n = static_cast<std::size_t>(h.count);
    if (h.q4_0)
        return decodeQ4_0(*data_, std::move(h.shape), n);
    if (h.dtype == DType::Bool) {
        // Unpack to one byte per item; 1-bit items are packed MSB first.
        const std::vector<std::byte>& raw = *data_;
        auto out = std::make_shared<std::vector<std::byte>>(n);
        for (std::size_t i = 0; i < n; ++i) {
            const auto byte = std::to_integer<unsigned>(h.bits == 1 ? raw[i / 8] : raw[i]);
            const bool on = h.bits == 1 ? ((byte >> (7 - i % 8)) & 1u) != 0 : byte != 0;
            (*out)[i] = std::byte{on ? uint8_t(1) : uint8_t(0)};
        }
        const std::byte* data = out->data();
        return TensorData(h.dtype, std::move(h.shape), data, std::move(out));
    }
    const std::byte* data = data_->data();
    return TensorData(h.dtype, std::move(h.shape), data, std::move(data_));
}

TensorData readDat(std::vector<std::byte> bytes, const std::string& fileName) {
    DatDecoder decoder(fileName, nullptr, bytes.size());
    decoder.feed(bytes);
    return decoder.finish();
}

namespace {
void checkReserved(std::span<const std::byte> bytes, const std::string& f) {
    for (std::size_t at = 52; at < kHeader; ++at)
        if (bytes[at] != std::byte{0})
            bad(f, fmt::format("reserved byte at offset {} is 0x{:02X}; reserved bytes (offsets "
                               "52-127) must be 0 (pre-1.0.3 quantization headers are not "
                               "supported)",
                               at, std::to_integer<unsigned>(bytes[at])));
}

DatDecoder::Header parseHeader(std::span<const std::byte> bytes, const std::string& f) {
    if (bytes[0] != std::byte{0x4E} || bytes[1] != std::byte{0xEF})
        bad(f,
            fmt::format("bad magic (offset 0): {:02X} {:02X}, expected 4E EF",
                        std::to_integer<unsigned>(bytes[0]), std::to_integer<unsigned>(bytes[1])));
    const auto major = std::to_integer<unsigned>(bytes[2]);
    const auto minor = std::to_integer<unsigned>(bytes[3]);
    if (major != 1 || minor != 0)
        bad(f, fmt::format("unsupported version (offset 2) {}.{}, expected 1.0", major, minor));
    const uint32_t length = u32(bytes, 4);
    const uint32_t rank = u32(bytes, 8);
    if (rank > kReadMaxRank)
        bad(f, fmt::format("rank (offset 8) is {}, more than the maximum of 8", rank));
    std::vector<int64_t> shape;
    // Saturate the item count: beyond 2^40 items no u32 data length can match.
    constexpr uint64_t kSaturated = uint64_t(1) << 40;
    uint64_t count = 1;
    for (uint32_t i = 0; i < kReadMaxRank; ++i) {
        const uint32_t extent = u32(bytes, 12 + 4 * i);
        if (i < rank) {
            shape.push_back(extent);
            // (count <= 2^40 and extent < 2^32: the product could wrap 64 bits.)
            count = count == 0 || extent == 0     ? 0
                    : count > kSaturated / extent ? kSaturated
                                                  : std::min(kSaturated, count * extent);
        } else if (extent != 0) {
            bad(f, fmt::format("extent {} (offset {}) is {}, but a rank-{} tensor must leave "
                               "unused extents 0",
                               i, 12 + 4 * i, extent, rank));
        }
    }
    const uint32_t bits = u32(bytes, 44);
    const uint32_t itemType = u32(bytes, 48);
    if (itemType == kTractQ4_0) {
        checkReserved(bytes, f);
        return q4_0Header(f, std::move(shape), count, bits, length);
    }
    if (const uint32_t vendor = itemType >> 16; vendor != 0)
        bad(f, fmt::format("item type (offset 48) 0x{:08X} has vendor 0x{:04X}{}; only Khronos "
                           "item types (vendor 0) are supported",
                           itemType, vendor,
                           vendor == 0x5452 ? " (tract: string or complex data)" : ""));
    const DType dtype = dtypeOf(f, itemType & 0xFFFF, bits);
    checkReserved(bytes, f);
    const uint64_t needed = (count * bits + 7) / 8;
    if (needed != length)
        bad(f,
            fmt::format("data length (offset 4) is {} bytes, but {}{} items of {} bits need {}{}",
                        length, count == kSaturated ? "more than " : "", count, bits,
                        count == kSaturated ? "more than " : "", needed));
    DatDecoder::Header h;
    h.dtype = dtype;
    h.shape = std::move(shape);
    h.bits = bits;
    h.length = length;
    h.count = count;
    return h;
}

// tract's Q4_0 (item type 0x5452:3040): blocks of 32 values, 18 bytes each.
DatDecoder::Header q4_0Header(const std::string& f, std::vector<int64_t> shape, uint64_t count,
                              uint32_t bits, uint32_t length) {
    if (bits != 0xFFFFFFFFu)
        bad(f, fmt::format("bits per item (offset 44) of a Q4_0 tensor is {}, expected "
                           "0xFFFFFFFF",
                           bits));
    if (shape.size() < 2 || count == 0 || (count / static_cast<uint64_t>(shape[0])) % 32 != 0)
        bad(f, "a Q4_0 tensor needs rank 2 or more and a multiple of 32 values per row");
    if (count / 32 * 18 != length)
        bad(f, fmt::format("data length (offset 4) is {} bytes, but {} Q4_0 values need {}", length,
                           count, count / 32 * 18));
    // Decoded, the values take 7 times the bytes the file holds.
    util::checkedTensorBytes(shape, DType::F32, Stage::Check, f);
    DatDecoder::Header h;
    h.dtype = DType::F32;
    h.shape = std::move(shape);
    h.bits = bits;
    h.length = length;
    h.count = count;
    h.q4_0 = true;
    return h;
}

float halfBits(uint16_t h) {
    const int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    const float mag = exp == 0    ? std::ldexp(static_cast<float>(man), -24)
                      : exp == 31 ? (man ? NAN : INFINITY)
                                  : std::ldexp(static_cast<float>(man | 0x400), exp - 25);
    return (h & 0x8000) ? -mag : mag;
}

// Each block: f16 scale d, then byte j = code j (low nibble) | code j+16
// (high nibble); value = (code - 8) * d.
TensorData decodeQ4_0(const std::vector<std::byte>& raw, std::vector<int64_t> shape,
                      std::size_t n) {
    auto out = std::make_shared<std::vector<float>>(n);
    for (std::size_t b = 0; b < n / 32; ++b) {
        const std::byte* block = raw.data() + b * 18;
        const float d = halfBits(static_cast<uint16_t>(std::to_integer<unsigned>(block[0]) |
                                                       (std::to_integer<unsigned>(block[1]) << 8)));
        float* dst = out->data() + b * 32;
        for (std::size_t j = 0; j < 16; ++j) {
            const auto byte = std::to_integer<int>(block[2 + j]);
            dst[j] = static_cast<float>((byte & 0x0f) - 8) * d;
            dst[j + 16] = static_cast<float>((byte >> 4) - 8) * d;
        }
    }
    const auto* bytes = reinterpret_cast<const std::byte*>(out->data());
    return TensorData(DType::F32, std::move(shape), bytes, std::move(out));
}
} // namespace

} // namespace t2n::nnef
