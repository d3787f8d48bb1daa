// Quantized conv/linear modules keep their weights in packed parameter
// objects (__torch__.torch.classes.quantized.Conv2dPackedParamsBase,
// LinearPackedParamsBase) that freezing turns into graph constants. They are
// opened through the JIT operator registry (quantized::conv2d_unpack,
// quantized::conv2d_stride, ..., quantized::linear_unpack), the public way
// TorchScript itself reads them, not through private ATen headers. Mobile
// (XNNPACK) contexts hold float weights and are read the same way, through
// their registered __getstate__.
#pragma once

#include <ATen/core/ivalue.h>

#include <optional>
#include <string>
#include <vector>

namespace t2n::jit {

struct UnpackedParams {
    bool conv = false;                              ///< conv2d params (else linear)
    bool transposed = false;                        ///< conv_transpose2d (mobile contexts)
    at::Tensor weight;                              ///< quantized (qint8), or float
    std::optional<at::Tensor> bias;                 ///< float
    std::vector<int64_t> stride, padding, dilation; ///< conv only
    std::vector<int64_t> outputPadding;             ///< transposed conv only
    int64_t groups = 1;
    /// The clamp a mobile context applies to its result (None: unbounded).
    c10::IValue outputMin, outputMax;
};

/// The parameters inside `object` when it is a quantized packed-params
/// object, std::nullopt for any other value. Throws t2n::Error (Trace) when
/// an unpack operator is missing or fails.
std::optional<UnpackedParams> unpackPackedParams(const c10::IValue& object);

/// The same for the XNNPACK contexts `optimize_for_mobile` makes
/// (__torch__.torch.classes.xnnpack.Conv2dOpContext, TransposeConv2dOpContext,
/// LinearOpContext): float weights, read through the context's __getstate__
/// (the way TorchScript saves it). Throws t2n::Error (Trace) when the state
/// cannot be read.
std::optional<UnpackedParams> unpackMobileContext(const c10::IValue& object);

/// The cell parameters of one layer and direction of a dynamically quantized
/// recurrent layer (torch.ao quantize_dynamic: nn.LSTM / nn.GRU hold
/// __torch__.torch.classes.rnn.CellParamsBase objects).
struct CellParams {
    std::string type;      ///< "quantized_dynamic", "quantized_dynamic_fp16", "quantized", ...
    UnpackedParams ih, hh; ///< the packed linears of W_ih and W_hh, with their biases
};

/// The cell parameters inside `object` when it is a CellParamsBase, read
/// through its registered __getstate__ (type, tensors, doubles, longs,
/// packed objects) with the packed linears opened as unpackPackedParams does;
/// std::nullopt for any other value. `ih`/`hh` stay empty (undefined weight)
/// for a type other than "quantized_dynamic". Throws t2n::Error (Trace) when
/// the state cannot be read.
std::optional<CellParams> unpackCellParams(const c10::IValue& object);

} // namespace t2n::jit
