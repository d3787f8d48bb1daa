// "Where a size froze", as the check sees it: a dynamic export that fails at
// the second size of its symbols. The archive runs again at that size with
// every operation fed TorchScript's values of its operands there (as the
// divergence search does), so that an operation whose result keeps the
// example's size stands out on its own instead of through everything
// downstream of it.
#pragma once

#include "check/check_stage.h"
#include "check/dynamic_sizes.h"
#include "interp/interpreter.h"

#include <map>
#include <string>
#include <vector>

namespace t2n::check {

/// The NNEF values whose shape at `sized` is not TorchScript's though their
/// operands' are, and the statement where the run fails there, in graph
/// order, with each value's TorchScript shape at the example sizes and at
/// `sized`. `nnefInputs` and `modelInputs` are the inputs at `sized`.
FrozenSizes findFrozenSizes(const CheckInputs& in, const interp::Interpreter& interpreter,
                            const SizedInputs& sized,
                            const std::map<std::string, at::Tensor>& nnefInputs,
                            const std::vector<at::Tensor>& modelInputs,
                            const std::vector<at::Tensor>& exampleInputs);

} // namespace t2n::check
