// Quantized activations (ir::Value::quant) get their graph.quant entry after
// any lowering, so that pass-through operators (relu, max_pool, flatten,
// reshape) on quantized tensors keep the scale tract needs without each
// lowering knowing about quantization.
#pragma once

#include "translate/context.h"

namespace t2n::translate {

/// Adds the graph.quant entries of the current node's quantized outputs.
/// Throws (Translate) for per-channel or qint32 activations.
void annotateQuantizedOutputs(Context& ctx);

} // namespace t2n::translate
