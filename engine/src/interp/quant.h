// graph.quant in the reference interpreter, with tract's semantics
// (reference/nnef-and-tract.md §1.5, §2.4): an entry makes its tensor a
// quantized one. The interpreter computes with the real numbers they stand
// for: stored integers (variables) are dequantized, (q - z) * s; computed
// activations are snapped to the quantization grid, q = clamp(round(x / s) +
// z) in the 8-bit range, rounding half away from zero as tract's
// quantize_linear_f32_u8 does (Rust's f32::round), then dequantized.
#pragma once

#include "interp/eval.h"
#include "reader/ast.h"
#include "reader/model_reader.h"

#include <ATen/core/Tensor.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace t2n::interp {

struct QuantParams {
    double scale = 1.0;
    int64_t zeroPoint = 0;
    int bits = 8;
    bool isSigned = false;
    /// Smallest and largest stored integer.
    int64_t low() const;
    int64_t high() const;
};

using QuantTable = std::map<std::string, QuantParams>;

/// The entries tract accepts: zero_point_linear_quantize with scalar
/// zero_point and scale, 8 or 32 bits. Throws t2n::Error (Check) naming the
/// graph.quant line for anything else.
QuantTable readQuantTable(const std::vector<nnef::ast::QuantEntry>& entries);

/// Integer tensors are dequantized, float tensors fake-quantized.
at::Tensor applyQuant(const at::Tensor& t, const QuantParams& q);

/// tract's quantized conv/deconv/linear add an integer bias to their int32
/// accumulator: its real value is bias * input scale * filter scale. For such
/// a statement, the bias identifier and its real-valued replacement.
std::optional<std::pair<std::string, Value>> realBias(const nnef::ast::Expr& rhs,
                                                      const Scope& scope, const QuantTable& table);

/// For a quantized graph output, or one computed by dequantizing a quantized
/// tensor (tract_core_cast(x, to = 'f32'), possibly through a copy): that
/// tensor's scale, one quantization step, the tolerance of the output.
/// std::nullopt otherwise.
std::optional<double> dequantizedStep(const nnef::LoadedModel& model, const std::string& output);

} // namespace t2n::interp
