#include "target/inference_target.h"

#include "target/khronos_target.h"
#include "target/tract_target.h"

namespace t2n::target {

std::unique_ptr<InferenceTarget> makeTarget(const TargetSpec& spec) {
    if (spec.kind == TargetKind::Khronos)
        return std::make_unique<KhronosTarget>();
    return std::make_unique<TractTarget>(spec);
}

} // namespace t2n::target
