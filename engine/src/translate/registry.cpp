#include "translate/registry.h"

#include "t2n/coverage.h"

#include <algorithm>

namespace t2n::translate {

void Registry::add(std::string kind, LowerFn lower, std::string note) {
    entries_.push_back(OpEntry{std::move(kind), lower, family_, std::move(note)});
}

const OpEntry* Registry::find(std::string_view kind) const {
    auto match = [&](std::string_view k) -> const OpEntry* {
        auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const OpEntry& e) { return e.kind == k; });
        return it == entries_.end() ? nullptr : &*it;
    };
    if (const OpEntry* e = match(kind))
        return e;
    if (kind.size() > 1 && kind.back() == '_' && kind[kind.size() - 2] != '_')
        return match(kind.substr(0, kind.size() - 1));
    return nullptr;
}

const Registry& defaultRegistry() {
    static const Registry registry = [] {
        Registry r;
        registerElementwiseOps(r);
        registerActivationOps(r);
        registerConvOps(r);
        registerPoolOps(r);
        registerNormOps(r);
        registerMatmulOps(r);
        registerShapeOps(r);
        registerFactoryOps(r);
        registerListOps(r);
        registerWriteOps(r);
        registerReduceOps(r);
        registerPadOps(r);
        registerRnnOps(r);
        registerMathOps(r);
        registerStatsOps(r);
        registerTransformerOps(r);
        registerLayoutOps(r);
        registerRecurrentOps(r);
        registerAttentionOps(r);
        registerQuantizedOps(r);
        return r;
    }();
    return registry;
}

} // namespace t2n::translate

namespace t2n {

std::vector<SupportedOp> supportedOperators() {
    std::vector<SupportedOp> out;
    for (const auto& e : translate::defaultRegistry().entries())
        out.push_back(SupportedOp{e.kind, e.family, e.note});
    std::sort(out.begin(), out.end(),
              [](const SupportedOp& a, const SupportedOp& b) { return a.kind < b.kind; });
    return out;
}

} // namespace t2n
