// Pass eliminate_dead_code: torch's EliminateDeadCode, last in the chain,
// plus the removal of prim::Loop nodes whose results nobody uses and whose
// bodies only compute numbers (torch keeps those). The folds leave the
// nodes that fed a folded condition (sizes, comparisons, tuple constructs,
// the loops of stripped input checks such as group norm's batch-size check)
// without users; removing them keeps the IR free of unused work. Nodes
// with side effects stay.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: nodes_removed. One rewrite for the whole sweep.
void eliminateDeadCode(PassContext& ctx);

} // namespace t2n::harden
