// Example input values from files: .npy, a member of a .npz, or a .pt
// written by torch.save(tensor) (the zip format; torch::pickle_load).
#pragma once

#include "t2n/input_spec.h"

#include <torch/script.h>

#include <vector>

namespace t2n::load {

/// The tensor of a spec with a valuesFile. Throws t2n::Error (Load, Usage)
/// naming the input and the file when it cannot be read or holds no tensor.
at::Tensor readExampleValues(const InputSpec& spec);

/// `specs` with the shape and dtype of every file-valued spec taken from its file.
std::vector<InputSpec> withFileShapes(std::vector<InputSpec> specs);

} // namespace t2n::load
