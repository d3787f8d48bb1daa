// Pass fold_tuple_index_through_tuple_construct: rewrites
// prim::TupleIndex(prim::TupleConstruct(a, b, ...), k) to the k-th element.
// Inlined call sites that consume an `(h, c)` tuple by position leave this
// round trip behind, and the IR knows TupleConstruct but not TupleIndex.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: tuple_indices_folded.
void foldTupleIndexThroughTupleConstruct(PassContext& ctx);

} // namespace t2n::harden
