// Pass unpack_mobile_contexts: `optimize_for_mobile` (and so most Android
// `.ptl` assets) replaces conv/linear (+ a following relu/hardtanh) by
// prepacked::{conv2d,conv2d_transpose,linear}_clamp_run over an XNNPACK
// context object, whose weights NNEF cannot see. A frozen context is
// opened through its __getstate__ (the way TorchScript saves it) and the
// call becomes the plain aten op on those weights, then a clamp (a relu when
// the range is [0, inf)) where the context clamps.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: contexts_unpacked, clamps_written.
void unpackMobileContexts(PassContext& ctx);

} // namespace t2n::harden
