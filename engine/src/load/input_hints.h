// What forward()'s graph says about the inputs it expects, read before any
// run: the first operation that fixes an input's channels, features, rank or
// dtype (a convolution's weight, a linear layer's, an embedding's rows, an
// LSTM's input size, a layer norm's trailing dims, a constant reshape),
// reached through the operations that keep those facts (elementwise ones,
// unsqueeze, transpose, permute, quantize_per_tensor ...). The sizes no
// operation fixes stay free, with the kind of size they are (an image side,
// a sequence length, an audio signal) for the proposal to fill from its
// list of common sizes (load/input_proposal.cpp).
#pragma once

#include "t2n/input_spec.h"

#include <torch/script.h>

#include <optional>
#include <string>
#include <vector>

namespace t2n::load {

/// The kind of a size no operation fixes.
enum class FreeSize { Image, Sequence, Signal, Frames };

struct HintDim {
    int64_t size = 1; ///< when `free` is empty
    std::optional<FreeSize> free;
    bool operator==(const HintDim&) const = default;
};
using ShapeTemplate = std::vector<HintDim>;

struct InputHint {
    std::string name;
    DType dtype = DType::F32;
    std::optional<InputSpec::IntegerRange> range;
    /// Holds lengths (its name says so and it is an integer vector): its
    /// value is the sequence length of the candidate.
    bool lengths = false;
    /// A number, not a tensor (forward(x, sr: int)): given as a constant,
    /// one of `values` (the likeliest first), each with an empty template
    /// in `shapes` at the same position.
    bool number = false;
    std::vector<double> values;
    /// Ordered alternatives, the likeliest first; never empty.
    std::vector<ShapeTemplate> shapes;
    /// Why, in plain words ("3 channels read by conv2d 'features.0' (weight 64x3x7x7)").
    std::string reason;
};

struct InputHints {
    /// One per forward() argument that needs a value, in order.
    std::vector<InputHint> hints;
    /// The trailing arguments with defaults, which keep them: "lengths (default None)".
    std::vector<std::string> defaulted;
};

/// What forward()'s arguments need. An int, float or bool argument without
/// a default is proposed the constants the graph compares it with (Silero
/// VAD's `sr == 16000`), else common values. Throws t2n::Error (Load,
/// Usage) for an argument without a default that cannot be given as a
/// tensor or a number (a list of tensors, a string).
InputHints readInputHints(const torch::jit::Module& module);

/// "1x3x{image}x{image}" style text of a template, for reasons and tests.
std::string templateText(const ShapeTemplate& shape);

} // namespace t2n::load
