// Pass fold_data_dependent_ifs: evaluates the condition of every top-level
// prim::If left by the other passes by running the graph on the example
// inputs, and inlines the branch taken. This specialises the graph to the
// example: each fold is remarked with the way it went and what the
// condition depends on, and a condition on input *values* (not shapes) is
// also a warning, since other inputs may take the other branch.
//
// It catches guards the size folds cannot prove, e.g. a size that also
// feeds tensor computation (`if n % hop != 0: x = pad(x, ...)`). Ifs nested
// in other Ifs are reached in the next round of the folding group, once
// their parent is inlined; Ifs in loop bodies are left (remarked).
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: ifs_specialized. Needs the example inputs.
void foldDataDependentIfs(PassContext& ctx);

} // namespace t2n::harden
