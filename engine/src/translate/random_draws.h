// What the random draws (lower_random.cpp) and the samplers built from them
// (lower_samplers.cpp) share: the target check, the shape of a draw, and one
// tract_onnx_random statement.
#pragma once

#include "translate/context.h"

#include <string>
#include <vector>

namespace t2n::translate {

enum class Dist { Uniform, Normal };

/// Refuses the node unless the target draws (tract with tract_onnx_random),
/// every argument in `generators` is None (an explicit torch.Generator or
/// names), and the node's output is a float tensor.
void requireDraw(Context& ctx, const std::vector<size_t>& generators);

/// The dims of input `i` (a static size, a symbol, or the graph's shape_of).
std::vector<Expr> drawShapeOf(Context& ctx, size_t i);

/// tract_onnx_random of `shape` and float dtype `drawn` (f32 or f64):
/// uniform [p1, p2) or normal (p1, p2); the node's output when `last`, else a
/// helper named with `suffix`.
Expr drawOf(Context& ctx, std::vector<Expr> shape, Dist dist, double p1, double p2, DType drawn,
            bool last, const std::string& suffix);

} // namespace t2n::translate
