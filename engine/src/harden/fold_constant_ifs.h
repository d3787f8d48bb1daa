// Pass fold_constant_ifs: a prim::If whose condition is a constant bool is
// replaced by the body of the branch it always takes; the other branch is
// dropped. This is what turns folded shape guards (`if x.dim() == 1:`) into
// straight-line code the IR can hold.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: ifs_folded.
void foldConstantIfs(PassContext& ctx);

} // namespace t2n::harden
