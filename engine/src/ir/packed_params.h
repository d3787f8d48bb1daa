// Quantized conv/linear modules keep their weights in packed parameter
// objects (__torch__.torch.classes.quantized.Conv2dPackedParamsBase,
// LinearPackedParamsBase) that freezing turns into graph constants. They are
// opened through the JIT operator registry (quantized::conv2d_unpack,
// quantized::conv2d_stride, ..., quantized::linear_unpack), the public way
// TorchScript itself reads them, not through private ATen headers.
#pragma once

#include <ATen/core/ivalue.h>

#include <optional>
#include <vector>

namespace t2n::ir {

struct UnpackedParams {
    bool conv = false;                              ///< conv2d params (else linear)
    at::Tensor weight;                              ///< quantized (qint8)
    std::optional<at::Tensor> bias;                 ///< float
    std::vector<int64_t> stride, padding, dilation; ///< conv only
    int64_t groups = 1;
};

/// The parameters inside `object` when it is a quantized packed-params
/// object, std::nullopt for any other value. Throws t2n::Error (Trace) when
/// an unpack operator is missing or fails.
std::optional<UnpackedParams> unpackPackedParams(const c10::IValue& object);

} // namespace t2n::ir
