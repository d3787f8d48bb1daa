// forward() arguments the user leaves out take their default values: a
// scripted torchaudio Wav2Vec2Model is forward(waveforms, lengths=None), and
// the user gives only the waveforms.
#pragma once

#include <torch/script.h>

#include <string>
#include <utility>
#include <vector>

namespace t2n::harden {

/// The names of forward()'s trailing arguments after the first `given` (self
/// not counted) that have default values; throws nothing. Empty when `given`
/// covers every argument or a left-out argument has no default.
std::vector<std::string> defaultedArguments(const torch::jit::Module& model, size_t given);

/// Replaces forward()'s arguments after the first `given` by constants holding
/// their defaults and drops them from the graph and the schema, so that the
/// graph takes exactly the given inputs. Returns one line per argument bound,
/// "forward()'s argument 'lengths' takes its default (None)". Call only when
/// defaultedArguments() named every left-out argument.
std::vector<std::string> bindDefaultArguments(torch::jit::Module& model, size_t given);

/// Replaces forward()'s arguments at `bound` (schema indices, self is 0) by
/// constants holding the given values and drops them from the graph and the
/// schema. Returns each value's text, in the order given.
std::vector<std::string>
replaceArgumentsWithConstants(torch::jit::Module& model,
                              const std::vector<std::pair<size_t, c10::IValue>>& bound);

} // namespace t2n::harden
