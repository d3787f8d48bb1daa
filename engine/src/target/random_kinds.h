// Which TorchScript kinds draw random numbers (issue 26): the trace never
// folds them into constants (one sample would be frozen into the archive),
// the translator writes the ones tract can draw (tract_onnx_random) and
// refuses the others by name, and the check compares what depends on a draw
// by its distribution, not element by element.
#pragma once

#include <string_view>

namespace t2n::target {

/// rand, randn, their _like forms, randint, randperm, bernoulli, normal,
/// multinomial, poisson and the in-place samplers (uniform_, normal_,
/// exponential_, ...). Dropouts and rrelu are not here: their operand is data
/// already, and the translation reads their training flag.
bool drawsRandom(std::string_view kind);

/// The kinds t2n writes with tract_onnx_random (uniform and normal floats,
/// and the gamma and Poisson samplers built from them); the other random
/// draws are refused.
bool tractDraws(std::string_view kind);

} // namespace t2n::target
