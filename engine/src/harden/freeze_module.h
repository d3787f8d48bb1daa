// Pass freeze_module: torch::jit::freeze_module on the eval module, which
// inlines every call and folds module attributes into constants.
//
// freeze_module and not freeze(): freeze()'s frozen-graph optimisations fold
// batch norms into convolutions, and t2n's exported weights must stay the
// model's own parameters. When freezing throws (1.13 refuses, e.g., module
// containers indexed by a variable and reassigned interface attributes), the
// pass remarks why, leaves the graph alone and inline_unresolvable_submodules
// resolves the calls instead.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: calls_inlined, attributes_folded. Needs ctx.module.
void freezeModule(PassContext& ctx);

} // namespace t2n::harden
