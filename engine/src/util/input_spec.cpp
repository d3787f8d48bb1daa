#include "t2n/input_spec.h"
#include "t2n/error.h"
#include "util/input_values.h"
#include "util/strings.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace t2n {

namespace {
Error usage(std::string_view text, std::string why) {
    return Error(Stage::Load, ErrorCode::Usage, fmt::format("bad input spec '{}': {}", text, why),
                 "write NAME:SHAPE:DTYPE, e.g. input:1x3x224x224:f32 (dtype one of f32, f16, "
                 "f64, i64, i32, i16, i8, u8, bool; SHAPE 'scalar' for a 0-d tensor), with "
                 "values if they matter: lengths:1:i64=60, ids:1x4:i64=[3,1,4,1]");
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

// "60", "[3,1,4,1]" or nested "[[1,2],[3,4]]" (read flat, row-major).
std::vector<double> parseValues(std::string_view spec, std::string_view text, DType dtype) {
    std::string flat;
    for (char c : text)
        if (c != '[' && c != ']')
            flat += c;
    std::vector<double> out;
    for (auto item : util::split(flat, ',')) {
        item = trimmed(item);
        double v = 0;
        if (dtype == DType::Bool && (item == "true" || item == "false")) {
            v = item == "true" ? 1 : 0;
        } else {
            auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
            if (item.empty() || ec != std::errc() || end != item.data() + item.size())
                throw usage(spec, fmt::format("'{}' is not a number", item));
        }
        if (!isFloat(dtype) && v != std::floor(v))
            throw usage(spec, fmt::format("{} is not an integer, and the dtype is {}", item,
                                          dtypeName(dtype)));
        if (dtype == DType::Bool && v != 0 && v != 1)
            throw usage(spec, fmt::format("{} is not a boolean (0, 1, true or false)", item));
        out.push_back(v);
    }
    return out;
}

std::pair<int64_t, int64_t> integerLimits(DType dtype) {
    switch (dtype) {
    case DType::I8:
        return {INT8_MIN, INT8_MAX};
    case DType::U8:
        return {0, UINT8_MAX};
    case DType::I16:
        return {INT16_MIN, INT16_MAX};
    case DType::I32:
        return {INT32_MIN, INT32_MAX};
    // randint draws below HI + 1
    default:
        return {INT64_MIN, INT64_MAX - 1};
    }
}

// "LO..HI": seeded random integers from LO to HI, both included.
InputSpec::IntegerRange parseRange(std::string_view spec, std::string_view text, size_t dots,
                                   DType dtype) {
    if (isFloat(dtype) || dtype == DType::Bool)
        throw usage(spec, fmt::format("a range LO..HI draws integers, and the dtype is {}",
                                      dtypeName(dtype)));
    const auto low = util::parseInt<int64_t>(trimmed(text.substr(0, dots)));
    const auto high = util::parseInt<int64_t>(trimmed(text.substr(dots + 2)));
    if (!low || !high)
        throw usage(spec, fmt::format("'{}' is not a range of integers LO..HI", text));
    if (*low > *high)
        throw usage(spec,
                    fmt::format("the range {}..{} is empty (LO must not exceed HI)", *low, *high));
    const auto [least, most] = integerLimits(dtype);
    if (*low < least || *high > most)
        throw usage(spec, fmt::format("the range {}..{} does not fit {} ({}..{})", *low, *high,
                                      dtypeName(dtype), least, most));
    return {*low, *high};
}

// Saturates instead of overflowing: a shape too large for memory is refused
// later, with its number (util/memory_limits.h).
int64_t elementCount(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) {
        if (d != 0 && n > INT64_MAX / d)
            return INT64_MAX;
        n *= d;
    }
    return n;
}

std::string formatValue(double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15)
        return fmt::format("{}", static_cast<int64_t>(v));
    return fmt::format("{}", v);
}
} // namespace

InputSpec InputSpec::parse(std::string_view text) {
    if (auto at = text.find("=@"); at != std::string_view::npos) {
        InputSpec spec;
        spec.name = std::string(text.substr(0, at));
        std::string_view file = text.substr(at + 2);
        if (auto hash = file.rfind('#'); hash != std::string_view::npos) {
            spec.valuesMember = std::string(file.substr(hash + 1));
            file = file.substr(0, hash);
        }
        spec.valuesFile = std::string(file);
        if (spec.name.empty() || spec.valuesFile.empty())
            throw Error(Stage::Load, ErrorCode::Usage,
                        fmt::format("bad input spec '{}': the name or the file is empty", text),
                        "write NAME=@FILE.npy, NAME=@FILE.npz#MEMBER or NAME=@FILE.pt");
        return spec;
    }
    const std::string_view whole = text;
    std::string_view values;
    if (auto eq = text.find('='); eq != std::string_view::npos) {
        values = text.substr(eq + 1);
        text = text.substr(0, eq);
        if (trimmed(values).empty())
            throw usage(whole, "nothing after '='");
    }
    auto parts = util::split(text, ':');
    if (parts.size() < 2 || parts.size() > 3)
        throw usage(whole, "expected two or three ':'-separated fields");
    InputSpec spec;
    spec.name = std::string(parts[0]);
    if (spec.name.empty())
        throw usage(whole, "the name is empty");
    std::string_view shape = parts[1];
    if (shape.empty())
        throw usage(whole, "the shape is empty (write 'scalar' for a 0-d tensor)");
    if (shape != "scalar") {
        for (auto dim : util::split(shape, 'x')) {
            auto v = util::parseInt<int64_t>(dim);
            if (!v || *v < 0)
                throw usage(whole,
                            fmt::format("'{}' is not a dimension (a non-negative integer)", dim));
            spec.shape.push_back(*v);
        }
    }
    if (parts.size() == 3) {
        auto dt = parseDType(parts[2]);
        if (!dt)
            throw usage(whole, fmt::format("unknown dtype '{}'", parts[2]));
        spec.dtype = *dt;
    }
    if (auto dots = values.find(".."); dots != std::string_view::npos) {
        spec.randomRange = parseRange(whole, values, dots, spec.dtype);
        return spec;
    }
    if (!values.empty()) {
        spec.values = parseValues(whole, values, spec.dtype);
        const int64_t n = elementCount(spec.shape);
        if (spec.values.size() != 1 && static_cast<int64_t>(spec.values.size()) != n)
            throw usage(whole, fmt::format("{} values for shape {} ({} elements): give one value "
                                           "for every element, or a single value for all",
                                           spec.values.size(),
                                           spec.shape.empty()
                                               ? std::string("scalar")
                                               : fmt::format("{}", fmt::join(spec.shape, "x")),
                                           n));
    }
    return spec;
}

std::string InputSpec::toString() const {
    if (!valuesFile.empty())
        return name + "=@" + valuesFile + (valuesMember.empty() ? "" : "#" + valuesMember);
    std::string s = name + ":";
    if (shape.empty())
        s += "scalar";
    for (size_t i = 0; i < shape.size(); ++i)
        s += (i ? "x" : "") + std::to_string(shape[i]);
    s += ":" + std::string(dtypeName(dtype));
    if (randomRange)
        return s + fmt::format("={}..{}", randomRange->low, randomRange->high);
    if (values.size() == 1)
        return s + "=" + formatValue(values[0]);
    for (size_t i = 0; i < values.size(); ++i)
        s += (i ? "," : "=[") + formatValue(values[i]) + (i + 1 == values.size() ? "]" : "");
    return s;
}

void dropValuesOfOtherSize(InputSpec& spec) {
    spec.valuesFile.clear();
    if (spec.values.size() > 1)
        spec.values.clear();
}

} // namespace t2n
