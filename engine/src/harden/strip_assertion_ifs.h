// Pass strip_assertion_ifs: drops a prim::If one of whose branches only
// builds an error message and raises (prim::RaiseException after nothing
// but "assertion kinds": constants, list/tuple construct, aten::format,
// __getitem__, __contains__, __not__, dim, size, len, eq, ne, Int, str, add,
// mul, prim::dtype, prim::device, prim::Uninitialized); the other branch is
// kept inline.
//
// These are `assert` and `raise ValueError` input checks whose condition
// stayed symbolic (a size that also feeds tensor computation). An exported
// graph has no exceptions; each stripped check is remarked with its message.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: assertions_stripped.
void stripAssertionIfs(PassContext& ctx);

} // namespace t2n::harden
