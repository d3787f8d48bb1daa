// Conversions between LibTorch and the engine's torch-free types. Only
// torch translation units include this header.
#pragma once

#include "t2n/dtype.h"
#include "t2n/tensor_data.h"

#include <ATen/core/ivalue.h>
#include <optional>

namespace t2n::jit {

std::optional<DType> fromScalarType(c10::ScalarType t);
c10::ScalarType toScalarType(DType t);

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
