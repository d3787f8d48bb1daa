// --compute f16 (ExportOptions::compute): the graph t2n recorded in f32, with
// LibTorch running the model, retyped as f16 before translation. LibTorch
// 1.13's CPU has no f16 kernels for matmul, softmax, norms or convolutions, so
// an f16 model cannot be traced there; an f32 recording retyped is the f16
// graph the same model would have given.
#pragma once

#include "t2n/ir.h"

#include <map>

namespace t2n::translate {

/// The f32 tensor each f16 constant of a halfGraph() was converted from, by
/// the f16 copy's identity(): --weights-q4-0 quantizes the exact f32 weights,
/// not their f16 rounding.
using HalfOrigins = std::map<const void*, TensorData>;

/// A copy of `graph` with every f32 tensor value typed f16 and every f32
/// constant tensor (weights, buffers, folded values) converted to f16.
/// Quantized tensors keep their types: their f32 is the real numbers
/// graph.quant describes.
/// `origins`, when given, receives the f32 tensor of every converted constant.
ir::Graph halfGraph(const ir::Graph& graph, HalfOrigins* origins = nullptr);

} // namespace t2n::translate
