// --compute f16 (ExportOptions::compute): the graph t2n recorded in f32, with
// LibTorch running the model, retyped as f16 before translation. LibTorch
// 1.13's CPU has no f16 kernels for matmul, softmax, norms or convolutions, so
// an f16 model cannot be traced there; an f32 recording retyped is the f16
// graph the same model would have given.
#pragma once

#include "t2n/ir.h"

namespace t2n::translate {

/// A copy of `graph` with every f32 tensor value typed f16 and every f32
/// constant tensor (weights, buffers, folded values) converted to f16.
/// Quantized tensors keep their types: their f32 is the real numbers
/// graph.quant describes.
ir::Graph halfGraph(const ir::Graph& graph);

} // namespace t2n::translate
