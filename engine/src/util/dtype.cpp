#include "t2n/dtype.h"

#include <array>
#include <utility>

namespace t2n {

namespace {
constexpr std::array<std::pair<DType, std::string_view>, 9> kNames{{
    {DType::F16, "f16"},
    {DType::F32, "f32"},
    {DType::F64, "f64"},
    {DType::I8, "i8"},
    {DType::I16, "i16"},
    {DType::I32, "i32"},
    {DType::I64, "i64"},
    {DType::U8, "u8"},
    {DType::Bool, "bool"},
}};
} // namespace

std::string_view dtypeName(DType t) {
    for (auto& [d, n] : kNames)
        if (d == t)
            return n;
    return "?";
}

std::optional<DType> parseDType(std::string_view name) {
    for (auto& [d, n] : kNames)
        if (n == name)
            return d;
    return std::nullopt;
}

std::size_t dtypeBits(DType t) {
    switch (t) {
    case DType::F16:
    case DType::I16:
        return 16;
    case DType::F32:
    case DType::I32:
        return 32;
    case DType::F64:
    case DType::I64:
        return 64;
    case DType::I8:
    case DType::U8:
    case DType::Bool:
        return 8;
    }
    return 0;
}

bool isFloat(DType t) {
    return t == DType::F16 || t == DType::F32 || t == DType::F64;
}

bool isSignedInt(DType t) {
    return t == DType::I8 || t == DType::I16 || t == DType::I32 || t == DType::I64;
}

} // namespace t2n
