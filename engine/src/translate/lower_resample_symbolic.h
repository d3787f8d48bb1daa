// Linear and cubic resampling whose sizes follow a symbol
// (lower_resample_symbolic.cpp).
#pragma once

#include "translate/context.h"

#include <vector>

namespace t2n::translate {

/// How an output item mixes the input items around its source position.
enum class ResampleKernel {
    Linear, ///< upsample_linear1d / bilinear2d / trilinear3d: two taps
    Cubic,  ///< upsample_bicubic2d: four taps, PyTorch's cubic convolution (A = -0.75)
};

/// upsample_{linear1d,bilinear2d,trilinear3d,bicubic2d} (x, output_size?,
/// align_corners, scale_factors?) when a spatial axis of its input or output
/// follows a dynamic axis: the source positions and weights computed in the
/// graph from the sizes (tract_core_range over the output size), so the
/// archive follows the symbol. `factors` are the scale factors given, one per
/// spatial axis (0 when absent). False, emitting nothing, when every spatial
/// axis is static (the constant tables of lower_layout.cpp then).
bool resampleFollowingSymbols(Context& ctx, const std::vector<double>& factors,
                              ResampleKernel kernel);

} // namespace t2n::translate
