#include "target/quantized_kinds.h"

#include <algorithm>
#include <array>

namespace t2n::target {

bool keepsQuantizedIntegers(std::string_view kind) {
    static constexpr std::array<std::string_view, 38> kKinds{"aten::quantize_per_tensor",
                                                             "aten::dequantize",
                                                             "aten::relu",
                                                             "aten::relu_",
                                                             "aten::max_pool1d",
                                                             "aten::max_pool2d",
                                                             "aten::max_pool3d",
                                                             "aten::reshape",
                                                             "aten::view",
                                                             "aten::flatten",
                                                             "aten::unflatten",
                                                             "aten::squeeze",
                                                             "aten::unsqueeze",
                                                             "aten::transpose",
                                                             "aten::permute",
                                                             "aten::contiguous",
                                                             "aten::clone",
                                                             "aten::chunk",
                                                             "aten::split",
                                                             "aten::split_with_sizes",
                                                             "aten::unbind",
                                                             "aten::slice",
                                                             "aten::select",
                                                             "aten::narrow",
                                                             "aten::cat",
                                                             "aten::stack",
                                                             "aten::dropout",
                                                             "aten::feature_dropout",
                                                             "aten::flip",
                                                             "aten::expand",
                                                             "aten::repeat",
                                                             "aten::upsample_nearest1d",
                                                             "aten::upsample_nearest2d",
                                                             "aten::upsample_nearest3d",
                                                             "aten::pixel_shuffle",
                                                             "aten::pixel_unshuffle",
                                                             "aten::channel_shuffle",
                                                             "prim::ListUnpack"};
    return std::find(kKinds.begin(), kKinds.end(), kind) != kKinds.end();
}

} // namespace t2n::target
