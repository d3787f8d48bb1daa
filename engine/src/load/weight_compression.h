// The model's weights as the archive will store them (--weights-q4-0): the
// weights of Linear, Conv and Embedding modules are replaced, in place, by
// the values their Q4_0 blocks decode to (nnef/q4_0.h). Every later stage —
// the hardening, the trace, the check's reference run — then sees exactly
// the numbers tract will compute with, so the check judges the archive with
// one quantization step applied (as torch_to_nnef's QTensor does), and the
// writer finds the same storages (by address) to write as Q4_0.
#pragma once

#include <torch/script.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace t2n::load {

struct CompressedWeights {
    std::vector<std::string> names;   ///< e.g. "encoder.fc1.weight"
    std::set<const void*> storages;   ///< their data pointers
    std::vector<std::string> skipped; ///< "NAME [shape]: why", weights left in f32
    /// The weights as they were, restored by restore() (the studio exports a
    /// loaded model again with other options).
    std::vector<std::pair<at::Tensor, at::Tensor>> originals;
};

/// Rounds the eligible weights of `module` through Q4_0 in place: f32,
/// contiguous, rank 2 to 4 with a multiple of 32 values per output row.
CompressedWeights roundTripQ4_0Weights(torch::jit::Module& module);

/// Puts back the weights roundTripQ4_0Weights() changed; `w` is then empty.
void restore(CompressedWeights& w);

} // namespace t2n::load
