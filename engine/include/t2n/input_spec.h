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
    /// Example values from a file instead of seeded random ones: a .npy, a
    /// .npz (member `valuesMember`, default the input's name) or a .pt
    /// (torch.save of a tensor). Shape and dtype then come from the file.
    std::string valuesFile;
    std::string valuesMember;

    /// "x:1x3x224x224:f32" (dtype defaults to f32; "x:scalar" is a 0-d tensor), or "x=@file.npy",
    /// "x=@file.npz#member", "x=@file.pt" for values from a file. Throws t2n::Error (Usage) with a
    /// hint.
    static InputSpec parse(std::string_view text);
    std::string toString() const;
    bool operator==(const InputSpec&) const = default;
};

} // namespace t2n
