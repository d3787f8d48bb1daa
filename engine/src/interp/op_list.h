// The one list of the interpreter's operations: X(name, availability,
// signature, kernel). Signatures follow the Khronos stdlib (§1.3) and tract's
// registrations (§2.2, §2.3); "name: tensor" marks a tensor parameter,
// "name: tensor[]" an array of tensors, everything else is an attribute.
// Compound standard operations are direct kernels computing their stdlib
// bodies literally (same operations, same order).
#pragma once

#include "interp/ops.h"

#include <vector>

// clang-format off
#define T2N_INTERP_OPS(X)                                                                          \
    /* tensor introduction (§1.2); external is handled by the graph runner */                      \
    X("external", Both, "shape", kExternal)                                                        \
    X("tract_core_external", Tract, "datum_type, shape", kExternal)                                \
    X("variable", Both, "shape, label", kVariable)                                                 \
    X("constant", Khronos, "shape, value", kConstant)                                              \
    /* element-wise unary (§1.3; tract natives and stdlib bodies §2.2) */                          \
    X("copy", Both, "x: tensor", kUnary)                                                           \
    X("neg", Both, "x: tensor", kUnary)                                                            \
    X("abs", Both, "x: tensor", kUnary)                                                            \
    X("sign", Both, "x: tensor", kUnary)                                                           \
    X("exp", Both, "x: tensor", kUnary)                                                            \
    X("log", Both, "x: tensor", kUnary)                                                            \
    X("log2", Both, "x: tensor", kUnary)                                                           \
    X("sin", Both, "x: tensor", kUnary)                                                            \
    X("cos", Both, "x: tensor", kUnary)                                                            \
    X("tan", Both, "x: tensor", kUnary)                                                            \
    X("sinh", Both, "x: tensor", kUnary)                                                           \
    X("cosh", Both, "x: tensor", kUnary)                                                           \
    X("tanh", Both, "x: tensor", kUnary)                                                           \
    X("asin", Both, "x: tensor", kUnary)                                                           \
    X("acos", Both, "x: tensor", kUnary)                                                           \
    X("atan", Both, "x: tensor", kUnary)                                                           \
    X("asinh", Both, "x: tensor", kUnary)                                                          \
    X("acosh", Both, "x: tensor", kUnary)                                                          \
    X("atanh", Both, "x: tensor", kUnary)                                                          \
    X("floor", Both, "x: tensor", kUnary)                                                          \
    X("ceil", Both, "x: tensor", kUnary)                                                           \
    X("round", Both, "x: tensor", kUnary)                                                          \
    X("sqrt", Both, "x: tensor", kUnary)                                                           \
    X("rsqrt", Both, "x: tensor", kUnary)                                                          \
    X("sqr", Both, "x: tensor", kUnary)                                                            \
    X("rsqr", Both, "x: tensor", kUnary)                                                           \
    X("rcp", Khronos, "x: tensor", kUnary)                                                         \
    X("recip", Tract, "x: tensor", kUnary)                                                         \
    X("square", Tract, "x: tensor", kUnary)                                                        \
    X("not", Both, "x: tensor", kUnary)                                                            \
    X("sigmoid", Both, "x: tensor", kUnary)                                                        \
    X("relu", Both, "x: tensor", kUnary)                                                           \
    X("softplus", Both, "x: tensor", kUnary)                                                       \
    X("gelu", Khronos, "x: tensor", kUnary)                                                        \
    X("silu", Khronos, "x: tensor", kUnary)                                                        \
    X("elu", Khronos, "x: tensor, alpha = 1.0", kElu)                                              \
    X("elu", Tract, "x: tensor", kElu)                                                             \
    X("selu", Khronos, "x: tensor, alpha = 1.67326319, lambda = 1.05070102", kSelu)                \
    X("softabs", Both, "x: tensor, epsilon", kSoftabs)                                             \
    X("leaky_relu", Both, "x: tensor, alpha", kLeakyRelu)                                          \
    X("prelu", Both, "x: tensor, alpha: tensor", kPrelu)                                           \
    X("clamp", Both, "x: tensor, a: tensor, b: tensor", kClamp)                                    \
    X("tract_core_erf", Tract, "x: tensor", kUnary)                                                \
    X("tract_core_round_even", Tract, "x: tensor", kUnary)                                         \
    X("tract_core_hard_swish", Tract, "x: tensor", kUnary)                                         \
    X("tract_core_silu", Tract, "x: tensor", kUnary)                                               \
    X("tract_core_bitnot", Tract, "x: tensor", kUnary)                                             \
    X("tract_core_is_nan", Tract, "x: tensor", kUnary)                                             \
    X("tract_core_tan", Tract, "x: tensor", kUnary)                                                \
    X("tract_core_asin", Tract, "x: tensor", kUnary)                                               \
    X("tract_core_acos", Tract, "x: tensor", kUnary)                                               \
    X("tract_core_atan", Tract, "x: tensor", kUnary)                                               \
    X("tract_core_sinh", Tract, "x: tensor", kUnary)                                               \
    X("tract_core_cosh", Tract, "x: tensor", kUnary)                                               \
    X("tract_core_asinh", Tract, "x: tensor", kUnary)                                              \
    X("tract_core_acosh", Tract, "x: tensor", kUnary)                                              \
    X("tract_core_atanh", Tract, "x: tensor", kUnary)                                              \
    X("tract_core_gelu_approx", Tract, "input: tensor, fast_impl = false", kGeluApprox)            \
    X("tract_core_is_inf", Tract, "input: tensor, detect_positive = true, detect_negative = true",  \
      kIsInf)                                                                                      \
    X("tract_core_pow_const", Tract, "input: tensor, exponent", kPowConst)                         \
    /* element-wise binary, comparison, logic, select, cast */                                     \
    X("add", Both, "x: tensor, y: tensor", kBinary)                                                \
    X("sub", Both, "x: tensor, y: tensor", kBinary)                                                \
    X("mul", Both, "x: tensor, y: tensor", kBinary)                                                \
    X("div", Both, "x: tensor, y: tensor", kBinary)                                                \
    X("pow", Both, "x: tensor, y: tensor", kBinary)                                                \
    X("min", Both, "x: tensor, y: tensor", kBinary)                                                \
    X("max", Both, "x: tensor, y: tensor", kBinary)                                                \
    X("lt", Both, "x: tensor, y: tensor", kBinary)                                                 \
    X("gt", Both, "x: tensor, y: tensor", kBinary)                                                 \
    X("le", Both, "x: tensor, y: tensor", kBinary)                                                 \
    X("ge", Both, "x: tensor, y: tensor", kBinary)                                                 \
    X("eq", Both, "x: tensor, y: tensor", kBinary)                                                 \
    X("ne", Both, "x: tensor, y: tensor", kBinary)                                                 \
    X("and", Both, "x: tensor, y: tensor", kBinary)                                                \
    X("or", Both, "x: tensor, y: tensor", kBinary)                                                 \
    X("tract_core_xor", Tract, "x: tensor, y: tensor", kBinary)                                    \
    X("tract_core_bitand", Tract, "x: tensor, y: tensor", kBinary)                                 \
    X("tract_core_bitor", Tract, "x: tensor, y: tensor", kBinary)                                  \
    X("tract_core_bitxor", Tract, "x: tensor, y: tensor", kBinary)                                 \
    X("tract_shl", Tract, "x: tensor, y: tensor", kBinary)                                         \
    X("tract_shr", Tract, "x: tensor, y: tensor", kBinary)                                         \
    X("select", Both, "condition: tensor, true_value: tensor, false_value: tensor", kSelect)       \
    X("cast", Khronos, "input: tensor", kCast)                                                     \
    X("tract_core_cast", Tract, "input: tensor, to = ''", kCast)                                   \
    /* quantisation and misc (§1.3) */                                                             \
    X("linear_quantize", Both, "x: tensor, min: tensor, max: tensor, bits", kQuantize)             \
    X("min_max_linear_quantize", Both,                                                             \
      "x: tensor, min: tensor, max: tensor, bits, signed, symmetric", kQuantize)                   \
    X("zero_point_linear_quantize", Both,                                                          \
      "x: tensor, zero_point: tensor, scale: tensor, bits, signed, symmetric = false", kQuantize)  \
    X("logarithmic_quantize", Both, "x: tensor, max: tensor, bits", kQuantize)                     \
    X("add_n", Both, "x: tensor[]", kAddN)                                                         \
    X("copy_n", Both, "x: tensor, times", kCopyN)                                                  \
    /* shape operations (§1.3, §2.3) */                                                            \
    X("reshape", Both, "input: tensor, shape, axis_start = 0, axis_count = -1", kReshape)          \
    X("transpose", Both, "input: tensor, axes", kTranspose)                                        \
    X("concat", Both, "values: tensor[], axis", kConcat)                                           \
    X("split", Khronos, "value: tensor, axis, ratios", kSplit)                                     \
    X("slice", Both, "input: tensor, axes, begin, end, stride = []", kSlice)                       \
    X("squeeze", Both, "input: tensor, axes", kSqueeze)                                            \
    X("unsqueeze", Both, "input: tensor, axes", kUnsqueeze)                                        \
    X("stack", Both, "values: tensor[], axis", kStack)                                             \
    X("unstack", Both, "value: tensor, axis", kUnstack)                                            \
    X("tile", Both, "input: tensor, repeats", kTile)                                               \
    X("pad", Both, "input: tensor, padding, border = 'constant', value = 0.0", kPad)               \
    X("gather", Khronos, "input: tensor, indices: tensor, axis = 0", kGather)                      \
    X("tract_core_gather", Tract, "input: tensor, indices: tensor, axis, datum_type = ''",         \
      kTractGather)                                                                                \
    X("tract_core_gather_elements", Tract, "input: tensor, indices: tensor, axis",                 \
      kGatherElements)                                                                             \
    X("tract_core_gather_nd", Tract, "input: tensor, indices: tensor, batch_dims", kGatherNd)      \
    X("tract_core_broadcast", Tract, "input: tensor, shape", kBroadcast)                           \
    X("tract_core_dyn_slice", Tract, "input: tensor, start: tensor, end: tensor, len, axis",       \
      kDynSlice)                                                                                   \
    X("tract_core_trilu", Tract, "input: tensor, k: tensor, upper", kTrilu)                        \
    X("tract_core_shape_of", Tract, "input: tensor", kShapeOf)                                     \
    X("tract_core_scatter_elements", Tract,                                                        \
      "input: tensor, indices: tensor, updates: tensor, axis, reduction = 'none'",                 \
      kScatterElements)                                                                            \
    X("tract_core_scatter_nd", Tract,                                                              \
      "input: tensor, indices: tensor, updates: tensor, reduction = 'none'", kScatterNd)           \
    X("tract_core_one_hot", Tract, "input: tensor, axis, dim, value_off = 0.0, value_on = 1.0",    \
      kOneHot)                                                                                     \
    X("tract_core_range", Tract, "start: tensor, end: tensor, step: tensor", kRange)               \
    /* tract_onnx registry (onnx-opl/src/random.rs); seed -1: none given */                        \
    X("tract_onnx_random", Tract, "datum_type, shape, dist, parameters, seed = -1", kRandom)       \
    /* spectra on complex numbers as a trailing axis of 2 (tract core/src/ops/fft.rs) */          \
    X("tract_core_fft", Tract, "input: tensor, axis, inverse", kFft)                               \
    X("tract_core_stft", Tract, "input: tensor, axis, frame, stride, window: tensor = false",      \
      kStft)                                                                                       \
    /* reductions, softmax, matrix products, normalisation (§1.3, §2.3) */                         \
    X("sum_reduce", Both, "input: tensor, axes, normalize = false", kReduce)                       \
    X("mean_reduce", Both, "input: tensor, axes", kReduce)                                         \
    X("max_reduce", Both, "input: tensor, axes", kReduce)                                          \
    X("min_reduce", Both, "input: tensor, axes", kReduce)                                          \
    X("argmax_reduce", Both, "input: tensor, axes", kReduce)                                       \
    X("argmin_reduce", Both, "input: tensor, axes", kReduce)                                       \
    X("any_reduce", Both, "input: tensor, axes", kReduce)                                          \
    X("all_reduce", Both, "input: tensor, axes", kReduce)                                          \
    X("tract_core_product_reduce", Tract, "input: tensor, axes", kReduce)                          \
    X("tract_core_argmax_reduce_last", Tract, "input: tensor, axes", kReduce)                      \
    X("tract_core_argmin_reduce_last", Tract, "input: tensor, axes", kReduce)                      \
    X("moments", Both, "input: tensor, axes", kMoments)                                            \
    X("softmax", Both, "x: tensor, axes = [1]", kSoftmax)                                          \
    X("tract_core_softmax", Tract, "x: tensor, axes, exp = ''", kSoftmax)                          \
    X("tract_core_log_softmax", Tract, "x: tensor, axes", kSoftmax)                                \
    X("tract_core_topk", Tract, "input: tensor, k, axis, largest = true", kTopk)                   \
    X("matmul", Both, "A: tensor, B: tensor, transposeA = false, transposeB = false", kMatmul)     \
    X("linear", Both, "input: tensor, filter: tensor, bias: tensor = 0.0", kLinear)                \
    X("tract_core_einsum", Tract, "inputs: tensor[], expr, acc, output = ''", kEinsum)             \
    /* mask 0.0: none; scale '': absent, 1/sqrt(D) (tract's Option<f32>) */                        \
    X("tract_transformers_sdpa", Tract,                                                            \
      "q: tensor, k: tensor, v: tensor, mask: tensor = 0.0, scale = '', datum_type, "              \
      "acc_datum_type, is_causal", kSdpa)                                                          \
    X("batch_normalization", Both,                                                                 \
      "input: tensor, mean: tensor, variance: tensor, offset: tensor, scale: tensor, epsilon",     \
      kBatchNorm)                                                                                  \
    X("l1_normalization", Both, "input: tensor, axes, bias = 0.0, epsilon = 0.0", kLpNorm)         \
    X("l2_normalization", Both, "input: tensor, axes, bias = 0.0, epsilon = 0.0", kLpNorm)         \
    /* sliding-window operations (§1.2, §1.3) */                                                   \
    X("conv", Both,                                                                                \
      "input: tensor, filter: tensor, bias: tensor = 0.0, border = 'constant', padding = [], "     \
      "stride = [], dilation = [], groups = 1", kConv)                                             \
    X("deconv", Both,                                                                              \
      "input: tensor, filter: tensor, bias: tensor = 0.0, border = 'constant', padding = [], "     \
      "stride = [], dilation = [], output_shape = [], groups = 1", kConv)                          \
    X("separable_conv", Both,                                                                      \
      "input: tensor, plane_filter: tensor, point_filter: tensor, bias: tensor = 0.0, "            \
      "border = 'constant', padding = [], stride = [], dilation = [], groups = 1", kConv)          \
    X("separable_deconv", Both,                                                                    \
      "input: tensor, plane_filter: tensor, point_filter: tensor, bias: tensor = 0.0, "            \
      "border = 'constant', padding = [], stride = [], dilation = [], output_shape = [], "         \
      "groups = 1", kConv)                                                                         \
    X("box", Both,                                                                                 \
      "input: tensor, size, border = 'constant', padding = [], stride = [], dilation = [], "       \
      "normalize = false", kBox)                                                                   \
    X("debox", Both,                                                                               \
      "input: tensor, size, border = 'constant', padding = [], stride = [], dilation = [], "       \
      "output_shape = [], normalize = false", kDebox)                                              \
    X("max_pool", Both,                                                                            \
      "input: tensor, size, border = 'constant', padding = [], stride = [], dilation = []", kBox)  \
    X("avg_pool", Both,                                                                            \
      "input: tensor, size, border = 'constant', padding = [], stride = [], dilation = []", kBox)  \
    X("rms_pool", Both,                                                                            \
      "input: tensor, size, border = 'constant', padding = [], stride = [], dilation = []", kBox)  \
    X("local_response_normalization", Both,                                                        \
      "input: tensor, size, alpha = 1.0, beta = 0.5, bias = 1.0", kLocalNorm)                      \
    X("local_mean_normalization", Both, "input: tensor, size", kLocalNorm)                         \
    X("local_variance_normalization", Both, "input: tensor, size, bias = 0.0, epsilon = 0.0",      \
      kLocalNorm)                                                                                  \
    X("local_contrast_normalization", Both, "input: tensor, size, bias = 0.0, epsilon = 0.0",      \
      kLocalNorm)                                                                                  \
    X("nearest_downsample", Both, "input: tensor, factor", kResample)                              \
    X("area_downsample", Both, "input: tensor, factor", kResample)                                 \
    X("nearest_upsample", Both, "input: tensor, factor", kResample)                                \
    X("multilinear_upsample", Both,                                                                \
      "input: tensor, factor, method = 'symmetric', border = 'replicate'", kResample)              \
    /* tract control flow (§2.3) */                                                                \
    X("tract_core_scan", Tract,                                                                    \
      "body, scan = [], full = [], state = [], output = [], skip = 0, reset_every_turn = 0, "      \
      "external_state = 0, seq_length = -1", kScan)
// clang-format on

namespace t2n::interp::kernels {
#define T2N_DECLARE_KERNEL(name, availability, signature, kernel)                                  \
    std::vector<Value> kernel(const Call& call);
T2N_INTERP_OPS(T2N_DECLARE_KERNEL)
#undef T2N_DECLARE_KERNEL
} // namespace t2n::interp::kernels
