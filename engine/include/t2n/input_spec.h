// What the user tells t2n about each model input: NAME:SHAPE:DTYPE, with
// example values inline (=60, =[3,1,4,1]) or from a file (NAME=@FILE).
#pragma once

#include "t2n/dtype.h"

#include <cstdint>
#include <optional>
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
    /// Example values given inline: one (every element takes it) or one per
    /// element in row-major order. Empty: from the file, else seeded random
    /// (integers in [0, 10), which a length or a token id rarely wants).
    std::vector<double> values;
    /// Seeded random integers from `low` to `high` (both included) instead
    /// of [0, 10): "ids:1x16:i64=0..30521", token ids below an embedding's
    /// row count. Integer dtypes only; not with `values` or a file.
    struct IntegerRange {
        int64_t low = 0;
        int64_t high = 9;
        bool operator==(const IntegerRange&) const = default;
    };
    std::optional<IntegerRange> randomRange;

    /// "x:1x3x224x224:f32" (dtype defaults to f32; "x:scalar" is a 0-d
    /// tensor), with inline values "lengths:1:i64=60" or
    /// "ids:1x4:i64=[3,1,4,1]" (bool: 0/1 or true/false), random integers
    /// in a range "ids:1x16:i64=0..999", or "x=@file.npy",
    /// "x=@file.npz#member", "x=@file.pt" for values from a file. Throws
    /// t2n::Error (Usage) with a hint.
    static InputSpec parse(std::string_view text);
    std::string toString() const;
    bool operator==(const InputSpec&) const = default;
};

} // namespace t2n
