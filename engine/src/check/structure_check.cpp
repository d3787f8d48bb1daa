// Tier 0 structural rules (reference/nnef-and-tract.md §6), over the AST of
// t2n's independent reader. Document-level rules live here; the per-body
// walk (assignments, identifiers, operations) is in structure_body.cpp.
#include "check/structure_check.h"

#include "check/structure_internal.h"
#include "reader/lexer.h"
#include "target/op_catalog.h"

#include <fmt/format.h>

#include <set>

namespace t2n::check {

using nnef::ReadMode;
namespace ast = nnef::ast;

void Checker::add(Problem::Severity s, std::string rule, const ast::Location& loc,
                  std::string message) {
    problems.push_back({s, std::move(rule), std::move(message), loc});
}

void Checker::error(std::string rule, const ast::Location& loc, std::string message) {
    add(Problem::Severity::Error, std::move(rule), loc, std::move(message));
}

void Checker::warning(std::string rule, const ast::Location& loc, std::string message) {
    add(Problem::Severity::Warning, std::move(rule), loc, std::move(message));
}

namespace {

std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == ',') {
            if (!cur.empty())
                out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        out.push_back(std::move(cur));
    return out;
}

ast::Location locationAt(std::string_view text, std::size_t offset) {
    ast::Location loc{"graph.nnef", 1, 1};
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++loc.line;
            loc.column = 1;
        } else {
            ++loc.column;
        }
    }
    return loc;
}

} // namespace

void Checker::extensions() {
    const auto& doc = model.document;
    for (const auto& ext : doc.extensions) {
        const auto w = words(ext.text);
        if (w.empty())
            continue;
        const std::string& head = w.front();
        if (mode == ReadMode::Strict) {
            if (!head.starts_with("KHR_")) {
                // A tract line ("tract_registry tract_core"): one problem per line.
                error("khronos-extension", ext.loc,
                      fmt::format("extension '{}' is not a Khronos KHR_* extension; a Khronos "
                                  "NNEF consumer refuses it",
                                  ext.text));
                continue;
            }
            for (const auto& name : w) {
                if (name == "KHR_enable_fragment_definitions")
                    khrFragments = true;
                else if (name == "KHR_enable_operator_expressions")
                    khrOperators = true;
                else
                    error("khronos-extension", ext.loc,
                          fmt::format("extension '{}' is not a Khronos KHR_* extension; a "
                                      "Khronos NNEF consumer refuses it",
                                      name));
            }
            continue;
        }
        if (head == "tract_registry") {
            if (w.size() != 2) {
                error("extension-syntax", ext.loc,
                      fmt::format("'extension {}' names {} registries; write one per line",
                                  ext.text, w.size() - 1));
                continue;
            }
            const auto canonical = target::canonicalRegistry(w[1]);
            if (canonical.empty())
                error("unknown-registry", ext.loc,
                      fmt::format("tract has no registry '{}' (\"Registry not found\")", w[1]));
            else
                registries.insert(std::string(canonical));
        } else if (head == "tract_symbol" || head == "tract_pulse_streaming_symbol") {
            if (w.size() != 2)
                error("extension-syntax", ext.loc,
                      fmt::format("'extension {}' must name exactly one symbol", ext.text));
            else
                symbols.insert(w[1]);
        } else if (head == "tract_assert" || head.starts_with("KHR_")) {
            // Dimension assertions and KHR switches: tract accepts both.
        } else {
            warning("unknown-extension", ext.loc,
                    fmt::format("tract ignores the unknown extension '{}'", ext.text));
        }
    }
}

void Checker::documentRules() {
    const auto& doc = model.document;
    if (doc.version != "1.0") {
        const std::string msg =
            fmt::format("version is '{}'; NNEF 1.0.x documents say 'version 1.0;'", doc.version);
        if (mode == ReadMode::Strict)
            error("version", {"graph.nnef", 1, 1}, msg);
        else
            warning("version", {"graph.nnef", 1, 1}, msg);
    }
    if (mode == ReadMode::Tract) {
        // tract renders graph.nnef as a template first (liquid, minijinja).
        const std::string_view text = model.graphText;
        int reported = 0;
        for (std::size_t at = text.find('{'); at != std::string_view::npos && reported < 20;
             at = text.find('{', at + 1)) {
            if (at + 1 < text.size() &&
                (text[at + 1] == '{' || text[at + 1] == '%' || text[at + 1] == '#')) {
                ++reported;
                error("template-syntax", locationAt(text, at),
                      fmt::format("'{}' in the text: tract (>= 0.22) renders graph.nnef as a "
                                  "template, which would change it",
                                  text.substr(at, 2)));
            }
        }
    }
    if (mode == ReadMode::Strict && !doc.fragments.empty() && !khrFragments)
        error("khronos-extension", doc.fragments.front().loc,
              "fragment definitions need 'extension KHR_enable_fragment_definitions;'");
    std::set<std::string> seen;
    for (const auto& f : doc.fragments) {
        if (!seen.insert(f.name).second)
            error("duplicate-fragment", f.loc,
                  fmt::format("fragment '{}' is defined more than once", f.name));
        if (mode == ReadMode::Strict) {
            if (const auto* op = target::findOp(f.name); op && op->khronos)
                error("duplicate-fragment", f.loc,
                      fmt::format("fragment '{}' redefines a standard operation", f.name));
            keywordName(f.name, f.loc);
            for (const auto& p : f.params)
                keywordName(p.name, f.loc);
            for (const auto& r : f.results)
                keywordName(r.name, f.loc);
        }
        fragments.insert(f.name);
    }
}

void Checker::keywordName(const std::string& name, const ast::Location& loc) {
    if (mode == ReadMode::Strict && nnef::isNnefKeyword(name) &&
        keywordsReported.insert(name).second)
        error("keyword-name", loc,
              fmt::format("'{}' is an NNEF keyword and cannot be an identifier", name));
}

void Checker::quantRules() {
    for (const auto& q : model.quant) {
        if (!graphNames.count(q.tensor))
            error("quant-key", q.loc,
                  fmt::format("graph.quant has an entry for '{}', which the graph never "
                              "assigns (keys are graph identifiers, not labels)",
                              q.tensor));
        if (mode == ReadMode::Tract && q.op != "linear_quantize" &&
            q.op != "zero_point_linear_quantize")
            error("quant-op", q.loc,
                  fmt::format("tract reads only linear_quantize and zero_point_linear_quantize "
                              "in graph.quant, not '{}'",
                              q.op));
    }
}

void Checker::unusedTensors() {
    for (const auto& [label, tensor] : model.tensors)
        if (!usedLabels.count(label))
            warning("unused-tensor", {label + ".dat", 0, 0},
                    fmt::format("'{}.dat' is not the data of any variable", label));
}

std::vector<Problem> checkStructure(const nnef::LoadedModel& model, ReadMode mode) {
    Checker c{model, mode};
    c.extensions();
    c.documentRules();
    for (const auto& f : model.document.fragments)
        c.fragment(f);
    c.graph();
    c.quantRules();
    c.unusedTensors();
    c.operationsSummary();
    c.versionRules();
    return std::move(c.problems);
}

std::string formatProblem(const Problem& p) {
    const char* sev = p.severity == Problem::Severity::Error ? "error" : "warning";
    std::string where;
    if (!p.loc.file.empty())
        where = p.loc.line > 0 ? fmt::format("{}:{}:{}: ", p.loc.file, p.loc.line, p.loc.column)
                               : fmt::format("{}: ", p.loc.file);
    return fmt::format("{}{}: {} [{}]", where, sev, p.message, p.rule);
}

bool passes(const std::vector<Problem>& problems) {
    for (const auto& p : problems)
        if (p.severity == Problem::Severity::Error)
            return false;
    return true;
}

} // namespace t2n::check
