// forward() arguments that are not tensors (Silero VAD's `sr: int`) cannot be
// graph inputs of an NNEF archive: the value the user gives with --input
// (`sr:scalar:i64=16000`) becomes a constant of a specialised copy of the
// module, every stage runs that copy on the tensor inputs alone, and the
// report says what the archive is specialised for.
#pragma once

#include "t2n/input_spec.h"

#include <torch/script.h>

#include <optional>
#include <string>
#include <vector>

namespace t2n::harden {

struct BoundArguments {
    /// A copy of the model (shared weights) whose forward() takes the tensor
    /// arguments only; the others are constants in its graph.
    torch::jit::Module module;
    /// The specs of the arguments it still takes, in order.
    std::vector<InputSpec> tensorSpecs;
    /// One per argument bound: "sr = 16000 (int)".
    std::vector<std::string> bound;
};

/// Null when every spec is for a tensor argument (the model is used as it
/// is). Else the specialised copy. Throws t2n::Error (Load, Usage) naming
/// the argument for a value that cannot be given with --input (a string, a
/// list, a tuple), a spec with no single inline value, or a value the
/// argument's type cannot hold.
std::optional<BoundArguments> bindNonTensorArguments(const torch::jit::Module& model,
                                                     const std::vector<InputSpec>& specs);

} // namespace t2n::harden
