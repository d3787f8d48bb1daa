// Non-finite scalar literals: what each target can read, and the honest
// replacement where it cannot (nonfinite.cpp says why).
#pragma once

#include "nnef/document.h"

namespace t2n::translate {

class Context;

/// Rewrites the non-finite scalar literals of `inv` (about to be emitted for
/// the context's node) into what the target reads: ±inf stays a literal for
/// tract >= 0.20.19; otherwise an operand becomes a rank-0 variable holding
/// the exact value, and an attribute infinity the largest finite value of its
/// type (with a warning). A NaN attribute, or a non-finite number inside a
/// list, throws t2n::Error (Unsupported) naming the node. Returns how many
/// literals were rewritten.
int legalizeNonFiniteLiterals(Context& ctx, nnef::Invocation& inv);

} // namespace t2n::translate
