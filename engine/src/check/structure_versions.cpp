// The tract-version rule of the structural check: an archive that names its
// target in tract_core_properties ("tract_target_version") may only use the
// operations and parameters that version of tract has, as the version table
// (nnef/tract_versions.h) says; the writer reads the same table, so a
// disagreement here is a bug on either side. Archives without the property
// (written by other tools) are not judged by version.
#include "check/structure_internal.h"
#include "target/tract_versions.h"

#include <fmt/format.h>

#include <optional>

namespace t2n::check {

namespace ast = nnef::ast;
using K = ast::Expr::Kind;

namespace {

// ("tract_target_version", "0.21.15") among the tuples of the properties
// fragment's body.
std::optional<std::pair<target::SemVer, ast::Location>> targetVersion(const ast::Document& doc) {
    for (const auto& f : doc.fragments) {
        if (f.name != "tract_core_properties")
            continue;
        for (const auto& a : f.body) {
            if (!a.rhs || a.rhs->kind != K::Array)
                continue;
            for (const auto& item : a.rhs->items)
                if (item && item->kind == K::Tuple && item->items.size() == 2 &&
                    item->items[0]->kind == K::String &&
                    item->items[0]->text == "tract_target_version" &&
                    item->items[1]->kind == K::String)
                    return std::pair{target::SemVer::parse(item->items[1]->text), item->loc};
        }
    }
    return std::nullopt;
}

} // namespace

void Checker::versionRules() {
    if (mode != nnef::ReadMode::Tract)
        return;
    const auto version = targetVersion(model.document);
    if (!version)
        return;
    const target::SemVer& v = version->first;
    auto judge = [&](const std::string& what, const OpUse& use, std::string_view kind) {
        const target::TractGate* gate = target::findTractGate(what);
        if (!gate || target::tractHas(what, v) || fragments.count(what))
            return;
        const std::string times =
            use.count > 1 ? fmt::format(" (used {} times)", use.count) : std::string();
        error("tract-version", use.first,
              fmt::format("{} '{}'{} needs {}, but the archive targets tract {} "
                          "(tract_target_version)",
                          kind, what, times, target::describeGate(*gate), v.str()));
    };
    for (const auto& [name, use] : opUses)
        judge(name, use, "operation");
    for (const auto& [key, use] : gatedParamUses)
        judge(key, use, "parameter");
}

} // namespace t2n::check
