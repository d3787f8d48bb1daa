// The lowering registry: aten/prim kind -> the function that emits its NNEF.
// One file per operator family registers its kinds through registerXxxOps();
// defaultRegistry() calls them all from one list (no static self-registration).
#pragma once

#include "translate/context.h"

#include <string>
#include <string_view>
#include <vector>

namespace t2n::translate {

using LowerFn = void (*)(Context&);

struct OpEntry {
    std::string kind; ///< aten::conv2d
    LowerFn lower = nullptr;
    std::string family; ///< conv, pool, elementwise, ...
    std::string note;   ///< restrictions, shown in the supported-operator table
};

class Registry {
public:
    /// Entries added after this belong to `family`.
    void beginFamily(std::string family) { family_ = std::move(family); }
    void add(std::string kind, LowerFn lower, std::string note = {});
    /// The entry for `kind`; an in-place kind (aten::relu_) falls back to its
    /// functional form, which is what it computes once mutation is removed.
    const OpEntry* find(std::string_view kind) const;
    const std::vector<OpEntry>& entries() const { return entries_; }

private:
    std::string family_;
    std::vector<OpEntry> entries_;
};

void registerElementwiseOps(Registry& r);
void registerActivationOps(Registry& r);
void registerConvOps(Registry& r);
void registerPoolOps(Registry& r);
void registerNormOps(Registry& r);
void registerMatmulOps(Registry& r);
void registerShapeOps(Registry& r);
void registerFactoryOps(Registry& r);
void registerListOps(Registry& r);
void registerReduceOps(Registry& r);
void registerPadOps(Registry& r);
void registerRnnOps(Registry& r);
void registerMathOps(Registry& r);
void registerStatsOps(Registry& r);
void registerTransformerOps(Registry& r);
void registerLayoutOps(Registry& r);
void registerRecurrentOps(Registry& r);
void registerAttentionOps(Registry& r);
void registerQuantizedOps(Registry& r);
void registerWriteOps(Registry& r);

const Registry& defaultRegistry();

} // namespace t2n::translate
