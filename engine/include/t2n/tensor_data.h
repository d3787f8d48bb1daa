// A read-only, contiguous, row-major tensor that the torch-free stages of the
// engine (translate, nnef, archive) can see without including LibTorch.
#pragma once

#include "t2n/dtype.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace t2n {

class TensorData {
public:
    TensorData() = default;
    /// `owner` keeps `bytes` alive (typically a LibTorch tensor): no copy is made.
    TensorData(DType dtype, std::vector<int64_t> shape, const std::byte* bytes,
               std::shared_ptr<const void> owner);
    /// Owns a fresh copy of `bytes`.
    static TensorData copyOf(DType dtype, std::vector<int64_t> shape,
                             std::span<const std::byte> bytes);

    DType dtype() const { return dtype_; }
    const std::vector<int64_t>& shape() const { return shape_; }
    int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
    int64_t numel() const;
    std::size_t byteSize() const;
    std::span<const std::byte> bytes() const { return {bytes_, byteSize()}; }
    bool empty() const { return bytes_ == nullptr && numel() != 0; }

    /// Element `i` (flat index) converted to double / int64; bool gives 0 or 1.
    double asDouble(int64_t i) const;
    int64_t asInt(int64_t i) const;

    /// Same data, another shape with the same element count (no copy).
    TensorData reshaped(std::vector<int64_t> shape) const;
    /// Identity of the underlying buffer: equal for views of the same bytes.
    const void* identity() const { return bytes_; }

private:
    DType dtype_ = DType::F32;
    std::vector<int64_t> shape_;
    const std::byte* bytes_ = nullptr;
    std::shared_ptr<const void> owner_;
};

} // namespace t2n
