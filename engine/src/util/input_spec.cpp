#include "t2n/input_spec.h"
#include "t2n/error.h"
#include "util/strings.h"

#include <fmt/format.h>

namespace t2n {

namespace {
Error usage(std::string_view text, std::string why) {
    return Error(Stage::Load, ErrorCode::Usage, fmt::format("bad input spec '{}': {}", text, why),
                 "write NAME:SHAPE:DTYPE, e.g. input:1x3x224x224:f32 (dtype one of f32, f16, "
                 "f64, i64, i32, i16, i8, u8, bool; SHAPE 'scalar' for a 0-d tensor)");
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
    auto parts = util::split(text, ':');
    if (parts.size() < 2 || parts.size() > 3)
        throw usage(text, "expected two or three ':'-separated fields");
    InputSpec spec;
    spec.name = std::string(parts[0]);
    if (spec.name.empty())
        throw usage(text, "the name is empty");
    std::string_view shape = parts[1];
    if (shape.empty())
        throw usage(text, "the shape is empty (write 'scalar' for a 0-d tensor)");
    if (shape != "scalar") {
        for (auto dim : util::split(shape, 'x')) {
            auto v = util::parseInt<int64_t>(dim);
            if (!v || *v < 0)
                throw usage(text,
                            fmt::format("'{}' is not a dimension (a non-negative integer)", dim));
            spec.shape.push_back(*v);
        }
    }
    if (parts.size() == 3) {
        auto dt = parseDType(parts[2]);
        if (!dt)
            throw usage(text, fmt::format("unknown dtype '{}'", parts[2]));
        spec.dtype = *dt;
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
    return s + ":" + std::string(dtypeName(dtype));
}

} // namespace t2n
