// Pass select_value_ifs: an if on tensor data whose branches only choose a
// number (`if bool(p > best): best = float(p)`, a running maximum in a
// streaming model's loop) computes both branches and picks with
// aten::where on the condition's tensor, instead of being specialised to the
// branch the example takes (fold_data_dependent_ifs), which would freeze the
// example's choice into the archive.
//
// Only ifs whose condition is aten::Bool of a tensor, whose branches hold a
// few nodes without blocks, side effects or writes (computing the other
// branch too changes nothing but time), and whose results are all floats:
// each result becomes FloatImplicit(where(condition tensor, then value, else
// value)), which the translation keeps as a 0-d tensor where only
// elementwise operations and outputs read it (numbers_from_tensors.h). Ifs
// that choose tensors are left to fold_data_dependent_ifs (their branches may
// give different shapes, which where would broadcast).
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: ifs_selected.
void selectValueIfs(PassContext& ctx);

} // namespace t2n::harden
