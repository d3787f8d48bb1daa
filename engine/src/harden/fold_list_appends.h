// Pass fold_list_appends: a list built by prim::ListConstruct and then grown
// by aten::append in the same block (`outputs.append(step(...))` once a
// decoder loop is unrolled) becomes one prim::ListConstruct per state: each
// append is replaced by a construct of the elements so far, and every later
// read of the list reads the construct of its point in the block. The IR
// knows a list by its elements; a list that changes under the same value has
// none it can trust, and `len(outputs)` of a mutated list is no constant.
//
// Only lists whose every use is in their own block and whose only writes
// are appends: an append inside a branch or a loop body, or an insert, pop or
// item assignment, leaves the list as it is.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: lists_rebuilt, appends_folded.
void foldListAppends(PassContext& ctx);

} // namespace t2n::harden
