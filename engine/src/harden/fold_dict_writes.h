// Pass fold_dict_writes: a dict made empty (`aten::dict()`, or a
// prim::DictConstruct of nothing) and then filled in its own block by
// aten::_set_item with constant string keys — torchvision's
// IntermediateLayerGetter and segmentation models (`out = OrderedDict();
// out["out"] = x`, once their module loops are unrolled and their ifs folded)
// — becomes plain values: each `d["key"]` read with a constant key is the
// value last written under that key, and a dict forward() returns becomes one
// prim::DictConstruct of the final entries, in insertion order (its values
// are the graph's outputs). The IR has no dict values; a dict that changes
// under one name has no elements it can trust.
//
// Only dicts whose every use is in their own block and is such a write, such
// a read or the block's return; a key read before it is written, a write in a
// branch or a loop body, or any other use (items(), a dict passed on) leaves
// the dict as it is.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: dicts_rebuilt, dict_writes_folded.
void foldDictWrites(PassContext& ctx);

} // namespace t2n::harden
