// Pass remove_tensor_mutation: torch's RemoveTensorMutation, which rewrites
// in-place tensor ops (aten::relu_, aten::add_) into their functional forms
// where alias analysis proves nothing else observes the mutation. The
// translator and the value recorder expect functional graphs. It repeats
// with the folding group: in-place ops inside branches (F.relu's
// `if inplace:`) can only be proven safe once their branch is inlined.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: ops_made_functional.
void removeTensorMutation(PassContext& ctx);

} // namespace t2n::harden
