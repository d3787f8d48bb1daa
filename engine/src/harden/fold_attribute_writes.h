// Pass fold_attribute_writes: a module attribute that forward() writes once
// (prim::SetAttr on `self` or a submodule reached from it) and reads after
// (prim::GetAttr of the same attribute path) is a value passed from one
// method to another, as RAFT's CorrBlock keeps the correlation pyramid that
// build_pyramid() computes for index_pyramid() to read. Once the calls are
// inlined, the reads become that value and the write is dropped: an NNEF
// graph keeps no state between runs, and the IR cannot represent a write
// into a module object.
//
// Only a write in the graph's top-level block (it happens exactly once) to
// an attribute written nowhere else is folded; the reads it replaces are the
// ones after it in program order, nested blocks (loops, ifs) included.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: writes_folded, reads_forwarded.
void foldAttributeWrites(PassContext& ctx);

} // namespace t2n::harden
