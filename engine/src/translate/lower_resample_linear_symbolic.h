// Linear resampling whose sizes follow a symbol (lower_resample_linear_symbolic.cpp).
#pragma once

#include "translate/context.h"

#include <vector>

namespace t2n::translate {

/// upsample_linear1d / bilinear2d / trilinear3d (x, output_size?,
/// align_corners, scale_factors?) when a spatial axis of its input or output
/// follows a dynamic axis: the source positions and weights computed in the
/// graph from the sizes (tract_core_range over the output size), so the
/// archive follows the symbol. `factors` are the scale factors given, one per
/// spatial axis (0 when absent). False, emitting nothing, when every spatial
/// axis is static (the constant tables of lower_layout.cpp then).
bool linearResampleFollowingSymbols(Context& ctx, const std::vector<double>& factors);

} // namespace t2n::translate
