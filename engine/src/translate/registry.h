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
    /// The NNEF operations the lowering may emit, space separated, beyond
    /// what the context itself writes (casts, constants, copies): "op" may
    /// be emitted for any arguments; "+op" only for some forms of the kind
    /// (GELU's exact form needs tract_core_erf); "?op" only when the target
    /// has it (InferenceTarget::has), a fallback otherwise; "op:param" a
    /// parameter the version table limits (with "+" when only some forms
    /// need it); "!khronos" the lowering refuses Khronos targets; "-"
    /// nothing (an identity). Empty: not declared yet. The supported-operator table derives the
    /// Khronos and "since tract" columns from it; exports check it.
    std::string emits;
};

class Registry {
public:
    /// Entries added after this belong to `family`.
    void beginFamily(std::string family) { family_ = std::move(family); }
    void add(std::string kind, LowerFn lower, std::string note = {}, std::string emits = {});
    /// The entry for `kind`; an in-place kind (aten::relu_) falls back to its
    /// functional form, which is what it computes once mutation is removed.
    const OpEntry* find(std::string_view kind) const;
    const std::vector<OpEntry>& entries() const { return entries_; }
    /// Sets the declaration of a kind registered without one (see
    /// declared_emits.cpp); a kind that is absent or declares itself is noted
    /// in problems().
    void declare(std::string_view kind, std::string emits);
    /// Mistakes in the declarations: unknown kinds, double declarations,
    /// tokens that name no operation or version-table row.
    std::vector<std::string> problems() const;

private:
    std::string family_;
    std::vector<OpEntry> entries_;
    std::vector<std::string> problems_;
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
void registerMathOps(Registry& r);
void registerStatsOps(Registry& r);
void registerTransformerOps(Registry& r);
void registerLayoutOps(Registry& r);
void registerRecurrentOps(Registry& r);
void registerAttentionOps(Registry& r);
void registerQuantizedOps(Registry& r);
void registerWriteOps(Registry& r);
void registerScatterOps(Registry& r);
void registerAdvancedIndexOps(Registry& r);
void registerSortOps(Registry& r);
/// The declarations of the kinds whose lowering predates them.
void declareLegacyEmits(Registry& r);
void registerSpecialValueOps(Registry& r);
void registerBinaryMathOps(Registry& r);
void registerLossOps(Registry& r);
void registerSpecialFunctionOps(Registry& r);
void registerMatrixNormOps(Registry& r);
void registerWindowOps(Registry& r);
void registerGridSampleOps(Registry& r);
void registerDiagonalOps(Registry& r);
void registerDistanceOps(Registry& r);
void registerScanOps(Registry& r);
void registerGridOps(Registry& r);
void registerSpectralOps(Registry& r);
void registerRandomOps(Registry& r);
void registerLinalgOps(Registry& r);
void registerSamplerOps(Registry& r);
/// Lowerings of kinds that read or write a complex value (ir::Value::complex,
/// a trailing axis of 2): the translator looks such nodes up here.
void registerComplexOps(Registry& r);
const Registry& complexRegistry();

const Registry& defaultRegistry();

/// The tokens of an entry's `emits` ("?tract_core_is_inf", "gt", ...).
std::vector<std::string> declaredTokens(const OpEntry& e);
/// True when `op` is declared by `e` (with or without '?' or '+'), or is one of the
/// operations the context writes for any lowering (casts, rank-aligning
/// unsqueezes, constants, variables, copies).
bool declares(const OpEntry& e, std::string_view op);

} // namespace t2n::translate
