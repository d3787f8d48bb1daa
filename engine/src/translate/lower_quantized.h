// Quantized activations (ir::Value::quant) get their graph.quant entry after
// any lowering, so that pass-through operators (relu, max_pool, flatten,
// reshape) on quantized tensors keep the scale tract needs without each
// lowering knowing about quantization.
#pragma once

#include "translate/context.h"

#include <functional>

namespace t2n::translate {

/// Adds the graph.quant entries of the current node's quantized outputs.
/// Throws (Translate) for per-channel or qint32 activations.
void annotateQuantizedOutputs(Context& ctx);

/// Whether the current node computes arithmetic on quantized tensors with a
/// kind tract cannot run on stored integers: anything but the quantized::
/// kinds, quantize/dequantize and operations that move or select values
/// (relu, max pools, reshapes, slices, concatenations ...). tract's average
/// pools refuse u8 data and its sum reduction clamps each partial sum to u8.
bool computesOnRealValues(const Context& ctx);

/// Runs `lower` (the node's own lowering) on the real values of its quantized
/// inputs (tract_core_cast to f32) and requantizes its result as PyTorch's
/// quantize_val rounds, to the output's scale and zero point.
void lowerOnRealValues(Context& ctx, const std::function<void()>& lower);

/// x W^T + b of a dynamically quantized linear (quantized::linear_dynamic,
/// the gates of quantize_dynamic's LSTM/GRU): `in` (f32, rank `rank` >= 1)
/// quantized to quint8 on its own range at every call as PyTorch (qnnpack)
/// chooses it, then the linear with the weight's real values `weightReal`
/// [out, in] and the float bias `bias` (nullptr or None: no bias). Weights
/// are stored under `label`.
Expr dynamicLinear(Context& ctx, Expr in, int64_t rank, const ir::Value& weightReal,
                   const ir::Value* bias, const std::string& label);

} // namespace t2n::translate
