// Pass fold_tuple_unpack_through_tuple_construct: routes the outputs of
// prim::TupleUnpack(prim::TupleConstruct(a, b, ...)) to a, b, ... Inlined
// `out, (h, c) = self.decoder(...)` leaves this round trip behind; seeing
// through it lets the tuple folds and DCE remove both nodes.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: tuple_unpacks_folded.
void foldTupleUnpackThroughTupleConstruct(PassContext& ctx);

} // namespace t2n::harden
