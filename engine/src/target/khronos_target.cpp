#include "target/khronos_target.h"

#include "t2n/dtype.h"
#include "t2n/error.h"
#include "target/op_catalog.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace t2n::target {

namespace {

// Fragments and operator expressions (the bodies of fragments) need both.
constexpr std::string_view kFragmentExtensions =
    "KHR_enable_fragment_definitions, KHR_enable_operator_expressions";

// NNEF 1.0.5 knows three element types; every datum type falls in one.
std::string typeFamily(DType t) {
    if (isFloat(t))
        return "scalar";
    return t == DType::Bool ? "logical" : "integer";
}

// What a Khronos reader makes of the three families (its interpreter keeps
// floats as f32 and integers as i64): other types are not carried over.
bool keptExactly(DType t) {
    return t == DType::F32 || t == DType::I64 || t == DType::Bool;
}

// tract_core_external's datum_type and tract_core_cast's `to` become the
// generic type of external<T> / cast<T>; NNEF has no narrower type to say.
void spellStandard(nnef::Invocation& inv, std::string_view standard,
                   std::vector<std::string>& warnings) {
    const std::string key = inv.op == "tract_core_external" ? "datum_type" : "to";
    auto it = std::find_if(inv.kwargs.begin(), inv.kwargs.end(),
                           [&](const auto& kw) { return kw.first == key; });
    if (it != inv.kwargs.end()) {
        const std::string name = it->second.text;
        const auto dtype = parseDType(name);
        inv.typeParam = typeFamily(dtype.value_or(DType::F32));
        inv.kwargs.erase(it);
        if (!dtype || !keptExactly(*dtype))
            warnings.push_back(fmt::format(
                "'{}' is {} in the model, but Khronos NNEF has no such type: the archive "
                "declares it {}<{}>, which Khronos readers compute in {}",
                inv.results.empty() ? std::string("?") : inv.results.front(), name, standard,
                inv.typeParam,
                inv.typeParam == "scalar"    ? "f32"
                : inv.typeParam == "integer" ? "i64"
                                             : "bool"));
    }
    inv.op = std::string(standard);
}

// Each fragment definition by name, with the first tract operation its body
// calls ("" when it uses none).
std::map<std::string, std::string> fragmentsUsingTract(const nnef::Document& doc) {
    std::map<std::string, std::string> out;
    for (const auto& text : doc.fragments) {
        auto begin = text.find("fragment ");
        if (begin == std::string::npos)
            continue;
        begin += 9;
        auto end = text.find_first_of("<( \n", begin);
        std::string tractOp;
        if (auto at = text.find("tract_"); at != std::string::npos)
            tractOp = text.substr(at, text.find_first_of("<( \n", at) - at);
        out[text.substr(begin, end - begin)] = tractOp;
    }
    return out;
}

bool standardOperation(const std::string& op, const std::map<std::string, std::string>& fragments) {
    if (auto f = fragments.find(op); f != fragments.end())
        return f->second.empty();
    const OpInfo* info = findOp(op);
    return info && info->khronos;
}

// The tract operation that makes `op` tract-only: itself, or the first one
// the body of fragment `op` calls.
std::string tractOperationOf(const std::string& op,
                             const std::map<std::string, std::string>& fragments) {
    auto f = fragments.find(op);
    return f == fragments.end() ? op : f->second;
}

std::string describeTractOperation(const std::string& op,
                                   const std::map<std::string, std::string>& fragments) {
    const std::string tractOp = tractOperationOf(op, fragments);
    std::string what = tractOp == op ? fmt::format("'{}'", op)
                                     : fmt::format("fragment '{}' (it calls {})", op, tractOp);
    const OpInfo* info = findOp(tractOp);
    if (!info || info->tract.empty())
        return what;
    if (info->tract == kTractStandardRegistry)
        return what + ", from tract's own standard library";
    return fmt::format("{}, from tract extension {}", what, info->tract);
}

} // namespace

std::string_view standardEquivalent(std::string_view tractOp) {
    // Same operands, same results: NNEF 1.0.4 added gather and cast, rcp and
    // sqr were always there.
    static const std::map<std::string_view, std::string_view> kEquivalents{
        {"tract_core_external", "external"},
        {"tract_core_cast", "cast"},
        {"tract_core_gather", "gather"},
        {"recip", "rcp"},
        {"square", "sqr"},
    };
    auto it = kEquivalents.find(tractOp);
    return it == kEquivalents.end() ? std::string_view{} : it->second;
}

std::string KhronosTarget::displayName() const {
    return fmt::format("Khronos NNEF {}", kKhronosNnefVersion);
}

void KhronosTarget::checkOptions(const ExportOptions& options) const {
    const std::string hint = "export with --target tract, or without this option";
    if (options.reifySdpa || options.f32LinearAccumulation)
        throw Error(
            Stage::Translate, ErrorCode::InvalidOption,
            fmt::format("{} writes {}, a tract operation that Khronos NNEF 1.0.5 does "
                        "not have",
                        options.reifySdpa ? "--reify-sdpa" : "--f32-linear-accumulation",
                        options.reifySdpa ? "tract_transformers_sdpa" : "tract_core_einsum"),
            hint);
    // Its readers compute every `scalar` in f32: an "f16 graph" would be f32
    // arithmetic on f16-rounded weights, checked as neither.
    if (options.compute == DType::F16)
        throw Error(Stage::Translate, ErrorCode::InvalidOption,
                    "--compute f16 writes an f16 graph, and Khronos NNEF 1.0.5 has no f16 type "
                    "(its readers compute every scalar in f32)",
                    hint);
    if (!options.dynamicAxes.empty())
        throw Error(Stage::Translate, ErrorCode::InvalidOption,
                    fmt::format("dynamic axis {}:{}={} needs tract's symbols (extension "
                                "tract_symbol): Khronos NNEF 1.0.5 graph inputs have fixed shapes",
                                options.dynamicAxes.front().tensor,
                                options.dynamicAxes.front().axis,
                                options.dynamicAxes.front().symbol),
                    hint);
    if (options.weightsQ4_0)
        throw Error(Stage::Translate, ErrorCode::InvalidOption,
                    "--weights-q4-0 writes tract's Q4_0 .dat type, which the Khronos NNEF "
                    "standard does not have",
                    "export with --target tract, or leave the weights in f32");
    if (!options.properties.empty())
        throw Error(Stage::Translate, ErrorCode::InvalidOption,
                    fmt::format("property '{}' would go into tract_core_properties, which Khronos "
                                "NNEF 1.0.5 does not have",
                                options.properties.front().first),
                    hint);
    for (const auto& ext : options.customExtensions) {
        std::string_view text = ext;
        if (text.starts_with("extension "))
            text.remove_prefix(10);
        if (!text.starts_with("KHR_"))
            throw Error(Stage::Translate, ErrorCode::InvalidOption,
                        fmt::format("custom extension '{}' is not a Khronos KHR_* extension; a "
                                    "Khronos NNEF reader refuses any other",
                                    ext),
                        hint);
    }
}

void KhronosTarget::finishDocument(nnef::Document& doc, const ir::Graph& graph,
                                   const ExportOptions&, const PropertyContext&,
                                   std::vector<std::string>& warnings) const {
    for (auto& inv : doc.body)
        if (auto standard = standardEquivalent(inv.op); !standard.empty())
            spellStandard(inv, standard, warnings);

    // What is left without a standard spelling, per IR node that emitted it.
    const auto fragments = fragmentsUsingTract(doc);
    std::map<int, std::set<std::string>> byNode;
    std::set<std::string> registries;
    for (const auto& inv : doc.body) {
        if (standardOperation(inv.op, fragments))
            continue;
        byNode[inv.irNode].insert(inv.op);
        const OpInfo* info = findOp(tractOperationOf(inv.op, fragments));
        registries.insert(info && !info->tract.empty() ? std::string(info->tract)
                                                       : std::string("tract_core"));
    }
    if (!byNode.empty()) {
        Error err(Stage::Translate, ErrorCode::Unsupported,
                  fmt::format("{} node(s) need tract operations that Khronos NNEF {} does not "
                              "define",
                              byNode.size(), kKhronosNnefVersion),
                  fmt::format("{} tract's extension {}; export with --target tract",
                              byNode.size() == 1 ? "this operator needs" : "these operators need",
                              fmt::join(registries, ", ")));
        for (const auto& [node, ops] : byNode) {
            std::vector<std::string> described;
            for (const auto& op : ops)
                described.push_back(describeTractOperation(op, fragments));
            Diagnostic d;
            d.message =
                fmt::format("lowers to {}, which only tract reads", fmt::join(described, ", "));
            if (node >= 0 && static_cast<size_t>(node) < graph.nodes.size()) {
                d.node = graph.node(node).where;
                d.hasNode = true;
            }
            err.addDetail(std::move(d));
        }
        throw err;
    }
    if (!doc.fragments.empty())
        doc.addExtension(std::string(kFragmentExtensions));
    doc.properties.clear();
}

void KhronosTarget::checkDocument(const nnef::Document& doc, const std::string&, bool) const {
    auto fail = [](std::string msg) {
        throw Error(Stage::Translate, ErrorCode::Internal, std::move(msg),
                    "this is a bug in t2n's Khronos lowering; please report it with the model");
    };
    const auto fragments = fragmentsUsingTract(doc);
    for (const auto& inv : doc.body)
        if (!standardOperation(inv.op, fragments))
            fail(fmt::format("operation '{}' is not Khronos NNEF {}", inv.op, kKhronosNnefVersion));
    for (const auto& ext : doc.extensions)
        if (!ext.starts_with("KHR_"))
            fail(fmt::format("extension '{}' is not a Khronos KHR_* extension", ext));
    if (!doc.properties.empty())
        fail("a Khronos document carries tract_core_properties");
}

} // namespace t2n::target
