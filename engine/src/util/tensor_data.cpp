#include "t2n/tensor_data.h"

#include "util/half.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace t2n {

TensorData::TensorData(DType dtype, std::vector<int64_t> shape, const std::byte* bytes,
                       std::shared_ptr<const void> owner)
    : dtype_(dtype), shape_(std::move(shape)), bytes_(bytes), owner_(std::move(owner)) {}

TensorData TensorData::copyOf(DType dtype, std::vector<int64_t> shape,
                              std::span<const std::byte> bytes) {
    auto buffer = std::make_shared<std::vector<std::byte>>(bytes.begin(), bytes.end());
    const std::byte* data = buffer->data();
    return TensorData(dtype, std::move(shape), data, std::move(buffer));
}

int64_t TensorData::numel() const {
    // An empty axis first: [2^40, 2^40, 0] has no items, and multiplying the
    // other extents first would overflow (a .dat header can say so).
    if (std::find(shape_.begin(), shape_.end(), 0) != shape_.end())
        return 0;
    int64_t n = 1;
    for (int64_t d : shape_)
        n *= d;
    return n;
}

std::size_t TensorData::byteSize() const {
    return static_cast<std::size_t>(numel()) * dtypeBits(dtype_) / 8;
}

namespace {
uint16_t loadU16(const std::byte* p) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

template <typename T> T elementAt(const std::byte* base, int64_t i) {
    T v;
    std::memcpy(&v, base + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return v;
}
} // namespace

double TensorData::asDouble(int64_t i) const {
    if (i < 0 || i >= numel())
        throw std::out_of_range("TensorData element index out of range");
    switch (dtype_) {
    case DType::F16:
        return util::halfToFloat(loadU16(bytes_ + i * 2));
    case DType::F32:
        return elementAt<float>(bytes_, i);
    case DType::F64:
        return elementAt<double>(bytes_, i);
    default:
        return static_cast<double>(asInt(i));
    }
}

int64_t TensorData::asInt(int64_t i) const {
    if (i < 0 || i >= numel())
        throw std::out_of_range("TensorData element index out of range");
    switch (dtype_) {
    case DType::I8:
        return elementAt<int8_t>(bytes_, i);
    case DType::I16:
        return elementAt<int16_t>(bytes_, i);
    case DType::I32:
        return elementAt<int32_t>(bytes_, i);
    case DType::I64:
        return elementAt<int64_t>(bytes_, i);
    case DType::U8:
        return elementAt<uint8_t>(bytes_, i);
    case DType::Bool:
        return elementAt<uint8_t>(bytes_, i) != 0 ? 1 : 0;
    default:
        return static_cast<int64_t>(asDouble(i));
    }
}

TensorData TensorData::reshaped(std::vector<int64_t> shape) const {
    TensorData t = *this;
    t.shape_ = std::move(shape);
    if (t.numel() != numel())
        throw std::invalid_argument("TensorData::reshaped changes the element count");
    return t;
}

} // namespace t2n
