#include "translate/tensor_convert.h"

#include <cstring>
#include <vector>

namespace t2n::translate {

namespace {
uint16_t floatToHalf(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff) // inf / nan
        return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
    if (exp >= 31)
        return static_cast<uint16_t>(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10)
            return static_cast<uint16_t>(sign);
        mant |= 0x800000u;
        uint32_t shift = static_cast<uint32_t>(14 - exp);
        uint32_t half = mant >> shift;
        uint32_t rest = mant & ((1u << shift) - 1);
        uint32_t mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1)))
            ++half;
        return static_cast<uint16_t>(sign | half);
    }
    uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        ++half; // may carry into the exponent, which is the right rounding
    return static_cast<uint16_t>(half);
}

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
            store(out, i, floatToHalf(static_cast<float>(t.asDouble(i))));
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
