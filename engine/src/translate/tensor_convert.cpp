#include "translate/tensor_convert.h"

#include "util/half.h"

#include <cstring>
#include <vector>

namespace t2n::translate {

namespace {
template <typename T> void store(std::vector<std::byte>& out, int64_t i, T v) {
    std::memcpy(out.data() + i * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
}
} // namespace

TensorData convertDType(const TensorData& t, DType to) {
    const int64_t n = t.numel();
    std::vector<std::byte> out(static_cast<size_t>(n) * dtypeBits(to) / 8);
    for (int64_t i = 0; i < n; ++i) {
        switch (to) {
        case DType::F16:
            store(out, i, util::floatToHalf(static_cast<float>(t.asDouble(i))));
            break;
        case DType::F32:
            store(out, i, static_cast<float>(t.asDouble(i)));
            break;
        case DType::F64:
            store(out, i, t.asDouble(i));
            break;
        case DType::I8:
            store(out, i, static_cast<int8_t>(isFloat(t.dtype()) ? t.asDouble(i) : t.asInt(i)));
            break;
        case DType::I16:
            store(out, i, static_cast<int16_t>(isFloat(t.dtype()) ? t.asDouble(i) : t.asInt(i)));
            break;
        case DType::I32:
            store(out, i, static_cast<int32_t>(isFloat(t.dtype()) ? t.asDouble(i) : t.asInt(i)));
            break;
        case DType::I64:
            store(out, i, static_cast<int64_t>(isFloat(t.dtype()) ? t.asDouble(i) : t.asInt(i)));
            break;
        case DType::U8:
            store(out, i, static_cast<uint8_t>(isFloat(t.dtype()) ? t.asDouble(i) : t.asInt(i)));
            break;
        case DType::Bool:
            store(out, i, static_cast<uint8_t>(t.asDouble(i) != 0 ? 1 : 0));
            break;
        }
    }
    return TensorData::copyOf(to, t.shape(), out);
}

} // namespace t2n::translate
