// What the user tells t2n about each model input: NAME:SHAPE:DTYPE.
#pragma once

#include "t2n/dtype.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace t2n {

struct InputSpec {
    std::string name;
    std::vector<int64_t> shape;
    DType dtype = DType::F32;

    /// "x:1x3x224x224:f32" (dtype defaults to f32; an empty shape "x::f32" or
    /// "x:scalar" is a 0-d tensor). Throws t2n::Error (Usage) with a hint.
    static InputSpec parse(std::string_view text);
    std::string toString() const;
};

} // namespace t2n
