// State kept in module attributes (Silero VAD's `self._state = ...`, a robot
// policy's `self.hidden_state.copy_(h)`): an NNEF graph keeps none, so the
// archive would compute every call from the saved value and differ from the
// model from the second call on. A copy of the module takes each tensor
// attribute forward() changes as an extra input and returns its new value as
// an extra output, named after the attribute; the example values are the
// attributes after one call on the example inputs (the steady state a
// streaming caller feeds back), and the copy is checked against the model
// over two further consecutive calls before anything exports it.
#pragma once

#include "t2n/input_spec.h"

#include <torch/script.h>

#include <optional>
#include <string>
#include <vector>

namespace t2n::harden {

struct ExplicitState {
    /// forward(inputs..., states...) -> (outputs..., new states...).
    torch::jit::Module module;
    /// The inputs' specs followed by one per state, with its values inline.
    std::vector<InputSpec> specs;
    /// The attribute paths carried, in order ("_state", "memory.h").
    std::vector<std::string> paths;
    /// Their NNEF names as inputs; outputs are "<name>_out".
    std::vector<std::string> names;
    /// How many outputs forward() itself returns (flattened; a number counts).
    size_t modelOutputs = 0;
    /// One line per attribute for the report: what is carried, how, and the
    /// non-tensor attributes frozen at their steady value.
    std::vector<std::string> said;
};

/// Null when forward() changes no module attribute on the example inputs
/// (or cannot write any: the cheap static look comes first). Throws
/// t2n::Error (Harden, Unsupported) when the state cannot be carried: a
/// number that changes on every call (a step counter), a dtype t2n does not
/// export, or a copy that does not reproduce two consecutive calls.
std::optional<ExplicitState> makeStateExplicit(const torch::jit::Module& model,
                                               const std::vector<InputSpec>& specs,
                                               const std::vector<at::Tensor>& examples);

} // namespace t2n::harden
