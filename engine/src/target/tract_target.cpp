#include "target/tract_target.h"

#include "t2n/error.h"
#include "target/properties.h"
#include "util/strings.h"

#include <algorithm>
#include <fmt/format.h>

namespace t2n::target {

SemVer SemVer::parse(std::string_view s) {
    if (!s.empty() && s.front() == 'v')
        s.remove_prefix(1);
    s = s.substr(0, s.find_first_of("-+"));
    SemVer v;
    auto parts = util::split(s, '.');
    for (size_t i = 0; i < parts.size() && i < 3; ++i)
        v.parts[i] = util::parseInt<int>(parts[i]).value_or(0);
    return v;
}

std::string SemVer::str() const {
    return fmt::format("{}.{}.{}", parts[0], parts[1], parts[2]);
}

TractTarget::TractTarget(const TargetSpec& spec) {
    const auto& known = knownTractVersions();
    std::string v = spec.version.empty() ? known.back() : spec.version;
    version_ = SemVer::parse(v);
    if (version_ < SemVer::parse("0.18.0"))
        throw Error(Stage::Translate, ErrorCode::InvalidOption,
                    fmt::format("tract {} is too old for t2n", version_.str()),
                    fmt::format("target tract 0.18.0 or newer; t2n knows {} to {}", known.front(),
                                known.back()));
    if (std::find(known.begin(), known.end(), version_.str()) == known.end())
        versionWarning_ = fmt::format(
            "tract {} is not a version t2n has rules for (known: {}); operator choices follow "
            "the nearest older known version",
            version_.str(), util::join(known, ", "));
}

void TractTarget::finishDocument(nnef::Document& doc, const ir::Graph&,
                                 const ExportOptions& options, const PropertyContext& props,
                                 std::vector<std::string>&) const {
    doc.properties = buildProperties(options, *this, props);
    declareRegistries(doc);
}

void TractTarget::declareRegistries(nnef::Document& doc) const {
    bool core = false, transformers = false;
    for (const auto& inv : doc.body) {
        core = core || inv.op.starts_with("tract_core_");
        transformers = transformers || inv.op.starts_with("tract_transformers_");
    }
    for (const auto& frag : doc.fragments) {
        core = core || frag.find("tract_core_") != std::string::npos;
        transformers = transformers || frag.find("tract_transformers_") != std::string::npos;
    }
    if (core)
        doc.addExtension("tract_registry tract_core");
    if (transformers)
        doc.addExtension("tract_registry tract_transformers");
}

void TractTarget::checkDocument(const nnef::Document& doc, const std::string& text,
                                bool allowSameIoNames) const {
    auto fail = [](std::string msg) {
        throw Error(Stage::Translate, ErrorCode::Internal, std::move(msg),
                    "this is a bug in t2n's tract lowering; please report it with the model");
    };
    for (const auto& inv : doc.body)
        if (inv.op == "rcp" || inv.op == "split" || inv.op == "constant")
            fail(fmt::format("operation '{}' is not available in tract", inv.op));
    for (const char* marker : {"{{", "{%", "{#"})
        if (text.find(marker) != std::string::npos)
            fail(fmt::format("graph.nnef contains '{}', which tract's template pass would rewrite",
                             marker));
    for (const auto& var : doc.variables)
        for (auto part : util::split(var.label, '/'))
            if (part.empty() || part.front() == '.')
                fail(fmt::format("label '{}' has an empty or dot-prefixed component, which tract "
                                 "ignores",
                                 var.label));
    for (const auto& out : allowSameIoNames ? std::vector<std::string>{} : doc.outputs)
        if (std::find(doc.inputs.begin(), doc.inputs.end(), out) != doc.inputs.end())
            fail(fmt::format("graph output '{}' is also a graph input; tract refuses that", out));
}

std::string sanitizePropertyValue(std::string_view v) {
    std::string out;
    for (char c : v) {
        if (c == '\n' || c == '\r' || c == '\\')
            out += ' ';
        else if (c == '"')
            out += '\'';
        else if ((c == '{' || c == '%' || c == '#') && !out.empty() && out.back() == '{')
            out += std::string(" ") + c;
        else
            out += c;
    }
    return out;
}

} // namespace t2n::target
