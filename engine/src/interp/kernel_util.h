// Helpers shared by the interpreter's kernels (kernels_*.cpp): NNEF's
// trailing broadcasting, tract's operand dtype rule, axis checks, dtype
// names. Implemented in kernels_elementwise.cpp.
#pragma once

#include "interp/ops.h"

#include <ATen/ATen.h>

#include <string>
#include <string_view>
#include <vector>

namespace t2n::interp::kernels {

inline std::vector<Value> one(at::Tensor t) {
    return {Value::makeTensor(std::move(t))};
}

/// `t` with trailing unit axes up to `rank` (§1.2: the lower-rank operand is
/// padded at the END, not at the front as in NumPy).
at::Tensor padTrailing(const at::Tensor& t, int64_t rank);
/// Pads every operand to the highest rank with trailing unit axes and checks
/// that each axis has equal sizes or 1; throws InterpError naming the shapes.
std::vector<at::Tensor> broadcastTrailing(std::vector<at::Tensor> ts);

/// The operands of a binary operation in one dtype, following tract's
/// deserializer (nnef/src/registry.rs "scalar type mismatch mitigation"):
/// equal dtypes stay; else a one-element constant takes the other operand's
/// dtype; else any constant (literal, variable) does; else both are promoted
/// (PyTorch promotion — where tract may refuse the pair instead).
std::pair<at::Tensor, at::Tensor> alignOperands(const Value& a, const Value& b);

/// `op` (add, sub, mul, div, pow, min, max, lt, ..., and, or, tract_core_xor,
/// ...) on two operands: aligned dtypes, trailing broadcasting (§1.2).
at::Tensor applyBinary(std::string_view op, const Value& a, const Value& b);

/// Checks 0 <= axis < rank (NNEF axes are non-negative).
int64_t checkAxis(int64_t axis, int64_t rank, std::string_view what);
std::vector<int64_t> checkAxes(const std::vector<int64_t>& axes, int64_t rank,
                               std::string_view what);

/// tract datum-type strings (case-insensitive: f32, F32, i64, bool, ...) and
/// NNEF type names (scalar, integer, logical); throws InterpError.
c10::ScalarType dtypeFromName(std::string_view name);
/// The dtype of `external<T>` / `variable<T>` / `cast<T>`: scalar -> f32,
/// integer -> i64, logical -> bool (§2.1).
c10::ScalarType dtypeOfTypeName(std::string_view typeName);

/// The window geometry of box / pooling / conv over `rank` axes: explicit
/// (before, after) padding, or the automatic "same" padding of §1.2 when the
/// padding list is empty (total = max(0, (ceil(i/s)-1)*s + (k-1)*d + 1 - i),
/// before = total / 2, after = total - before).
struct Window {
    std::vector<int64_t> size, stride, dilation;
    std::vector<std::pair<int64_t, int64_t>> padding;
};
Window windowOf(at::IntArrayRef input, std::vector<int64_t> size, std::vector<int64_t> stride,
                std::vector<int64_t> dilation, std::vector<std::pair<int64_t, int64_t>> padding,
                std::string_view what);

/// Pads `x` on every axis with the given border: 'constant' (value),
/// 'reflect' (mirror without the edge), 'reflect-even' (mirror with the edge),
/// 'replicate' / tract's 'replicated' (repeat the edge). The caller checks
/// which spellings the target accepts.
at::Tensor padBorder(const at::Tensor& x, const std::vector<std::pair<int64_t, int64_t>>& padding,
                     std::string_view border, double value);

} // namespace t2n::interp::kernels
