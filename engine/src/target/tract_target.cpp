#include "target/tract_target.h"

#include "t2n/error.h"
#include "target/op_catalog.h"
#include "target/properties.h"
#include "util/strings.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace t2n::target {

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

void TractTarget::checkOptions(const ExportOptions& options) const {
    // Refused before any lowering rather than quietly written the old way: the
    // user asked for that operation, and an archive without it is not what
    // was asked for.
    const struct {
        bool asked;
        std::string_view flag, gate, writes;
    } graphOptions[] = {
        {options.reifySdpa, "--reify-sdpa", "tract_transformers_sdpa", "tract_transformers_sdpa"},
        {options.upsampleWithDebox, "--upsample-with-debox", "debox", "debox"},
        {options.f32LinearAccumulation, "--f32-linear-accumulation",
         "tract_core_einsum:f16-acc-f32", "tract_core_einsum with f16 operands and acc 'f32'"},
        {options.weightsQ4_0, "--weights-q4-0", "dat:q4_0", "Q4_0 .dat weights"}};
    for (const auto& o : graphOptions) {
        const TractGate* gate = findTractGate(o.gate);
        if (!o.asked || has(o.gate) || !gate)
            continue;
        throw Error(Stage::Translate, ErrorCode::InvalidOption,
                    fmt::format("{} writes {}, which needs {}; the target is tract {}", o.flag,
                                o.writes, describeGate(*gate), version_.str()),
                    fmt::format("target tract@{} or newer, or export without {}",
                                tractSince(o.gate), o.flag));
    }
}

void TractTarget::finishDocument(nnef::Document& doc, const ir::Graph&,
                                 const ExportOptions& options, const PropertyContext& props,
                                 std::vector<std::string>&) const {
    doc.properties = buildProperties(options, *this, props);
    declareRegistries(doc);
}

void TractTarget::declareRegistries(nnef::Document& doc) const {
    // The registry of every operation the body calls (the catalog knows
    // tract_shl lives in tract_core), and of the tract_* names fragments use.
    std::set<std::string_view> used;
    for (const auto& inv : doc.body)
        if (const target::OpInfo* op = target::findOp(inv.op); op && !op->tract.empty())
            used.insert(op->tract);
    for (const auto& frag : doc.fragments)
        for (const auto& op : target::opCatalog())
            if (!op.tract.empty() && op.tract != target::kTractStandardRegistry &&
                op.name.starts_with("tract_") && frag.find(op.name) != std::string::npos)
                used.insert(op.tract);
    for (const auto registry : target::tractRegistries())
        if (registry != target::kTractStandardRegistry && used.count(registry))
            doc.addExtension("tract_registry " + std::string(registry));
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
    // tract panics on negative unsqueeze axes in some versions and its
    // reductions fail on negative axes with symbolic shapes: lowerings
    // normalize every axis against the rank.
    for (const auto& inv : doc.body)
        for (const auto& [name, value] : inv.kwargs) {
            if (name != "axes" && name != "axis")
                continue;
            bool negative = value.kind == nnef::Expr::Kind::Integer && value.integer < 0;
            for (const auto& item : value.items)
                negative = negative || (item.kind == nnef::Expr::Kind::Integer && item.integer < 0);
            if (negative)
                fail(fmt::format("'{}' has a negative {} ({}); tract needs axes counted from 0",
                                 inv.op, name, nnef::printExpr(value)));
        }
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
        if (c == '\n' || c == '\r')
            out += ' ';
        else if (c == '"' || c == '\'' || c == '\\')
            out += std::string("\\") + c;
        else if ((c == '{' || c == '%' || c == '#') && !out.empty() && out.back() == '{')
            out += std::string(" ") + c;
        else
            out += c;
    }
    return out;
}

} // namespace t2n::target
