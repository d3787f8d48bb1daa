// The search behind Session::proposeInputs: candidates made from the graph's
// hints (load/input_hints.h) and lists of common sizes, each run once, the
// first that runs kept.
#pragma once

#include "t2n/input_proposal.h"

#include <torch/script.h>

#include <functional>

namespace t2n::load {

/// Common sizes, likeliest first: image sides, sequence lengths, audio
/// samples, video frames. A candidate takes the same position in every list.
const std::vector<int64_t>& commonSizes(int kind);

/// Runs `module` (not changed: the runs use a copy) on candidates until one
/// runs, within `limits`. `cancelled` is polled between runs. Throws
/// t2n::Error (Load, Usage) listing the attempts when none runs, and
/// (Load, Cancelled) when cancelled.
InputProposal proposeInputs(const torch::jit::Module& module, const ProposalLimits& limits,
                            const std::function<bool()>& cancelled = {});

} // namespace t2n::load
