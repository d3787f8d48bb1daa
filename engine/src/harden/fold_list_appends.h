// Pass fold_list_appends: a list built by prim::ListConstruct and then grown
// in the same block by aten::append, or by `+=` / extend with a list
// construct (`outputs.append(step(...))`, Tacotron2's `mel_outputs +=
// [mel]`, once a decoder loop is unrolled), becomes one prim::ListConstruct
// per state: each growing write is replaced by a construct of the elements so
// far, and every later read of the list (or of the alias a write returns)
// reads the construct of its point in the block. The IR
// knows a list by its elements; a list that changes under the same value has
// none it can trust, and `len(outputs)` of a mutated list is no constant.
//
// Only lists whose every use is in their own block, whose only writes are
// appends and of which no alias is kept (a list held by another list before
// the appends sees them): an append inside a branch or a loop body, an
// insert, pop or item assignment, or such an alias leaves the list as it is.
//
// A slice of a rebuilt list that is grown in turn (a sliding window,
// `buf = buf[1:]; buf.append(x)`, once its loop is unrolled) becomes a
// construct here too (fold_list_indexing's rule, counted as slices_folded),
// and the rebuilding repeats until nothing changes.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: lists_rebuilt, appends_folded.
void foldListAppends(PassContext& ctx);

} // namespace t2n::harden
