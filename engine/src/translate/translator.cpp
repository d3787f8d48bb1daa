#include "translate/translator.h"

#include "nnef/identifiers.h"
#include "target/random_kinds.h"
#include "target/tract_versions.h"
#include "translate/compute_type.h"
#include "translate/lower_quantized.h"
#include "translate/numbers_from_tensors.h"
#include "translate/registry.h"
#include "translate/repeated_outputs.h"
#include "translate/symbolic_sizes.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <optional>
#include <set>

namespace t2n::translate {

namespace {

// "declared with --dynamic-axis" or where the graph's rule comes from.
std::string ruleOrigin(const ir::Graph& g, const std::string& symbol) {
    for (const auto& p : g.symbolProbes)
        if (p.name == symbol)
            return p.declared ? std::string("declared with --dynamic-axis")
                              : (p.why.empty() ? std::string("read from the graph") : p.why);
    return "read from the graph";
}

} // namespace

bool producesOnlyScalars(const ir::Graph& g, const ir::Node& n) {
    for (ir::ValueId id : n.outputs) {
        const auto& v = g.value(id);
        if (v.kind == ir::ValueKind::Tensor || v.kind == ir::ValueKind::TensorList || !v.constant)
            return false;
    }
    return !n.outputs.empty();
}

namespace {

// True when a value `n` reads or writes is complex (ir::Value::complex).
bool touchesComplex(const ir::Graph& g, const ir::Node& n) {
    for (const auto* ids : {&n.inputs, &n.outputs})
        for (ir::ValueId id : *ids)
            if (g.value(id).complex)
                return true;
    return false;
}

} // namespace

bool hasLowering(const ir::Graph& g, const ir::Node& n, const Registry& reg) {
    return reg.find(n.kind) || (touchesComplex(g, n) && complexRegistry().find(n.kind));
}

namespace {

void validateName(const std::string& name, const char* what) {
    if (name.empty() || nnef::sanitizeIdentifier(name) != name)
        throw Error(Stage::Translate, ErrorCode::InvalidOption,
                    fmt::format("{} name '{}' is not a valid NNEF identifier", what, name),
                    "use letters, digits and '_', not starting with a digit, not an NNEF "
                    "keyword, and not starting with true, false or inf (tract reads those as "
                    "literals)");
}

std::vector<std::string> inputNames(const ir::Graph& g, const ExportOptions& o) {
    std::vector<std::string> names;
    for (size_t i = 0; i < g.inputs.size(); ++i) {
        if (i < o.inputNames.size())
            names.push_back(o.inputNames[i]);
        else if (i < o.inputs.size())
            names.push_back(o.inputs[i].name);
        else
            names.push_back(nnef::sanitizeIdentifier(g.value(g.inputs[i]).debugName));
    }
    if (!o.inputNames.empty() && o.inputNames.size() != g.inputs.size())
        throw Error(Stage::Translate, ErrorCode::InvalidOption,
                    fmt::format("{} input names given for {} graph inputs", o.inputNames.size(),
                                g.inputs.size()),
                    "give one name per forward() argument");
    return names;
}

std::vector<std::string> outputNames(const ir::Graph& g, const ExportOptions& o) {
    if (!o.outputNames.empty() && o.outputNames.size() != g.outputs.size()) {
        if (o.checkIoNamesQuantityMatch)
            throw Error(Stage::Translate, ErrorCode::InvalidOption,
                        fmt::format("{} output names given but the model has {} outputs",
                                    o.outputNames.size(), g.outputs.size()),
                        "give one --output-name per output, or turn off the io names quantity "
                        "check (--no-check-io-names) to name only the first ones");
    }
    std::vector<std::string> names;
    for (size_t i = 0; i < g.outputs.size(); ++i)
        names.push_back(i < o.outputNames.size() ? o.outputNames[i] : fmt::format("output_{}", i));
    return names;
}

void checkNames(const std::vector<std::string>& ins, const std::vector<std::string>& outs,
                const ir::Graph& g, const ExportOptions& o, std::vector<std::string>& warnings) {
    std::set<std::string> seen;
    for (const auto& n : ins) {
        validateName(n, "input");
        if (!seen.insert(n).second)
            throw Error(Stage::Translate, ErrorCode::InvalidOption,
                        fmt::format("input name '{}' is used twice", n), "input names must differ");
    }
    std::set<std::string> seenOut;
    for (size_t i = 0; i < outs.size(); ++i) {
        validateName(outs[i], "output");
        if (!seenOut.insert(outs[i]).second)
            throw Error(Stage::Translate, ErrorCode::InvalidOption,
                        fmt::format("output name '{}' is used twice", outs[i]),
                        "output names must differ");
        for (size_t k = 0; k < ins.size(); ++k) {
            if (ins[k] != outs[i])
                continue;
            if (!o.allowSameIoNames)
                throw Error(Stage::Translate, ErrorCode::InvalidOption,
                            fmt::format("'{}' names both an input and an output", outs[i]),
                            "rename the output (--output-name), or pass --allow-same-io-names "
                            "when the output really is the input passed through");
            if (g.outputs[i] != g.inputs[k])
                throw Error(Stage::Translate, ErrorCode::InvalidOption,
                            fmt::format("'{}' names both an input and an output, but the output "
                                        "is computed: one NNEF identifier cannot hold both",
                                        outs[i]),
                            "same input and output names only work for a pass-through output");
            warnings.push_back(fmt::format(
                "output '{}' is input '{}' passed through (allowed by --allow-same-io-names)",
                outs[i], ins[k]));
        }
    }
}

// Graph inputs that no translated node and no output reads.
std::vector<size_t> unusedInputs(const ir::Graph& g) {
    std::set<ir::ValueId> used(g.outputs.begin(), g.outputs.end());
    for (const auto& n : g.nodes)
        if (!n.folded)
            used.insert(n.inputs.begin(), n.inputs.end());
    std::vector<size_t> out;
    for (size_t i = 0; i < g.inputs.size(); ++i)
        if (!used.count(g.inputs[i]))
            out.push_back(i);
    return out;
}

// Operators whose output size follows the values of their input, not its
// shape: no NNEF operation can produce them (the refusal says why).
bool sizedByValues(const std::string& kind) {
    static const std::set<std::string> kinds{
        "aten::nonzero",  "aten::nonzero_numpy", "aten::argwhere",           "aten::_unique",
        "aten::_unique2", "aten::unique_dim",    "aten::unique_consecutive", "aten::masked_select",
        "aten::bincount"};
    return kinds.count(kind) > 0;
}

// `symbolic`: folded nodes that must be computed in the graph because their
// result follows a symbolic axis (symbolicNodes()).
// `kept`: numbers taken from data tensors that stay 0-d tensors
// (numbersKeptAsTensors()).
void checkSupport(const ir::Graph& g, const Registry& reg, const std::vector<bool>& symbolic,
                  const std::vector<bool>& kept) {
    std::vector<const ir::Node*> missing;
    std::set<std::string> kinds;
    for (const auto& n : g.nodes) {
        const bool lowered = n.folded
                                 ? symbolic[static_cast<size_t>(n.id)]
                                 : !producesOnlyScalars(g, n) || kept[static_cast<size_t>(n.id)];
        if (lowered && !hasLowering(g, n, reg)) {
            missing.push_back(&n);
            kinds.insert(n.kind);
        }
    }
    if (missing.empty())
        return;
    Error err(Stage::Translate, ErrorCode::Unsupported,
              fmt::format("{} operator kind(s) not supported for tract: {} ({} node(s))",
                          kinds.size(), fmt::join(kinds, ", "), missing.size()),
              "see `t2n ops` for the supported list; nothing was written");
    for (const ir::Node* n : missing)
        err.addDetail(Diagnostic{
            n->folded ? fmt::format("{} builds a value from a dynamic axis, and t2n cannot "
                                    "compute {} in the graph",
                                    n->kind, n->kind)
            : target::drawsRandom(n->kind)
                ? fmt::format("{} is not supported: it draws random values, which tract has no "
                              "operation for (tract_onnx_random draws uniform and normal "
                              "floats), and t2n never freezes a draw into a constant",
                              n->kind)
            : sizedByValues(n->kind)
                ? fmt::format("{} is not supported: the size of its output depends on the "
                              "input's values (how many elements it selects), and an NNEF graph "
                              "cannot hold a size only the values decide; keep the size fixed "
                              "instead (a mask applied with torch.where or masked_fill, a topk "
                              "of a fixed k), or do this step in the program that calls the "
                              "archive",
                              n->kind)
                : fmt::format("{} is not supported", n->kind),
            n->where, true});
    throw err;
}

std::vector<std::map<int, std::string>>
inputSymbols(const ir::Graph& g, const std::vector<std::string>& names, const ExportOptions& o) {
    std::vector<std::map<int, std::string>> out(g.inputs.size());
    for (const auto& d : o.dynamicAxes) {
        bool found = false;
        for (size_t i = 0; i < names.size(); ++i) {
            if (names[i] != d.tensor && !(i < o.inputs.size() && o.inputs[i].name == d.tensor))
                continue;
            int64_t rank = static_cast<int64_t>(g.value(g.inputs[i]).shape.size());
            int64_t axis = d.axis < 0 ? d.axis + rank : d.axis;
            if (axis < 0 || axis >= rank)
                throw Error(Stage::Translate, ErrorCode::InvalidOption,
                            fmt::format("dynamic axis {} of '{}' is out of range (rank {})", d.axis,
                                        d.tensor, rank),
                            "axes count from 0; negative axes count from the end");
            auto [at, fresh] = out[i].emplace(static_cast<int>(axis), d.symbol);
            if (!fresh && at->second != d.symbol) // "x:0=B" and "x:-4=N" on a rank-4 input
                throw Error(Stage::Translate, ErrorCode::InvalidOption,
                            fmt::format("axis {} of '{}' is made dynamic twice, as {} and as {}",
                                        axis, d.tensor, at->second, d.symbol),
                            "give each axis one symbol");
            found = true;
        }
        if (!found)
            throw Error(Stage::Translate, ErrorCode::InvalidOption,
                        fmt::format("dynamic axis names '{}', which is not an input", d.tensor),
                        fmt::format("inputs are: {}", fmt::join(names, ", ")));
    }
    return out;
}

// The symbols a tract_assert bounds: the identifiers of its expression
// ("S >= 1", "scenario: 2 * B <= S"), function names (min, max) and the
// scenario name before ':' left out.
std::set<std::string> assertedSymbols(std::string_view text) {
    if (const size_t colon = text.find(':'); colon != std::string_view::npos)
        text.remove_prefix(colon + 1);
    std::set<std::string> out;
    size_t i = 0;
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    while (i < text.size()) {
        if (!word(text[i])) {
            ++i;
            continue;
        }
        const size_t start = i;
        while (i < text.size() && word(text[i]))
            ++i;
        size_t next = i;
        while (next < text.size() && text[next] == ' ')
            ++next;
        const bool call = next < text.size() && text[next] == '(';
        if (!std::isdigit(static_cast<unsigned char>(text[start])) && !call)
            out.emplace(text.substr(start, i - start));
    }
    return out;
}

// --extension lines, after t2n's own. A tract_assert that bounds only symbols
// no tensor shape uses (t2n declares a tract_symbol for each dynamic axis of
// an input, and every other shape follows from those) has no effect, and
// tract 0.23.4 and newer warn about it ("constrains symbol(s) absent from
// every tensor shape"): it is left out with a warning, as torch_to_nnef
// stopped writing it.
void addCustomExtensions(nnef::Document& doc, const ExportOptions& o,
                         std::vector<std::string>& warnings) {
    std::set<std::string> shapeSymbols;
    for (const auto& ext : doc.extensions)
        if (ext.starts_with("tract_symbol "))
            shapeSymbols.insert(ext.substr(13));
    for (const auto& ext : o.customExtensions) {
        std::string text = ext;
        if (text.starts_with("extension "))
            text = text.substr(10);
        while (!text.empty() && (text.back() == ';' || text.back() == ' '))
            text.pop_back();
        if (text.empty() || text.find_first_of(";\n\r") != std::string::npos ||
            text.find("{{") != std::string::npos || text.find("{%") != std::string::npos ||
            text.find("{#") != std::string::npos)
            throw Error(Stage::Translate, ErrorCode::Usage,
                        fmt::format("custom extension '{}' is not one extension line", ext),
                        "write e.g. 'tract_assert S >= 1' (no ';', newline or template marks)");
        if (o.target.kind == TargetKind::Tract && text.starts_with("tract_assert ")) {
            const auto symbols = assertedSymbols(std::string_view(text).substr(13));
            const bool bounds = std::any_of(symbols.begin(), symbols.end(), [&](const auto& s) {
                return shapeSymbols.count(s) != 0;
            });
            if (!symbols.empty() && !bounds) {
                const auto* gate =
                    target::findTractGate("reading:tract_assert:warns-on-unused-symbol");
                warnings.push_back(fmt::format(
                    "--extension '{}' was left out: it bounds {}, which no tensor shape uses "
                    "(the dynamic axes' symbols are {}), so it has no effect and {} warns "
                    "about it",
                    text, fmt::join(symbols, ", "),
                    shapeSymbols.empty() ? std::string("none")
                                         : fmt::format("{}", fmt::join(shapeSymbols, ", ")),
                    gate ? target::describeGate(*gate) : std::string("tract")));
                continue;
            }
        }
        doc.addExtension(text);
    }
}

// A value fixed at export time that changed between the two shape probes of
// a dynamic export and that a translated node reads: the NNEF graph would
// hold the example's value, and the archive would fail at other sizes. An
// error naming the node. Called once every node is lowered: a lowering may
// have re-derived the value from the symbolic shapes (a size read with
// Context::sizeArg, a recurrent layer's default zero state).
std::vector<ir::ValueId> frozenVarying(Context& ctx, const ir::Graph& g, const ir::Node& n) {
    std::vector<ir::ValueId> out;
    for (ir::ValueId id : n.outputs)
        if (g.value(id).varies && ctx.isUsed(id) && !ctx.isRederived(id))
            out.push_back(id);
    return out;
}

// An operation a lowering emitted without declaring it (OpEntry::emits):
// the supported-operator table's Khronos and "since tract" columns are
// derived from the declarations, so this is a bug in t2n, reported once per
// kind and operation (the tests fail on it).
void checkDeclared(Context& ctx, const OpEntry& entry, const nnef::Document& doc, size_t from,
                   std::set<std::pair<std::string, std::string>>& reported) {
    if (entry.emits.empty())
        return;
    for (size_t i = from; i < doc.body.size(); ++i) {
        const std::string& op = doc.body[i].op;
        if (!ctx.readsSize(i) && !declares(entry, op) && reported.emplace(entry.kind, op).second)
            ctx.warn(fmt::format("t2n bug: the lowering of {} emitted '{}', which its registry "
                                 "entry does not declare (`t2n ops` may misreport its Khronos "
                                 "and tract-version columns)",
                                 entry.kind, op));
    }
}

// The registry entry translating `n`. A node reading or writing a complex
// value (ir::Value::complex) goes to the kinds that know its trailing axis of
// 2: any other lowering would take that axis for a real one.
const OpEntry* entryFor(Context& ctx, const ir::Graph& g, const ir::Node& n, const Registry& reg) {
    if (!touchesComplex(g, n))
        return reg.find(n.kind);
    const OpEntry* e = complexRegistry().find(n.kind);
    if (e && e->family == "complex") { // the spectral kinds check for themselves
        if (ctx.target().isKhronos())
            ctx.unsupported(fmt::format("{} of a complex tensor: Khronos NNEF 1.0.5 has no "
                                        "complex numbers",
                                        n.kind),
                            "export for tract (--target tract), which carries them as a "
                            "trailing axis of 2");
        for (const auto* ids : {&n.inputs, &n.outputs})
            for (ir::ValueId id : *ids)
                if (g.value(id).complex && g.value(id).dtype != DType::F32)
                    ctx.unsupported(fmt::format("{} of a complex tensor of {} parts", n.kind,
                                                dtypeName(g.value(id).dtype)),
                                    "t2n translates complex64 values (f32 parts)");
    }
    if (e)
        return e;
    ctx.unsupported(
        fmt::format("{} of a complex tensor", n.kind),
        "t2n carries complex values as a trailing axis of 2 (tract's convention) and "
        "translates the kinds `t2n ops` lists with a \"complex (tract only)\" note: spectra, "
        "arithmetic (add, sub, neg, mul, div by real), abs, angle, real, imag, conj, and shape "
        "operations "
        "(view, reshape, transpose, permute, squeeze, unsqueeze, select, slice, cat, stack, "
        "flip)");
}

} // namespace

Translation translateGraph(const ir::Graph& recorded, const ExportOptions& options,
                           const target::PropertyContext& props,
                           std::vector<FrozenRead>* frozenReadsOut) {
    // --compute f16: an f16 copy of the f32 recording is what gets written.
    Translation tr;
    std::optional<ir::Graph> half;
    if (options.compute == DType::F16)
        half = halfGraph(recorded, &tr.halfOrigins);
    const ir::Graph& graph = half ? *half : recorded;
    // The f32 options change f16 operations only: say so when there are none.
    const bool anyHalf = std::any_of(graph.values.begin(), graph.values.end(), [](const auto& v) {
        return v.kind == ir::ValueKind::Tensor && v.dtype == DType::F16;
    });
    for (const auto& [asked, flag] :
         {std::pair{options.f32Attention, "--f32-attention"},
          std::pair{options.f32LinearAccumulation, "--f32-linear-accumulation"},
          std::pair{options.f32Norm, "--f32-norm"}})
        if (asked && !anyHalf)
            tr.warnings.push_back(fmt::format("{} changes f16 operations only, and the graph has "
                                              "none; --compute f16 writes an f16 graph",
                                              flag));
    const auto targetPtr = target::makeTarget(options.target);
    const target::InferenceTarget& target = *targetPtr;
    if (!target.versionWarning().empty())
        tr.warnings.push_back(target.versionWarning());
    target.checkOptions(options);
    const Registry& reg = defaultRegistry();

    auto ins = inputNames(graph, options);
    auto outs = outputNames(graph, options);
    checkNames(ins, outs, graph, options, tr.warnings);
    auto symbols = inputSymbols(graph, ins, options);
    // A symbol the model ran at no other size (its probe found none): the
    // graph's sizes are the example's, and a symbol in the archive would be
    // one tract cannot reconcile with them ("8*S should be equal to 48").
    // The axis is written with its example size, and the report says why.
    for (const auto& p : graph.symbolProbes) {
        if (p.second != 0 || p.example <= 0)
            continue;
        bool dropped = false;
        for (auto& axes : symbols)
            for (auto it = axes.begin(); it != axes.end();)
                if (it->second == p.name) {
                    it = axes.erase(it);
                    dropped = true;
                } else {
                    ++it;
                }
        if (dropped)
            tr.warnings.push_back(fmt::format(
                "{} is written as its example size {}: the model ran at no other size t2n "
                "tried{}, so the archive cannot follow it (tract would refuse a symbol the "
                "graph's sizes contradict); export with the sizes the model accepts, or give "
                "the axis a rule (--dynamic-axis ...:multiple-of=N)",
                p.name, p.example,
                p.refused.empty() ? std::string()
                                  : fmt::format(" ({}={})", p.name, fmt::join(p.refused, ", "))));
    }
    // An input that reaches no output (fastai's x_cat of a table with no
    // categorical columns; an argument a traced branch ignored) stays in the
    // archive's interface while the io names quantity check is on, so that
    // the application calls the archive as it called the model (tract takes
    // an unused external, of zero size too); torch_to_nnef refused it there.
    // With the check off it is left out of the graph, as torch_to_nnef does.
    std::vector<bool> keep(ins.size(), true);
    for (size_t i : unusedInputs(graph)) {
        if (options.checkIoNamesQuantityMatch) {
            tr.warnings.push_back(fmt::format(
                "input '{}' does not contribute to any output: the archive keeps it in its "
                "interface and ignores its values (--no-check-io-names leaves it out)",
                ins[i]));
            continue;
        }
        tr.warnings.push_back(fmt::format(
            "input '{}' does not contribute to any output; the NNEF graph does without it",
            ins[i]));
        keep[i] = false;
    }
    const std::vector<bool> symbolic = symbolicNodes(graph, SymbolicSizes(graph));
    const std::vector<bool> kept = numbersKeptAsTensors(graph);
    checkSupport(graph, reg, symbolic, kept);

    Context ctx(graph, target, tr.doc, options);
    ctx.declareOutputs(outs);
    ctx.declareInputs(ins, symbols, keep);

    Error failures(Stage::Translate, ErrorCode::Unsupported, "");
    std::set<std::pair<std::string, std::string>> undeclared; // (kind, op) reported
    std::set<ir::ValueId> poisoned;
    std::vector<const ir::Node*> frozen; // values fixed at export time
    std::set<ir::ValueId> drawn;         // values computed from a random draw
    for (const auto& node : graph.nodes) {
        // (Sizes of a draw are not its values: shape-only kinds give values
        // that do not depend on data, and those stay out.)
        bool fromDraw = target::drawsRandom(node.kind);
        for (ir::ValueId id : node.inputs)
            fromDraw = fromDraw || drawn.count(id);
        for (ir::ValueId id : node.outputs)
            if (fromDraw && graph.value(id).dataDependent)
                drawn.insert(id);
        fromDraw = std::any_of(node.outputs.begin(), node.outputs.end(),
                               [&](ir::ValueId id) { return drawn.count(id) > 0; });
        if (node.folded && !symbolic[static_cast<size_t>(node.id)]) {
            frozen.push_back(&node);
            continue;
        }
        ctx.setNode(&node);
        if (!node.folded && producesOnlyScalars(graph, node) && fromDraw) {
            // A number made from a random draw (rand(1).item(), a branch on a
            // draw) would hold the trace's one sample in the archive.
            failures.addDetail(Diagnostic{
                fmt::format("{} computes a number from a random draw; t2n never freezes a draw "
                            "(the archive would hold one sample) (hint: keep the draw a tensor "
                            "in the arithmetic, e.g. x * torch.rand(1) instead of "
                            "x * float(torch.rand(1)))",
                            node.kind),
                node.where, true});
            poisoned.insert(node.outputs.begin(), node.outputs.end());
            continue;
        }
        if (!node.folded && producesOnlyScalars(graph, node) &&
            !kept[static_cast<size_t>(node.id)]) {
            bool fromData = false;
            for (ir::ValueId id : node.outputs)
                fromData = fromData || graph.value(id).dataDependent;
            if (fromData)
                ctx.warn(fmt::format("{} computes a number from input data; it was frozen at its "
                                     "value for the example inputs",
                                     node.kind));
            frozen.push_back(&node);
            continue;
        }
        bool skip = false;
        for (ir::ValueId id : node.inputs)
            skip = skip || poisoned.count(id);
        if (skip) {
            poisoned.insert(node.outputs.begin(), node.outputs.end());
            continue;
        }
        try {
            const OpEntry* entry = entryFor(ctx, graph, node, reg);
            const size_t before = tr.doc.body.size();
            auto lower = [&] {
                entry->lower(ctx);
                checkDeclared(ctx, *entry, tr.doc, before, undeclared);
            };
            if (computesOnRealValues(ctx))
                lowerOnRealValues(ctx, lower); // tract computes them on f32 only
            else
                lower();
            annotateQuantizedOutputs(ctx);
            ctx.pinStridedAxes();
            ++tr.torchOps[node.kind];
        } catch (const Error& e) {
            // The lowering's own hint stays with its node (the combined error's
            // hint is a generic one).
            auto withHint = [&](std::string message) {
                return e.hint().empty() ? message : fmt::format("{} (hint: {})", message, e.hint());
            };
            for (Diagnostic d : e.details()) {
                d.message = withHint(d.message);
                failures.addDetail(d);
            }
            if (e.details().empty())
                failures.addDetail(Diagnostic{withHint(e.message()), node.where, true});
            poisoned.insert(node.outputs.begin(), node.outputs.end());
        }
    }
    std::vector<FrozenRead> frozenReads = ctx.frozenReads();
    for (const ir::Node* n : frozen) {
        const std::vector<ir::ValueId> varying = frozenVarying(ctx, graph, *n);
        for (ir::ValueId id : varying)
            frozenReads.push_back({id, -1, FrozenRead::Why::ReadAsConstant});
        if (!varying.empty())
            failures.addDetail(Diagnostic{
                fmt::format("{} computes a value from a dynamic axis that a translated node reads "
                            "as a constant; the archive would hold the example's value (hint: "
                            "t2n computes sizes from a symbol for {}; keep this value static, or "
                            "export without that --dynamic-axis)",
                            n->kind, kSymbolicSizeOps),
                n->where, true});
    }
    if (frozenReadsOut)
        *frozenReadsOut = std::move(frozenReads);
    if (!failures.details().empty()) {
        Error err(Stage::Translate, ErrorCode::Unsupported,
                  fmt::format("{} node(s) could not be translated for {}",
                              failures.details().size(), target.displayName()),
                  "each entry says what was found and what t2n needs; nothing was written");
        for (const auto& d : failures.details())
            err.addDetail(d);
        throw err;
    }

    ctx.setNode(nullptr);
    for (const auto& [symbol, sc] : ctx.scaledSymbols().all()) {
        const auto pins = ctx.pinnedAxes().find(sc.name);
        const int pinned = pins == ctx.pinnedAxes().end() ? 0 : pins->second;
        tr.warnings.push_back(fmt::format(
            "{} is written as {} * {} in the archive: the graph needs {} to be a multiple of {} "
            "({}), and tract, which compares sizes symbolically, can prove them equal only in "
            "that form; the archive accepts multiples of {}{}",
            symbol, sc.multiple, sc.name, symbol, sc.multiple, ruleOrigin(graph, symbol),
            sc.multiple,
            pinned ? fmt::format(" ({} size(s) after strides pinned to multiples of {})", pinned,
                                 sc.name)
                   : std::string()));
    }
    for (size_t i = 0; i < graph.outputs.size(); ++i) {
        Expr e = ctx.tensor(graph.outputs[i]);
        if (e.isIdentifier() && e.text == outs[i])
            continue;
        tr.doc.body.push_back(nnef::Invocation{"copy", "", {e}, {}, {outs[i]}, false, -1});
    }
    tr.doc.outputs = outs;
    if (!target.isKhronos())
        copyRepeatedOutputs(tr.doc);
    for (auto& w : ctx.takeWarnings())
        tr.warnings.push_back(std::move(w));
    tr.identifierValues = ctx.identifierValues();
    for (size_t i = 0; i < keep.size(); ++i)
        if (keep[i])
            tr.inputIndices.push_back(i);

    target.finishDocument(tr.doc, graph, options, props, tr.warnings);
    addCustomExtensions(tr.doc, options, tr.warnings);
    tr.text = nnef::print(tr.doc);
    target.checkDocument(tr.doc, tr.text, options.allowSameIoNames);
    for (const auto& inv : tr.doc.body)
        ++tr.nnefOps[inv.op];
    return tr;
}

} // namespace t2n::translate
