// TEST HOOK for semantic bisect (HardenOptions::perturbAfter): makes a graph
// compute something else, the way a wrong pass would, so that a test can
// check that bisect names the pass it was applied after.
#pragma once

#include <torch/script.h>

namespace t2n::harden {

/// Multiplies the first tensor of the first graph output by 1.5 with an
/// inserted aten::mul. Throws t2n::Error (Harden, Usage) when that output
/// holds no tensor.
void perturbFirstOutput(torch::jit::Graph& graph);

} // namespace t2n::harden
