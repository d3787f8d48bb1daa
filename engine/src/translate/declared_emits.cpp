// What the lowerings written before the declarations existed may emit
// (OpEntry::emits), in one table, so that the family files can be re-cut
// without touching it. A lowering registered with its own declaration (the
// fourth argument of Registry::add) needs no row here; a row for a kind the
// registry lacks, or for a kind that declares itself, is an error found at
// startup by the tests. The context's own casts, rank-aligning unsqueezes,
// constants, variables and copies need no mention (registry.cpp). Every
// export checks the declarations (translator.cpp): an operation emitted
// without one is reported as a t2n bug.
#include "translate/registry.h"

#include <stdexcept>

namespace t2n::translate {

namespace {

struct Declared {
    const char* kind;
    const char* emits;
};

constexpr const char* kUnpack = "-";
constexpr const char* kPool = "max_pool pad +squeeze";
constexpr const char* kAvgPool = "avg_pool +pad +box +div +squeeze";
constexpr const char* kAdaptive = "avg_pool max_pool mean_reduce max_reduce slice concat +squeeze";
constexpr const char* kPadding = "pad slice concat";
// Constant padding by amounts computed from a dynamic axis: broadcast blocks.
constexpr const char* kConstantPadding = "pad slice concat +tract_core_broadcast +tract_core_cast";
constexpr const char* kRecurrent =
    "matmul add mul sub sigmoid tanh relu slice squeeze concat transpose tile +select "
    "+tract_core_scan "
    "+tract_core_shape_of";
// Linear resampling: constant tables, or (sizes that follow a symbol) the
// positions computed from tract_core_range.
constexpr const char* kLinearResample =
    "tract_core_gather mul add +tract_core_range +tract_core_cast +sub +max +min +floor +div "
    "+unsqueeze";
constexpr const char* kCell = "matmul add mul sub sigmoid tanh relu slice";
constexpr const char* kQuantizedConv =
    "conv relu +tract_core_cast +mul +tract_core_round_even +max +clamp";
// Per-channel weights: the accumulator computed on integer steps (lower_quantized.cpp).
constexpr const char* kQuantizedLinear =
    "linear relu +tract_core_cast +mul +tract_core_round_even +max +clamp";

// clang-format off
constexpr Declared kDeclared[] = {
    // activations
    {"aten::relu", "relu"},
    {"aten::sigmoid", "sigmoid"},
    {"aten::tanh", "tanh"},
    {"aten::relu6", "clamp"},
    {"aten::hardtanh", "clamp"},
    {"aten::hardswish", "?tract_core_hard_swish add clamp mul div"},
    {"aten::hardsigmoid", "div add clamp"},
    {"aten::silu", "?tract_core_silu sigmoid mul"},
    {"aten::gelu", "mul add tanh ?tract_core_erf +abs +sign +rcp +exp +neg"},
    {"aten::leaky_relu", "leaky_relu"},
    {"aten::prelu", "prelu"},
    {"aten::elu", "elu mul exp sub gt select"},
    {"aten::softplus", "mul exp add log div gt select"},
    {"aten::softmax", "softmax"},
    {"aten::_softmax", "softmax"},
    {"aten::log_softmax", "?tract_core_log_softmax max_reduce sub exp sum_reduce log"},
    {"aten::hardshrink", "abs gt select"},
    {"aten::softshrink", "gt lt sub add select"},
    {"aten::threshold", "gt select"},
    {"aten::mish", "exp add log gt select tanh mul"},
    {"aten::selu", "max div exp sub mul min add"},
    {"aten::celu", "max div exp sub mul min add"},
    {"aten::log_sigmoid", "min abs neg exp add log sub"},
    {"aten::glu", "slice sigmoid mul"},
    {"aten::rrelu", "leaky_relu"},
    // attention and transformer layers
    {"aten::_native_multi_head_attention",
     "matmul add mul reshape transpose softmax ne select slice mean_reduce squeeze "
     "?tract_transformers_sdpa"},
    {"aten::_transformer_encoder_layer_fwd",
     "matmul add mul div sub sqrt reshape transpose softmax ne select slice mean_reduce relu "
     "?tract_core_erf +abs +sign +rcp +exp +neg ?tract_transformers_sdpa"},
    // convolution
    {"aten::_convolution", "conv deconv +transpose +reshape"},
    {"aten::convolution", "conv deconv +transpose +reshape"},
    {"aten::conv1d", "conv deconv +transpose +reshape"},
    {"aten::conv2d", "conv deconv +transpose +reshape"},
    {"aten::conv3d", "conv deconv +transpose +reshape"},
    {"aten::_convolution_mode", "conv deconv +transpose +reshape"},
    {"aten::conv_transpose1d", "conv deconv +transpose +reshape"},
    {"aten::conv_transpose2d", "conv deconv +transpose +reshape"},
    {"aten::conv_transpose3d", "conv deconv +transpose +reshape"},
    // element-wise arithmetic, comparisons, logic
    {"aten::add", "add mul"},
    {"aten::sub", "sub mul"},
    {"aten::rsub", "sub mul"},
    {"aten::mul", "mul"},
    {"aten::div", "div floor ceil lt select"},
    {"aten::floor_divide", "div floor"},
    {"aten::pow", "pow"},
    {"aten::neg", "neg"},
    {"aten::abs", "abs"},
    {"aten::exp", "exp"},
    {"aten::log", "log"},
    {"aten::sqrt", "sqrt"},
    {"aten::rsqrt", "rsqrt"},
    {"aten::sin", "sin"},
    {"aten::cos", "cos"},
    {"aten::tan", "tan"},
    {"aten::asin", "asin"},
    {"aten::acos", "acos"},
    {"aten::atan", "atan"},
    {"aten::sinh", "sinh"},
    {"aten::cosh", "cosh"},
    {"aten::asinh", "asinh"},
    {"aten::acosh", "acosh"},
    {"aten::atanh", "atanh"},
    {"aten::floor", "floor"},
    {"aten::ceil", "ceil"},
    {"aten::sign", "sign"},
    {"aten::round", "tract_core_round_even"},
    {"aten::reciprocal", "div"},
    {"aten::eq", "eq +not +and +or ?tract_core_xor"},
    {"aten::ne", "ne +not +and +or ?tract_core_xor"},
    {"aten::lt", "lt +not +and +or ?tract_core_xor"},
    {"aten::gt", "gt +not +and +or ?tract_core_xor"},
    {"aten::le", "le +not +and +or ?tract_core_xor"},
    {"aten::ge", "ge +not +and +or ?tract_core_xor"},
    {"aten::logical_and", "and"},
    {"aten::logical_or", "or"},
    {"aten::__and__", "and"},
    {"aten::__or__", "or"},
    {"aten::logical_not", "not"},
    {"aten::bitwise_not", "not"},
    {"aten::where", "select"},
    {"aten::masked_fill", "select"},
    {"aten::minimum", "min"},
    {"aten::maximum", "max"},
    {"aten::clamp", "clamp max min"},
    {"aten::clamp_min", "clamp max min"},
    {"aten::clamp_max", "clamp max min"},
    {"aten::erf", "?tract_core_erf +abs +sign +mul +add +rcp +exp +neg"},
    {"aten::remainder", "div floor ceil lt select mul sub"},
    {"aten::fmod", "div floor ceil lt select mul sub"},
    {"aten::square", "mul"},
    {"aten::log2", "log mul"},
    {"aten::log10", "log mul"},
    {"aten::log1p", "add log"},
    {"aten::expm1", "exp sub"},
    {"aten::trunc", "lt ceil floor select"},
    {"aten::frac", "lt ceil floor select sub"},
    {"aten::logical_xor", "?tract_core_xor +not +and +or"},
    {"aten::bitwise_and", "and"},
    {"aten::bitwise_or", "or"},
    {"aten::bitwise_xor", "?tract_core_xor +not +and +or"},
    {"aten::__xor__", "?tract_core_xor +not +and +or"},
    {"aten::addcmul", "mul div add"},
    {"aten::addcdiv", "mul div add"},
    {"aten::lerp", "sub mul add"},
    {"aten::isnan", "ne"},
    // layout and resampling
    {"aten::reshape_as", "reshape"},
    {"aten::view_as", "reshape"},
    {"aten::flip", "tract_core_gather"},
    {"aten::roll", "slice concat reshape"},
    {"aten::movedim", "transpose"},
    {"aten::tile", "tile"},
    {"aten::pixel_shuffle", "reshape transpose"},
    {"aten::pixel_unshuffle", "reshape transpose"},
    {"aten::upsample_nearest1d", "tract_core_gather ?debox +unsqueeze +tile +reshape"},
    {"aten::upsample_nearest2d", "tract_core_gather ?debox +unsqueeze +tile +reshape"},
    {"aten::upsample_nearest3d", "tract_core_gather ?debox +unsqueeze +tile +reshape"},
    {"aten::upsample_linear1d", kLinearResample},
    {"aten::upsample_bilinear2d", kLinearResample},
    {"aten::upsample_trilinear3d", kLinearResample},
    // lists, slicing
    {"prim::ListConstruct", kUnpack},
    {"prim::TupleConstruct", kUnpack},
    {"prim::DictConstruct", kUnpack},
    {"prim::ListUnpack", kUnpack},
    {"prim::TupleUnpack", kUnpack},
    {"aten::cat", "concat"},
    {"aten::stack", "stack"},
    {"aten::chunk", "slice"},
    {"aten::unsafe_chunk", "slice"},
    {"aten::split", "slice"},
    {"aten::split_with_sizes", "slice"},
    {"aten::unbind", "slice squeeze"},
    {"aten::slice", "slice"},
    {"aten::select", "slice squeeze"},
    {"aten::narrow", "slice"},
    // matrix products
    {"aten::matmul", "matmul squeeze ?tract_core_einsum"},
    {"aten::mm", "matmul squeeze ?tract_core_einsum"},
    {"aten::bmm", "matmul squeeze ?tract_core_einsum"},
    {"aten::linear", "linear matmul add ?tract_core_einsum +unsqueeze +squeeze"},
    {"aten::addmm", "matmul mul add"},
    {"aten::t", "transpose"},
    {"aten::einsum", "?tract_core_einsum +transpose +reshape +matmul"},
    {"aten::baddbmm", "matmul mul add"},
    {"aten::mv", "matmul squeeze"},
    {"aten::addmv", "matmul squeeze mul add"},
    {"aten::dot", "mul sum_reduce squeeze"},
    {"aten::outer", "mul"},
    // normalisation
    {"aten::batch_norm", "batch_normalization"},
    {"aten::group_norm", "reshape mean_reduce sub mul add sqrt div"},
    {"aten::layer_norm", "mean_reduce sub mul add sqrt div"},
    {"aten::instance_norm", "mean_reduce sub mul add sqrt div reshape"},
    // padding and pooling
    {"aten::constant_pad_nd", kConstantPadding},
    {"aten::pad", kConstantPadding},
    {"aten::reflection_pad1d", kPadding},
    {"aten::reflection_pad2d", kPadding},
    {"aten::reflection_pad3d", kPadding},
    {"aten::replication_pad1d", kPadding},
    {"aten::replication_pad2d", kPadding},
    {"aten::replication_pad3d", kPadding},
    {"aten::max_pool1d", kPool},
    {"aten::max_pool2d", kPool},
    {"aten::max_pool3d", kPool},
    {"aten::avg_pool1d", kAvgPool},
    {"aten::avg_pool2d", kAvgPool},
    {"aten::avg_pool3d", kAvgPool},
    {"aten::adaptive_avg_pool1d", kAdaptive},
    {"aten::adaptive_avg_pool2d", kAdaptive},
    {"aten::adaptive_avg_pool3d", kAdaptive},
    {"aten::adaptive_max_pool1d", kAdaptive},
    {"aten::adaptive_max_pool2d", kAdaptive},
    {"aten::adaptive_max_pool3d", kAdaptive},
    // quantized (per-tensor affine, graph.quant)
    {"aten::dequantize", "tract_core_cast"},
    {"quantized::conv2d", kQuantizedConv},
    {"quantized::conv2d_relu", kQuantizedConv},
    {"quantized::linear", kQuantizedLinear},
    {"quantized::linear_relu", kQuantizedLinear},
    {"quantized::add", "add relu +mul ?tract_core_round_even +clamp +sub +div +round"},
    {"quantized::add_relu", "add relu +max +mul ?tract_core_round_even +clamp +sub +div +round"},
    // recurrent layers (unrolled with a static time axis, tract_core_scan otherwise)
    {"aten::lstm", kRecurrent},
    {"aten::gru", kRecurrent},
    {"aten::rnn_tanh", kRecurrent},
    {"aten::rnn_relu", kRecurrent},
    {"aten::lstm_cell", kCell},
    {"aten::gru_cell", kCell},
    {"aten::rnn_tanh_cell", kCell},
    {"aten::rnn_relu_cell", kCell},
    // reductions and statistics
    {"aten::mean", "mean_reduce squeeze"},
    {"aten::sum", "sum_reduce squeeze"},
    {"aten::max", "max_reduce argmax_reduce squeeze max"},
    {"aten::min", "min_reduce argmin_reduce squeeze min"},
    {"aten::amax", "max_reduce squeeze"},
    {"aten::amin", "min_reduce squeeze"},
    {"aten::argmax", "argmax_reduce reshape squeeze"},
    {"aten::argmin", "argmin_reduce reshape squeeze"},
    {"aten::prod", "tract_core_product_reduce squeeze"},
    {"aten::any", "any_reduce squeeze"},
    {"aten::all", "all_reduce squeeze"},
    {"aten::var", "mean_reduce sub mul +sum_reduce +div sqrt squeeze +tract_core_cast"},
    {"aten::std", "mean_reduce sub mul +sum_reduce +div sqrt squeeze +tract_core_cast"},
    {"aten::var_mean", "mean_reduce sub mul +sum_reduce +div sqrt squeeze +tract_core_cast"},
    {"aten::std_mean", "mean_reduce sub mul +sum_reduce +div sqrt squeeze +tract_core_cast"},
    {"aten::norm", "abs mul sum_reduce sqrt max_reduce min_reduce pow squeeze"},
    {"aten::linalg_vector_norm", "abs mul sum_reduce sqrt max_reduce min_reduce pow squeeze"},
    {"aten::frobenius_norm", "mul sum_reduce sqrt squeeze"},
    {"aten::logsumexp", "max_reduce sub exp sum_reduce log add squeeze"},
    {"aten::cumsum",
     "matmul +transpose +squeeze +unsqueeze +tract_core_cast +tract_core_range +ge"},
    {"aten::cumprod", "slice mul concat"},
    // shapes
    {"aten::view", "reshape"},
    {"aten::reshape", "reshape"},
    {"aten::flatten", "reshape"},
    {"aten::permute", "transpose"},
    {"aten::transpose", "transpose"},
    {"aten::squeeze", "squeeze"},
    {"aten::unsqueeze", "unsqueeze"},
    {"aten::expand", "tile"},
    {"aten::expand_as", "tile"},
    {"aten::repeat", "tile"},
    {"aten::contiguous", kUnpack},
    {"aten::clone", kUnpack},
    {"aten::detach", kUnpack},
    {"aten::alias", kUnpack},
    {"prim::unchecked_cast", kUnpack},
    {"aten::dropout", kUnpack},
    {"aten::feature_dropout", kUnpack},
    {"aten::alpha_dropout", kUnpack},
    {"aten::feature_alpha_dropout", kUnpack},
    {"aten::to", "tract_core_cast"},
    {"aten::type_as", "tract_core_cast"},
    {"aten::_to_copy", "tract_core_cast"},
    // indexing
    {"aten::embedding", "tract_core_gather"},
    {"aten::gather", "tract_core_gather_elements"},
    {"aten::index_select", "tract_core_gather"},
    {"aten::triu", "tract_core_trilu +tract_core_range +tract_core_cast +unsqueeze +ge +select"},
    {"aten::tril", "tract_core_trilu +tract_core_range +tract_core_cast +unsqueeze +le +select"},
    {"aten::topk", "tract_core_topk"},
};
// clang-format on

} // namespace

void declareLegacyEmits(Registry& r) {
    for (const auto& d : kDeclared)
        r.declare(d.kind, d.emits);
}

} // namespace t2n::translate
