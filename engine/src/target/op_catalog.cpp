// The operation table. Rows: name, Khronos standard or not, the tract
// registry that provides it ("" when tract lacks it), and a note. Sources:
// Khronos stdlib.nnef 1.0.5 (119 operations, §1.3 of the reference notes),
// tract's standard registry and stdlib (§2.2) and tract's extension
// registries (§2.3), as of tract 0.23.9: operations tract removed (0.23.0
// dropped tract_core_load, _store and _force_eval) are not listed, and which
// versions have a listed operation is the version table's business
// (tract_versions.h).
#include "target/op_catalog.h"

#include <algorithm>
#include <array>

namespace t2n::target {

namespace {

constexpr bool kKhronos = true;
constexpr bool kTractOnly = false;

constexpr std::string_view None = "";
constexpr std::string_view Nnef = kTractStandardRegistry;
constexpr std::string_view Core = "tract_core";
constexpr std::string_view Transformers = "tract_transformers";
constexpr std::string_view Pulse = "tract_pulse";
constexpr std::string_view Onnx = "tract_onnx";
constexpr std::string_view Extra = "tract_extra";
constexpr std::string_view Resource = "tract_resource";

// clang-format off
constexpr OpInfo kOps[] = {
    {"external", kKhronos, Nnef, ""},
    {"variable", kKhronos, Nnef, ""},
    {"constant", kKhronos, None, "tract has no constant: use a variable or an inline literal"},
    {"update", kKhronos, None, "tract has no update"},
    {"reshape", kKhronos, Nnef, ""},
    {"transpose", kKhronos, Nnef, ""},
    {"concat", kKhronos, Nnef, ""},
    {"split", kKhronos, None, "tract has no split: use slice"},
    {"slice", kKhronos, Nnef, ""},
    {"squeeze", kKhronos, Nnef, ""},
    {"unsqueeze", kKhronos, Nnef, ""},
    {"stack", kKhronos, Nnef, ""},
    {"unstack", kKhronos, Nnef, ""},
    {"tile", kKhronos, Nnef, ""},
    {"pad", kKhronos, Nnef, "tract's border is 'replicated', not 'replicate'"},
    {"gather", kKhronos, None, "tract has no standard gather: use tract_core_gather"},
    {"cast", kKhronos, None, "tract has no standard cast: use tract_core_cast"},
    {"add", kKhronos, Nnef, ""},
    {"sub", kKhronos, Nnef, ""},
    {"mul", kKhronos, Nnef, ""},
    {"div", kKhronos, Nnef, ""},
    {"pow", kKhronos, Nnef, ""},
    {"exp", kKhronos, Nnef, ""},
    {"log", kKhronos, Nnef, ""},
    {"sin", kKhronos, Nnef, ""},
    {"cos", kKhronos, Nnef, ""},
    {"tan", kKhronos, Nnef, ""},
    {"sinh", kKhronos, Nnef, ""},
    {"cosh", kKhronos, Nnef, ""},
    {"asin", kKhronos, Nnef, ""},
    {"acos", kKhronos, Nnef, ""},
    {"atan", kKhronos, Nnef, ""},
    {"asinh", kKhronos, Nnef, ""},
    {"acosh", kKhronos, Nnef, ""},
    {"atanh", kKhronos, Nnef, ""},
    {"tanh", kKhronos, Nnef, ""},
    {"abs", kKhronos, Nnef, ""},
    {"sign", kKhronos, Nnef, ""},
    {"neg", kKhronos, Nnef, ""},
    {"copy", kKhronos, Nnef, ""},
    {"rcp", kKhronos, None, "tract has no rcp: use recip or div"},
    {"lt", kKhronos, Nnef, ""},
    {"gt", kKhronos, Nnef, ""},
    {"le", kKhronos, Nnef, ""},
    {"ge", kKhronos, Nnef, ""},
    {"eq", kKhronos, Nnef, ""},
    {"ne", kKhronos, Nnef, ""},
    {"and", kKhronos, Nnef, ""},
    {"or", kKhronos, Nnef, ""},
    {"not", kKhronos, Nnef, ""},
    {"floor", kKhronos, Nnef, ""},
    {"ceil", kKhronos, Nnef, ""},
    {"round", kKhronos, Nnef, ""},
    {"select", kKhronos, Nnef, ""},
    {"sqr", kKhronos, Nnef, ""},
    {"sqrt", kKhronos, Nnef, ""},
    {"rsqr", kKhronos, Nnef, ""},
    {"rsqrt", kKhronos, Nnef, ""},
    {"log2", kKhronos, Nnef, ""},
    {"min", kKhronos, Nnef, ""},
    {"max", kKhronos, Nnef, ""},
    {"clamp", kKhronos, Nnef, ""},
    {"matmul", kKhronos, Nnef, ""},
    {"conv", kKhronos, Nnef, "tract supports border 'constant' only"},
    {"deconv", kKhronos, Nnef, "tract supports border 'constant' only"},
    {"box", kKhronos, Nnef, ""},
    {"debox", kKhronos, Nnef, ""},
    {"argmax_pool", kKhronos, None, "tract does not implement it"},
    {"sample", kKhronos, None, "tract does not implement it"},
    {"desample", kKhronos, None, "tract does not implement it"},
    {"nearest_downsample", kKhronos, Nnef, ""},
    {"area_downsample", kKhronos, Nnef, ""},
    {"nearest_upsample", kKhronos, Core, "tract registers it in tract_core"},
    {"multilinear_upsample", kKhronos, Core, "tract registers it in tract_core"},
    {"sum_reduce", kKhronos, Nnef, ""},
    {"max_reduce", kKhronos, Nnef, ""},
    {"min_reduce", kKhronos, Nnef, ""},
    {"argmax_reduce", kKhronos, Nnef, ""},
    {"argmin_reduce", kKhronos, Nnef, ""},
    {"any_reduce", kKhronos, Nnef, ""},
    {"all_reduce", kKhronos, Nnef, ""},
    {"mean_reduce", kKhronos, Nnef, ""},
    {"moments", kKhronos, Nnef, ""},
    {"relu", kKhronos, Nnef, ""},
    {"sigmoid", kKhronos, Nnef, ""},
    {"softabs", kKhronos, Nnef, ""},
    {"softmax", kKhronos, Nnef, ""},
    {"softplus", kKhronos, Nnef, ""},
    {"elu", kKhronos, Nnef, "tract's elu has no alpha parameter"},
    {"selu", kKhronos, None, "tract has no selu: write a fragment"},
    {"gelu", kKhronos, None, "tract has no gelu: use tract_core_gelu_approx, tract_core_erf or a fragment"},
    {"silu", kKhronos, None, "tract has no silu: use tract_core_silu"},
    {"prelu", kKhronos, Nnef, ""},
    {"leaky_relu", kKhronos, Nnef, ""},
    {"max_pool_with_index", kKhronos, Nnef, ""},
    {"max_pool", kKhronos, Nnef, ""},
    {"avg_pool", kKhronos, Nnef, ""},
    {"rms_pool", kKhronos, Nnef, ""},
    {"linear", kKhronos, Nnef, ""},
    {"separable_conv", kKhronos, Nnef, ""},
    {"separable_deconv", kKhronos, Nnef, ""},
    {"local_response_normalization", kKhronos, Nnef, ""},
    {"local_mean_normalization", kKhronos, Nnef, ""},
    {"local_variance_normalization", kKhronos, Nnef, ""},
    {"local_contrast_normalization", kKhronos, Nnef, ""},
    {"l1_normalization", kKhronos, Nnef, ""},
    {"l2_normalization", kKhronos, Nnef, ""},
    {"batch_normalization", kKhronos, Nnef, ""},
    {"avg_roi_pool", kKhronos, None, "tract has no ROI operations"},
    {"max_roi_pool", kKhronos, None, "tract has no ROI operations"},
    {"roi_resample", kKhronos, None, "tract has no ROI operations"},
    {"avg_roi_align", kKhronos, None, "tract has no ROI operations"},
    {"max_roi_align", kKhronos, None, "tract has no ROI operations"},
    {"linear_quantize", kKhronos, Nnef, ""},
    {"logarithmic_quantize", kKhronos, Nnef, ""},
    {"min_max_linear_quantize", kKhronos, Nnef, ""},
    {"zero_point_linear_quantize", kKhronos, Nnef, "tract takes scalar zero_point and scale only"},
    {"copy_n", kKhronos, Nnef, ""},
    {"add_n", kKhronos, Nnef, ""},
    {"recip", kTractOnly, Nnef, ""},
    {"square", kTractOnly, Nnef, ""},
    {"tract_core_round_even", kTractOnly, Core, ""},
    {"tract_core_erf", kTractOnly, Core, ""},
    {"tract_core_hard_swish", kTractOnly, Core, ""},
    {"tract_core_bitnot", kTractOnly, Core, ""},
    {"tract_core_is_nan", kTractOnly, Core, ""},
    {"tract_core_is_inf", kTractOnly, Core, ""},
    {"tract_core_silu", kTractOnly, Core, ""},
    {"tract_core_gelu_approx", kTractOnly, Core, ""},
    {"tract_core_pow_const", kTractOnly, Core, ""},
    {"tract_core_xor", kTractOnly, Core, ""},
    {"tract_core_bitand", kTractOnly, Core, ""},
    {"tract_core_bitor", kTractOnly, Core, ""},
    {"tract_core_bitxor", kTractOnly, Core, ""},
    {"tract_core_cast", kTractOnly, Core, ""},
    {"tract_core_external", kTractOnly, Core, ""},
    {"tract_core_broadcast", kTractOnly, Core, ""},
    {"tract_core_range", kTractOnly, Core, ""},
    {"tract_core_shape_of", kTractOnly, Core, ""},
    {"tract_core_gather", kTractOnly, Core, ""},
    {"tract_core_gather_elements", kTractOnly, Core, ""},
    {"tract_core_gather_nd", kTractOnly, Core, ""},
    {"tract_core_scatter_elements", kTractOnly, Core, ""},
    {"tract_core_scatter_nd", kTractOnly, Core, ""},
    {"tract_core_dyn_slice", kTractOnly, Core, ""},
    {"tract_core_downsample", kTractOnly, Core, ""},
    {"tract_core_einsum", kTractOnly, Core, ""},
    {"tract_core_einsum_q", kTractOnly, Core, ""},
    {"tract_core_matmul", kTractOnly, Core, ""},
    {"tract_core_qmatmul", kTractOnly, Core, ""},
    {"tract_core_qconv", kTractOnly, Core, ""},
    {"tract_core_softmax", kTractOnly, Core, ""},
    {"tract_core_log_softmax", kTractOnly, Core, ""},
    {"tract_core_argmax_reduce_last", kTractOnly, Core, ""},
    {"tract_core_argmin_reduce_last", kTractOnly, Core, ""},
    {"tract_core_product_reduce", kTractOnly, Core, ""},
    {"tract_core_topk", kTractOnly, Core, ""},
    {"tract_core_trilu", kTractOnly, Core, ""},
    {"tract_core_one_hot", kTractOnly, Core, ""},
    {"tract_core_fft", kTractOnly, Core, ""},
    {"tract_core_stft", kTractOnly, Core, ""},
    {"tract_core_complex_to_inner_dim", kTractOnly, Core, ""},
    {"tract_core_inner_dim_to_complex", kTractOnly, Core, ""},
    {"tract_core_resize", kTractOnly, Core, ""},
    {"tract_core_grid_sample", kTractOnly, Core, ""},
    {"tract_core_rms_norm", kTractOnly, Core, ""},
    {"tract_core_submodel", kTractOnly, Core, ""},
    {"tract_core_lstm_epilogue", kTractOnly, Core, ""},
    {"tract_core_gru_epilogue", kTractOnly, Core, ""},
    {"tract_core_scan", kTractOnly, Core, ""},
    {"tract_shl", kTractOnly, Core, ""},
    {"tract_shr", kTractOnly, Core, ""},
    {"tract_transformers_sdpa", kTractOnly, Transformers, ""},
    {"tract_transformers_apply_rope", kTractOnly, Transformers, ""},
    {"tract_transformers_scaled_masked_softmax", kTractOnly, Transformers, ""},
    {"tract_transformers_dyn_kv_cache", kTractOnly, Transformers, ""},
    {"tract_transformers_quantized_dyn_kv_cache", kTractOnly, Transformers, ""},
    {"tract_transformers_quantized_kv_sdpa", kTractOnly, Transformers, ""},
    {"tract_transformers_window_kv_sdpa", kTractOnly, Transformers, ""},
    {"tract_transformers_causal_conv1d_update", kTractOnly, Transformers, ""},
    {"tract_transformers_gdn_recurrent", kTractOnly, Transformers, ""},
    {"tract_transformers_silu", kTractOnly, Transformers, "an alias of tract_core_silu from tract 0.23.0"},
    {"tract_transformers_gelu_approx", kTractOnly, Transformers, "an alias of tract_core_gelu_approx from tract 0.23.0"},
    {"tract_transformers_rms_norm", kTractOnly, Transformers, "an alias of tract_core_rms_norm from tract 0.23.0"},
    {"tract_pulse_delay", kTractOnly, Pulse, ""},
    {"tract_pulse_mask", kTractOnly, Pulse, ""},
    {"tract_pulse_pulse_pad", kTractOnly, Pulse, ""},
    {"tract_onnx_grid_sample", kTractOnly, Onnx, ""},
    {"tract_onnx_lrn", kTractOnly, Onnx, ""},
    {"tract_onnx_ml_direct_lookup", kTractOnly, Onnx, ""},
    {"tract_onnx_ml_reverse_lookup", kTractOnly, Onnx, ""},
    {"tract_onnx_ml_tree_ensemble_classifier", kTractOnly, Onnx, ""},
    {"tract_onnx_multinomial", kTractOnly, Onnx, ""},
    {"tract_onnx_non_max_suppression", kTractOnly, Onnx, ""},
    {"tract_onnx_non_zero", kTractOnly, Onnx, ""},
    {"tract_onnx_random", kTractOnly, Onnx, ""},
    {"tract_onnx_resize", kTractOnly, Onnx, ""},
    {"tract_extra_exp_unit_norm", kTractOnly, Extra, ""},
    {"tract_extra_exp_mean_norm", kTractOnly, Extra, ""},
    {"tract_resource_get", kTractOnly, Resource, ""},
};
// clang-format on

constexpr std::array<std::string_view, 7> kRegistries = {Nnef, Core,  Transformers, Pulse,
                                                         Onnx, Extra, Resource};

} // namespace

std::span<const OpInfo> opCatalog() {
    return kOps;
}

const OpInfo* findOp(std::string_view name) {
    const auto* it = std::find_if(std::begin(kOps), std::end(kOps),
                                  [&](const OpInfo& op) { return op.name == name; });
    return it == std::end(kOps) ? nullptr : it;
}

std::span<const std::string_view> tractRegistries() {
    return kRegistries;
}

std::string_view canonicalRegistry(std::string_view declared) {
    // tract accepts registry aliases without the "tract_" prefix ("pulse").
    for (auto r : kRegistries)
        if (r == declared || r.substr(6) == declared)
            return r;
    return {};
}

} // namespace t2n::target
