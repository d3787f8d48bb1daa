#include "nnef/q4_0.h"

#include "t2n/error.h"
#include "util/half.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

namespace t2n::nnef {

namespace {

constexpr uint32_t kTractVendor = 0x5452;
constexpr uint32_t kQ4_0ItemType = 0x3040;

uint64_t dataLength(const TensorData& t) {
    return static_cast<uint64_t>(t.numel()) / kQ4_0BlockValues * kQ4_0BlockBytes;
}

void requireEligible(const TensorData& t) {
    if (t.dtype() != DType::F32 || !q4_0Eligible(t.shape()))
        throw Error(Stage::Write, ErrorCode::Internal,
                    "a tensor that cannot be stored as Q4_0 was marked for it",
                    "this is a bug in t2n: please report it with the model");
}

} // namespace

bool q4_0Eligible(const std::vector<int64_t>& shape) {
    if (shape.size() < 2 || shape.size() > 4 || shape[0] <= 0)
        return false;
    int64_t row = 1;
    for (size_t i = 1; i < shape.size(); ++i) {
        if (shape[i] <= 0)
            return false;
        row *= shape[i];
    }
    return row % static_cast<int64_t>(kQ4_0BlockValues) == 0;
}

std::array<std::byte, kQ4_0BlockBytes> quantizeQ4_0Block(std::span<const float, 32> w) {
    float amax = 0, max = 0;
    for (float v : w)
        if (amax < std::fabs(v)) {
            amax = std::fabs(v);
            max = v;
        }
    const float scale = max / -8.0f;
    const float rScale = scale == 0.0f ? 0.0f : 1.0f / scale;
    std::array<std::byte, kQ4_0BlockBytes> out{};
    const uint16_t d = util::floatToHalf(scale);
    out[0] = static_cast<std::byte>(d & 0xffu);
    out[1] = static_cast<std::byte>(d >> 8);
    auto code = [&](float v) {
        // Rust's `as i8` truncates toward zero and saturates.
        const float x = v * rScale + 8.5f;
        const int q = std::isnan(x)  ? 0
                      : x >= 127.0f  ? 127
                      : x <= -128.0f ? -128
                                     : static_cast<int>(x);
        return static_cast<uint8_t>(std::min(q, 15) & 0x0f);
    };
    for (std::size_t j = 0; j < 16; ++j)
        out[2 + j] = static_cast<std::byte>(code(w[j]) | (code(w[j + 16]) << 4));
    return out;
}

void dequantizeQ4_0Block(std::span<const std::byte, kQ4_0BlockBytes> block,
                         std::span<float, 32> out) {
    const float d = util::halfToFloat(static_cast<uint16_t>(static_cast<uint8_t>(block[0]) |
                                                            (static_cast<uint8_t>(block[1]) << 8)));
    for (std::size_t j = 0; j < 16; ++j) {
        const auto b = static_cast<uint8_t>(block[2 + j]);
        out[j] = static_cast<float>(static_cast<int>(b & 0x0fu) - 8) * d;
        out[j + 16] = static_cast<float>(static_cast<int>(b >> 4) - 8) * d;
    }
}

void roundTripQ4_0(std::span<float> w) {
    for (std::size_t at = 0; at + kQ4_0BlockValues <= w.size(); at += kQ4_0BlockValues) {
        const auto block = w.subspan(at).first<kQ4_0BlockValues>();
        const auto q = quantizeQ4_0Block(block);
        dequantizeQ4_0Block(q, block);
    }
}

uint64_t q4_0DatFileSize(const TensorData& t) {
    return kDatHeaderSize + dataLength(t);
}

uint64_t writeQ4_0Dat(const TensorData& t, const ByteSink& sink) {
    requireEligible(t);
    std::array<std::byte, kDatHeaderSize> h{};
    h[0] = std::byte{0x4E};
    h[1] = std::byte{0xEF};
    h[2] = std::byte{1};
    putU32(h, 4, static_cast<uint32_t>(dataLength(t)));
    putU32(h, 8, static_cast<uint32_t>(t.shape().size()));
    for (std::size_t i = 0; i < t.shape().size(); ++i)
        putU32(h, 12 + 4 * i, static_cast<uint32_t>(t.shape()[i]));
    putU32(h, 44, 0xffffffffu);
    putU32(h, 48, (kTractVendor << 16) | kQ4_0ItemType);
    sink(h);
    uint64_t total = h.size();
    // A few thousand blocks per piece: streamed, never the whole tensor twice.
    constexpr std::size_t kBlocksPerPiece = 4096;
    std::vector<std::byte> piece;
    piece.reserve(kBlocksPerPiece * kQ4_0BlockBytes);
    const auto n = static_cast<std::size_t>(t.numel());
    std::array<float, kQ4_0BlockValues> block{};
    const std::byte* src = t.bytes().data();
    for (std::size_t at = 0; at < n; at += kQ4_0BlockValues) {
        std::memcpy(block.data(), src + at * sizeof(float), sizeof block);
        const auto q = quantizeQ4_0Block(block);
        piece.insert(piece.end(), q.begin(), q.end());
        if (piece.size() >= kBlocksPerPiece * kQ4_0BlockBytes || at + kQ4_0BlockValues >= n) {
            sink(piece);
            total += piece.size();
            piece.clear();
        }
    }
    return total;
}

namespace {

// tract keeps Q4_0 data compressed (an exotic tensor); only these
// operations dequantize it (core/src/ops: einsum, cnn/conv, array/gather).
// deconv, elementwise and shape operations fail on it.
bool readsBlocks(const Invocation& inv) {
    if (inv.op == "matmul" || inv.op == "linear" || inv.op == "conv" ||
        inv.op == "tract_core_einsum")
        return true;
    return inv.op == "tract_core_gather" &&
           std::any_of(inv.kwargs.begin(), inv.kwargs.end(),
                       [](const auto& kw) { return kw.first == "datum_type"; });
}

void forEachIdentifier(const Expr& e, const std::function<void(const std::string&)>& fn) {
    if (e.isIdentifier())
        fn(e.text);
    for (const auto& item : e.items)
        forEachIdentifier(item, fn);
}

// identifier -> the first operation reading it that cannot read Q4_0 blocks.
std::map<std::string, std::string> blockIntolerantReaders(const Document& doc) {
    std::map<std::string, std::string> found;
    auto note = [&](const std::string& op) {
        return [&found, &op](const std::string& id) { found.emplace(id, op); };
    };
    for (const auto& inv : doc.body) {
        if (readsBlocks(inv))
            continue;
        for (const auto& a : inv.args)
            forEachIdentifier(a, note(inv.op));
        for (const auto& kw : inv.kwargs)
            forEachIdentifier(kw.second, note(inv.op));
    }
    for (const auto& out : doc.outputs)
        found.emplace(out, "a graph output");
    return found;
}

} // namespace

size_t markQ4_0Variables(Document& doc, const std::set<const void*>& storages,
                         const std::map<const void*, TensorData>& f32Of,
                         std::vector<std::string>* refused) {
    const auto intolerant = blockIntolerantReaders(doc);
    size_t marked = 0;
    for (auto& v : doc.variables) {
        if (v.origin != "parameter" || v.quantized)
            continue;
        TensorData f32 = v.data;
        // The f16 copy may be a reshaped view (a weight given leading unit
        // axes): same element count, same order.
        if (auto it = f32Of.find(v.data.identity()); v.data.dtype() == DType::F16 &&
                                                     it != f32Of.end() &&
                                                     it->second.numel() == v.data.numel())
            f32 = it->second.reshaped(v.data.shape());
        if (f32.dtype() != DType::F32 || !storages.count(f32.identity()) ||
            !q4_0Eligible(f32.shape()))
            continue;
        if (auto it = intolerant.find(v.identifier); it != intolerant.end()) {
            if (refused)
                refused->push_back(fmt::format("{}: read by '{}', which tract cannot apply to "
                                               "Q4_0 blocks",
                                               v.label, it->second));
            continue;
        }
        v.data = std::move(f32);
        v.q4_0 = true;
        ++marked;
    }
    return marked;
}

} // namespace t2n::nnef
