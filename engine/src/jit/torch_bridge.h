// Conversions between LibTorch and the engine's torch-free types. Only
// torch translation units include this header.
#pragma once

#include "t2n/dtype.h"
#include "t2n/tensor_data.h"

#include <ATen/core/ivalue.h>
#include <optional>
#include <vector>

namespace t2n::jit {

std::optional<DType> fromScalarType(c10::ScalarType t);
c10::ScalarType toScalarType(DType t);

/// f16 or bf16: the dtypes the check and io.npz compare and store widened to f32.
bool isHalfLike(c10::ScalarType t);

/// Appends every tensor of `v`, a tensor or nested tuples, lists and dicts of
/// them, in order (a dict in insertion order, as the IR builder flattens
/// forward()'s outputs). A number among them (`return float(prob)`) is a 0-d
/// tensor (float as f32, int as i64, bool), as the IR makes it an output.
void flattenTensors(const c10::IValue& v, std::vector<at::Tensor>& out);

/// A complex tensor as t2n and tract carry it: real numbers with a trailing
/// axis of 2 (real, imaginary), torch.view_as_real of its resolved conjugate.
/// Other tensors as they are.
at::Tensor realView(const at::Tensor& t);

/// A contiguous CPU view of `t` that keeps the tensor alive (no copy when it
/// already is contiguous). Throws t2n::Error (Trace) for unsupported dtypes.
TensorData toTensorData(const at::Tensor& t);

/// A tensor sharing `data`'s bytes (read-only use).
at::Tensor toTensor(const TensorData& data);

} // namespace t2n::jit
