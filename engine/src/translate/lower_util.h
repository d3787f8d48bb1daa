// Helpers shared by the lowering families.
#pragma once

#include "translate/context.h"

#include <vector>

namespace t2n::translate {

/// A scalar literal of dtype `t`.
inline Expr lit(double v, DType t = DType::F32) {
    return Context::scalarLiteral(v, t);
}

inline int64_t rankOf(const ir::Value& v) {
    return static_cast<int64_t>(v.shape.size());
}

/// Whether axis `axis` of `v` follows a symbol (a dynamic axis).
inline bool dynamicAxis(const ir::Value& v, int64_t axis) {
    return !v.symbols.empty() && !v.symbols[static_cast<size_t>(axis)].empty();
}

/// The largest finite value of a float dtype (f32's for the others).
double largestFinite(DType t);

/// NNEF's element-wise min and max, as template arguments of the lowerings.
inline constexpr char kMin[] = "min", kMax[] = "max";

/// PyTorch's result type of a comparison between two operands (tensors or
/// Python numbers): the widest float of the tensors, else f32 when a Python
/// float meets int tensors, else the tensors' integer type.
DType comparisonType(const ir::Value& a, const ir::Value& b);

/// Comparison `op` (eq ne lt gt le ge) of two boolean operands written as
/// logic: tract's comparisons evaluate numbers only and fail on booleans at
/// run time ("Bool is not a number", core/src/ops/logic/comparison.rs); ne is
/// tract_core_xor where the target has it. The final operation is the node's
/// output when `last` (emitStep), else a temporary named with `suffix`.
Expr compareBooleans(Context& ctx, std::string_view op, Expr a, Expr b, bool last = true,
                     const std::string& suffix = "logic");

/// A scalar literal as a tensor literal with `rank` unit axes ([[v]] for
/// rank 2), the operand tract_core_broadcast should get: tract's ChangeAxes
/// pass moves an axis change of a MultiBroadcastTo onto its input and fails
/// when that input has fewer axes ("required_rank <= rank (1 vs 0)"; an
/// LSTM's zero state over a dynamic batch).
Expr unitTensorLiteral(Expr v, int64_t rank);

/// `op` over input 0 (dtype converted to the output's), bound to output 0.
Expr emitUnary(Context& ctx, const std::string& op, Kwargs kwargs = {});
/// `op` over inputs 0 and 1, broadcast to the output rank and converted to
/// `compute` (default: the output dtype), bound to output 0.
Expr emitBinary(Context& ctx, const std::string& op, std::optional<DType> compute = {});

/// Input i broadcast (leading unit axes) to the output rank, in `t` (default:
/// the output dtype).
Expr outOperand(Context& ctx, size_t i, std::optional<DType> t = {});
/// The dtype element-wise math runs in: the output's when it is a float,
/// else f32 (integer results are cast back by emitFinal).
DType floatComputeType(Context& ctx);
/// Emits the node's final `op`, computed in `t`, then cast to the output
/// dtype when that differs.
void emitFinal(Context& ctx, const std::string& op, std::vector<Expr> args, DType t,
               Kwargs kwargs = {});
/// The type an operation of an f16 graph computes in: f32 when the user
/// asked for it (`asked`: --f32-norm, --f32-attention) and the output is
/// f16, else the output's type.
DType upcastType(const Context& ctx, bool asked);

/// `v`, computed in `t`, as output 0: bound when the output is of type t,
/// else converted by a final tract_core_cast.
void bindAs(Context& ctx, Expr v, DType t);

/// The sign bit of `x` (of dtype `t`) as a boolean: x < 0, and for floats
/// also a negative zero (1 / -0 = -inf < 0). NaN gives false.
Expr signBitOf(Context& ctx, Expr x, DType t, const std::string& tag);

/// atan2(y, x) of operands computed in float type `t`, bound to output 0
/// (cast to its dtype): atan(y / x) moved by pi to the left half-plane,
/// +-pi/2 on the y axis, signed zeros as PyTorch. A lowering using it declares
/// "atan div add sub lt or select and eq tract_core_cast".
void emitAtan2(Context& ctx, Expr y, Expr x, DType t);

/// emitOut when this is the node's last operation, else emitTemp(suffix).
Expr emitStep(Context& ctx, bool last, const std::string& op, std::vector<Expr> args, Kwargs kwargs,
              const std::string& suffix);

/// An int list of length n from a list that may hold one value for all axes.
std::vector<int64_t> expandInts(std::vector<int64_t> v, size_t n, int64_t fill);

/// A sliding-window operand (kernel, stride, ...) over every axis of a
/// rank-`rank` tensor: `pre` leading 1s then the spatial values.
Expr fullWindow(const std::vector<int64_t>& spatial, int64_t rank, int64_t pre);
/// NNEF padding pairs [(0,0), ..., (b,a)] for spatial (before, after) pairs.
Expr paddingPairs(const std::vector<std::pair<int64_t, int64_t>>& spatial, int64_t pre);

/// slice(x, axes=[axis], begin=[b], end=[e] (, stride=[s]))
Kwargs sliceArgs(int64_t axis, int64_t begin, int64_t end, int64_t stride = 1);

/// Reduction axes: `dims` normalized against `rank`, sorted and unique; all
/// axes when `dims` is empty.
std::vector<int64_t> reduceAxes(Context& ctx, std::vector<int64_t> dims, int64_t rank);
/// `op` over `axes` of input 0, squeezed unless keepdim (NNEF reductions keep
/// the reduced axes); bound to output `out`.
void emitReduce(Context& ctx, const std::string& op, std::vector<int64_t> axes, bool keepdim,
                size_t out = 0, std::optional<DType> compute = {});

/// `id` with exactly `rank` axes, converted to `dtype`: like Context::operand,
/// but a 0-d value becomes [1, ..., 1] too (operand() leaves it a scalar, which
/// elementwise ops broadcast but tile cannot repeat).
Expr rankedOperand(Context& ctx, ir::ValueId id, int64_t rank, DType dtype);

/// Refuses the node (Unsupported, naming `what` and the tract versions that
/// have it) unless the target has `what`, a row of the version table
/// (nnef/tract_versions.h). Khronos targets pass: the Khronos target refuses
/// every tract operation itself, with its own message.
void requireTract(Context& ctx, std::string_view what, const std::string& why);

/// erf(x) of a float tensor: tract_core_erf when the target has it, else (the
/// Khronos target, whose standard has no erf) Abramowitz & Stegun 7.1.26 in
/// standard operations: erf(x) = sign(x) (1 - t (a1 + t (a2 + ... + t a5))
/// exp(-x^2)), t = 1 / (1 + p |x|), with |error| <= 1.5e-7 for every x, about
/// one f32 rounding step of values near 1. A lowering using it declares
/// "?tract_core_erf +abs +sign +mul +add +rcp +exp +neg".
Expr erfOf(Context& ctx, Expr x, DType dtype, const std::string& suffix);

/// The [rows, cols] boolean band `col cmp row + k` ("ge": triu's kept part,
/// "le": tril's) written from two tract_core_range and a comparison, so that
/// rows, cols and k may be symbolic sizes (tract_core_trilu takes only a
/// constant k; a causal mask offset by a KV cache's past length needs one).
/// A lowering using it declares "+tract_core_range +tract_core_cast
/// +unsqueeze +ge +le".
Expr bandMask(Context& ctx, const Expr& rows, const Expr& cols, const Expr& k,
              const std::string& cmp);

/// slice(x, axes=[axis], begin=[b], end=[e] (, stride=[s])) with expressions
/// (symbolic bounds need tract 0.19.6 or newer: refused before).
Kwargs sliceExprs(Context& ctx, int64_t axis, Expr begin, Expr end, int64_t stride);
/// Argument `arg` of the node as an index on axis `axis` of input 0: its
/// expression when symbolic, a negative constant counted from the axis' end.
Expr dynamicIndex(Context& ctx, size_t arg, int64_t axis, int64_t fallback);

/// Constant tables computed by a lowering (gather indices, weights).
Expr indexTable(Context& ctx, const std::vector<int64_t>& values, std::vector<int64_t> shape,
                const std::string& hint);
Expr floatTable(Context& ctx, const std::vector<float>& values, std::vector<int64_t> shape,
                const std::string& hint);
/// An f64 table, always a .dat variable: tract reads a float literal (and an
/// inlined tensor literal) as f32, a stored f64 tensor keeps every digit and
/// gives select an operand of its own dtype.
Expr doubleTable(Context& ctx, const std::vector<double>& values, std::vector<int64_t> shape,
                 const std::string& hint);

} // namespace t2n::translate
