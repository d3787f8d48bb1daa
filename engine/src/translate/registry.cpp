#include "translate/registry.h"

#include "t2n/coverage.h"
#include "target/khronos_target.h"
#include "target/op_catalog.h"
#include "target/tract_versions.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace t2n::translate {

void Registry::add(std::string kind, LowerFn lower, std::string note, std::string emits) {
    entries_.push_back(OpEntry{std::move(kind), lower, family_, std::move(note), std::move(emits)});
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

void Registry::declare(std::string_view kind, std::string emits) {
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const OpEntry& e) { return e.kind == kind; });
    if (it == entries_.end())
        problems_.push_back(std::string(kind) + ": declared, but not registered");
    else if (!it->emits.empty())
        problems_.push_back(std::string(kind) + ": declared twice");
    else
        it->emits = std::move(emits);
}

std::vector<std::string> Registry::problems() const {
    std::vector<std::string> out = problems_;
    for (const auto& e : entries_) {
        if (e.emits.empty())
            out.push_back(e.kind + ": declares no operations");
        for (const auto& t : declaredTokens(e)) {
            const std::string name = t[0] == '?' || t[0] == '+' ? t.substr(1) : t;
            if (name == "-" || name == "!khronos")
                continue;
            if (name.find(':') != std::string::npos ? !target::findTractGate(name)
                                                    : !target::findOp(name))
                out.push_back(e.kind + ": '" + t +
                              "' is neither an operation nor a "
                              "version-table parameter");
        }
    }
    return out;
}

std::vector<std::string> declaredTokens(const OpEntry& e) {
    std::vector<std::string> out;
    std::istringstream in(e.emits);
    for (std::string t; in >> t;)
        out.push_back(t);
    return out;
}

bool declares(const OpEntry& e, std::string_view op) {
    static const std::set<std::string_view> kContext{"tract_core_cast", "unsqueeze", "constant",
                                                     "variable", "copy"};
    if (kContext.count(op))
        return true;
    for (const auto& t : declaredTokens(e)) {
        const std::string_view name =
            t[0] == '?' || t[0] == '+' ? std::string_view(t).substr(1) : std::string_view(t);
        if (name == op)
            return true;
    }
    return false;
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
        registerMathOps(r);
        registerStatsOps(r);
        registerTransformerOps(r);
        registerLayoutOps(r);
        registerRecurrentOps(r);
        registerAttentionOps(r);
        registerQuantizedOps(r);
        registerScatterOps(r);
        registerAdvancedIndexOps(r);
        registerSortOps(r);
        registerSpecialValueOps(r);
        registerBinaryMathOps(r);
        registerDiagonalOps(r);
        registerDistanceOps(r);
        registerScanOps(r);
        registerGridOps(r);
        registerLossOps(r);
        registerSpecialFunctionOps(r);
        registerMatrixNormOps(r);
        registerWindowOps(r);
        registerGridSampleOps(r);
        registerSpectralOps(r);
        registerRandomOps(r);
        registerLinalgOps(r);
        registerSamplerOps(r);
        declareLegacyEmits(r);
        return r;
    }();
    return registry;
}

} // namespace t2n::translate

namespace t2n {

namespace {

// What the Khronos target makes of the operations the lowering may emit
// ("?" ones are only chosen for tract versions that have them, with a
// standard fallback): "yes"; "no: " and the operations without a standard
// form; "partly: " when those serve only some forms ("+" tokens).
std::string khronosColumn(const std::vector<std::string>& tokens) {
    std::vector<std::string> always, some;
    for (const auto& t : tokens) {
        if (t == "!khronos") {
            always.push_back("refused for Khronos");
            continue;
        }
        const bool optional = !t.empty() && t[0] == '+';
        const std::string name = optional ? t.substr(1) : t;
        if (name.empty() || name[0] == '?' || name == "-" || name.find(':') != std::string::npos)
            continue;
        const auto standard = target::standardEquivalent(name);
        const target::OpInfo* info =
            target::findOp(standard.empty() ? std::string_view(name) : standard);
        if (!info || !info->khronos)
            (optional ? some : always).push_back(name);
    }
    auto joined = [](const std::vector<std::string>& v) {
        std::string out;
        for (size_t i = 0; i < v.size(); ++i)
            out += (i ? ", " : "") + v[i];
        return out;
    };
    if (!always.empty())
        return "no: " + joined(always);
    if (!some.empty())
        return "partly: " + joined(some);
    return "yes";
}

// The newest "since" among the operations and parameters every form needs,
// and, when newer, among those some forms need ("+" tokens): the oldest
// tract that exports the kind at all, and every form of it.
std::string sinceColumn(const std::vector<std::string>& tokens) {
    const target::SemVer oldestKnown = target::SemVer::parse(knownTractVersions().front());
    target::SemVer always = oldestKnown, some = oldestKnown;
    for (const auto& t : tokens) {
        if (t.empty() || t[0] == '?' || t[0] == '!')
            continue;
        const bool optional = t[0] == '+';
        const auto since = target::tractSince(optional ? std::string_view(t).substr(1) : t);
        if (since.empty())
            continue;
        target::SemVer& bound = optional ? some : always;
        bound = std::max(bound, target::SemVer::parse(since));
    }
    std::string out = always > oldestKnown ? always.str() : std::string();
    if (some > always)
        out += (out.empty() ? "" : "; ") + some.str() + " for some forms";
    return out;
}

} // namespace

std::vector<SupportedOp> supportedOperators() {
    std::vector<SupportedOp> out;
    for (const auto& e : translate::defaultRegistry().entries()) {
        SupportedOp op{e.kind, e.family, e.note, translate::declaredTokens(e), {}, {}};
        if (!e.emits.empty()) {
            op.khronos = khronosColumn(op.emits);
            op.sinceTract = sinceColumn(op.emits);
        }
        out.push_back(std::move(op));
    }
    // Complex values (complexRegistry) have lowerings of their own: a note on
    // the kind's row, or a row of the "complex" family for kinds only complex
    // values have. Their Khronos column is the real form's.
    for (const auto& e : translate::complexRegistry().entries()) {
        if (e.family != "complex")
            continue; // the spectral kinds, listed above
        const std::string note =
            "complex (tract only): " + (e.note.empty() ? std::string("yes") : e.note);
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const SupportedOp& o) { return o.kind == e.kind; });
        if (it != out.end()) {
            it->note += (it->note.empty() ? "" : "; ") + note;
            continue;
        }
        SupportedOp op{e.kind, e.family, note, translate::declaredTokens(e), {}, {}};
        op.khronos = khronosColumn(op.emits);
        op.sinceTract = sinceColumn(op.emits);
        out.push_back(std::move(op));
    }
    std::sort(out.begin(), out.end(),
              [](const SupportedOp& a, const SupportedOp& b) { return a.kind < b.kind; });
    return out;
}

} // namespace t2n
