#include "translate/compute_type.h"

#include "translate/tensor_convert.h"

#include <variant>

namespace t2n::translate {

ir::Graph halfGraph(const ir::Graph& graph, HalfOrigins* origins) {
    ir::Graph half = graph;
    for (auto& v : half.values) {
        if (v.kind != ir::ValueKind::Tensor || v.quant || v.dtype != DType::F32)
            continue;
        v.dtype = DType::F16;
        // The values lowerings read (folded tensors, weights) follow their
        // type: written as f16 variables or literals.
        for (auto* c : {&v.constant, &v.probeConstant})
            if (*c)
                if (auto* d = std::get_if<TensorData>(&**c); d && d->dtype() == DType::F32) {
                    TensorData f32 = *d;
                    **c = convertDType(f32, DType::F16);
                    if (origins)
                        origins->emplace(std::get<TensorData>(**c).identity(), std::move(f32));
                }
    }
    return half;
}

} // namespace t2n::translate
