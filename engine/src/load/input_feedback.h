// What a model's own error says about the inputs it wanted, read from the
// text PyTorch (or the model's own assertion) wrote when a candidate of the
// input proposal (load/input_proposal.cpp) failed: "Expected 47, got 16",
// "mat1 and mat2 shapes cannot be multiplied (1x16 and 4x10)", "sizes
// [*, 10, 3]", "expected input[1, 1, 28, 28] to have 3 channels", "shape
// '[1, 1, 11]' is invalid for input of size 16", a Float where integers are
// wanted. Each rule turns the failed candidate into corrected ones for the
// proposal to run next; a flatten before a linear layer is solved for the
// image sides whose flattened size the layer reads.
#pragma once

#include "t2n/input_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace t2n::load {

struct Correction {
    std::vector<InputSpec> specs;
    /// Plain words: "the model said 'Expected 47, got 16'".
    std::string reason;
    /// The input the error wants as integers (kept so for later candidates).
    std::optional<size_t> integers;
};

/// Corrected candidates for `specs`, which failed with `error`, likeliest
/// first; none when the text says nothing this reads. Only the inputs with
/// `adjustable[i]` change (not numbers or lengths). `earlier`: the errors
/// of the candidates run before, for rules that need two sizes' words (a
/// view to a constant shape says so at every input size).
std::vector<Correction> correctionsFromError(const std::string& error,
                                             const std::vector<InputSpec>& specs,
                                             const std::vector<bool>& adjustable,
                                             const std::vector<std::string>& earlier = {});

} // namespace t2n::load
