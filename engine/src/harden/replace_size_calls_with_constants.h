// Pass replace_size_calls_with_constants: folds aten::dim, aten::size,
// aten::len and aten::numel to the values they have on the example inputs,
// but only where the value flows only into control flow (prim::If
// conditions, prim::Loop trip counts and conditions, prim::RaiseException),
// through nodes whose outputs are all primitive. Sizes that reach tensor
// computation stay dynamic, so dynamic axes survive.
//
// Scripted models guard on shapes (`if x.dim() == 1:`, `assert x.dim() == 3`);
// folding these sizes is what lets the constant folds collapse the guards.
// The sizes come from one run of the graph (jit/graph_runner.h): LibTorch 1.13's
// shape analysis gives no concrete shapes.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: size_calls_replaced. Needs the example inputs.
void replaceSizeCallsWithConstants(PassContext& ctx);

} // namespace t2n::harden
