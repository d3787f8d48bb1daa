// graph.quant in the reference interpreter, with tract's semantics
// (reference/nnef-and-tract.md §1.5, §2.4): an entry makes its tensor a
// quantized one. The interpreter computes with the real numbers they stand
// for: stored integers (variables) are dequantized, (q - z) * s; computed
// activations are snapped to the quantization grid the way tract rounds the
// operation that made them (QuantRounding), then dequantized. Quantized conv
// and linear are computed as tract computes them: an exact integer
// accumulator, then tract's requantization (quantizedProduct).
#pragma once

#include "interp/eval.h"
#include "reader/ast.h"
#include "reader/model_reader.h"

#include <ATen/core/Tensor.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
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

/// How tract rounds a real value onto a quantized type.
enum class QuantRounding {
    /// Tensor::cast_to_dt (data/src/tensor.rs, q_via_f32): round half to even
    /// of x / scale + zero_point, each step in f32. Casts, graph.quant entries
    /// on most operations, and the linear fragment's requantization.
    Cast,
    /// A binary operation on u8 operands with a u8 result (core/src/ops/binary.rs,
    /// memory_optimised_q_binary_as_float_op; scale_by, data/src/datum.rs):
    /// round half to even of x * (1 / scale) in f32, then + zero_point.
    InverseScale,
};

/// Integer tensors are dequantized, float tensors quantized with `rounding`
/// and dequantized.
at::Tensor applyQuant(const at::Tensor& t, const QuantParams& q,
                      QuantRounding rounding = QuantRounding::Cast);

/// The rounding tract applies to the value of statement `rhs` whose result
/// has a graph.quant entry.
QuantRounding roundingOf(const nnef::ast::Expr& rhs, const std::string& output,
                         const QuantTable& table);

/// tract_linalg's Scaler with RoundingPolicy::Even (linalg/src/generic/rounding.rs):
/// `acc * factor` rounded half to even, exactly (the f32 factor as a Q0.31
/// multiplier and a shift), as tract requantizes a quantized convolution.
int64_t scaleRoundingEven(int64_t acc, float factor);

/// A conv or linear statement on quantized input and filter, computed as
/// tract computes it: `evaluate` runs the statement on the integers q - z of
/// the input and filter and the bias as stored (an exact accumulator in
/// double), then conv requantizes like tract's quantized convolution
/// (round half to even of acc * ((s_filter * s_input) / s_output) in f32,
/// exactly, + z_output, clamped) and linear like the linear fragment
/// (its i32 matmul typed with scale s_input * s_filter, then cast to the
/// output's type). Returns the real values, on the output's grid; nothing
/// when the statement is not one of these.
std::optional<Value> quantizedProduct(const nnef::ast::Expr& rhs, const std::string& output,
                                      Scope& scope, const QuantTable& table,
                                      const std::function<Value()>& evaluate);

/// tract_core_cast(x, to = INTEGER) of a tensor with a graph.quant entry:
/// tract keeps the stored integers (data/src/tensor.rs cast_to_dt, q_n:
/// `s as i32` for QI32 -> i32, QU8 -> u8), where the interpreter holds
/// real values; this gives those integers. std::nullopt for any other
/// statement (a cast to a float dequantizes, as kCast does).
std::optional<Value> storedIntegers(const nnef::ast::Expr& rhs, const Scope& scope,
                                    const QuantTable& table);

/// Why tract cannot compute statement `rhs` on a quantized operand, if it
/// cannot: its average pools (SumPool) take floating-point types only, its
/// sum reduction adds stored integers clamping every partial sum to the
/// stored type (core/src/ops/cnn/sumpool.rs, core/src/ops/nn/reduce.rs), and
/// its binary operations refuse two computed operands of different types
/// when one is quantized (nnef/src/registry.rs). `constants` are the
/// identifiers bound to variables and constants.
std::optional<std::string> tractRefusesQuantized(const nnef::ast::Expr& rhs,
                                                 const QuantTable& table,
                                                 const std::set<std::string>& constants = {});

/// tract's quantized conv/deconv/linear add an integer bias to their int32
/// accumulator: its real value is bias * input scale * filter scale. For such
/// a statement that quantizedProduct does not compute (a deconv, a result
/// without a graph.quant entry), the bias identifier and its real-valued
/// replacement.
std::optional<std::pair<std::string, Value>> realBias(const nnef::ast::Expr& rhs,
                                                      const Scope& scope, const QuantTable& table);

/// For a quantized graph output, or one computed by dequantizing a quantized
/// tensor (tract_core_cast(x, to = 'f32'), possibly through a copy): that
/// tensor's scale, one quantization step, the tolerance of the output.
/// std::nullopt otherwise.
std::optional<double> dequantizedStep(const nnef::LoadedModel& model, const std::string& output);

} // namespace t2n::interp
