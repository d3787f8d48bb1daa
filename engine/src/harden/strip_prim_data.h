// Pass strip_prim_data: replaces prim::data(t), TorchScript's `.data`, by t.
// `.data` only detaches from autograd, a no-op for inference, and the
// translator has no lowering for it.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: data_reads_stripped.
void stripPrimData(PassContext& ctx);

} // namespace t2n::harden
