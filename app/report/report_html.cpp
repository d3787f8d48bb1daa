#include "report/report_html.h"

#include "report/ir_graph_svg.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <map>

namespace t2n::report {

namespace {

// The code point of the bidi control (U+061C, U+200E/F, U+202A-E, U+2066-9)
// whose UTF-8 bytes start at `at`, else 0.
unsigned bidiControlAt(std::string_view s, size_t at) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[at + k]); };
    if (at + 1 < s.size() && b(0) == 0xd8 && b(1) == 0x9c)
        return 0x061c;
    if (at + 2 >= s.size() || b(0) != 0xe2)
        return 0;
    const unsigned cp = 0x2000 | (b(1) & 0x3f) << 6 | (b(2) & 0x3f);
    const bool bidi = cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
                      (cp >= 0x2066 && cp <= 0x2069);
    return (b(1) & 0xc0) == 0x80 && (b(2) & 0xc0) == 0x80 && bidi ? cp : 0;
}

// JSON inside <script type="application/json">: '<', '>' and '&' only occur
// in its strings, where \uXXXX says the same; so no "</script>" or "<!--"
// can end or change the block. Bidi controls (from a model's names, a path)
// are written as \uXXXX too: the same JSON, and no raw override in the page.
std::string dataBlock(std::string_view id, std::string_view json) {
    std::string safe;
    safe.reserve(json.size());
    for (size_t at = 0; at < json.size(); ++at) {
        const char ch = json[at];
        if (const unsigned cp = bidiControlAt(json, at)) {
            safe += fmt::format("\\u{:04x}", cp);
            at += cp == 0x061c ? 1 : 2;
        } else if (ch == '<')
            safe += "\\u003c";
        else if (ch == '>')
            safe += "\\u003e";
        else if (ch == '&')
            safe += "\\u0026";
        else
            safe += ch;
    }
    return fmt::format("<script type=\"application/json\" id=\"{}\">{}</script>\n", id, safe);
}

// Inline style only: the report must look the same offline, attached to a bug.
constexpr std::string_view kStyle = R"(
body { font: 14px/1.45 sans-serif; margin: 1.5em auto; max-width: 84em; padding: 0 1em; color: #1d232b; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #d0d6de; }
.verdict { font-weight: bold; padding: .5em .8em; border-radius: 4px; }
.failed { background: #fbe3e3; color: #8a1c1c; } .passed { background: #e2f3e2; color: #1f5f1f; }
table { border-collapse: collapse; margin: .4em 0; } th, td { border: 1px solid #d0d6de; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #eef2f7; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f5f7fa; border: 1px solid #d0d6de; padding: .6em; overflow: auto; white-space: pre-wrap; }
code, pre, td.mono { font-family: monospace; font-size: 13px; }
.graph { overflow: auto; max-height: 48em; border: 1px solid #d0d6de; }
#frozen-table td:nth-child(3) { white-space: pre; }
tr.linked { cursor: pointer; } tr.linked:hover { background: #fff3de; }
.graph .picked polygon, .graph .picked path { stroke: #1565c0; stroke-width: 4; }
.note { color: #5a6572; }
)";

// Clicking a row of the frozen-size table picks and shows its node on the
// graph. Only rows whose node is drawn look clickable ("linked", which the
// browser test also reads as proof that the script ran).
constexpr std::string_view kScript = R"(
document.querySelectorAll('tr.frozen[data-node]').forEach(function (row) {
  var node = document.getElementById(row.dataset.node);
  if (!node) return;
  row.classList.add('linked');
  row.title = 'Show this node on the graph below';
  row.addEventListener('click', function () {
    document.querySelectorAll('.graph .picked').forEach(function (n) { n.classList.remove('picked'); });
    node.classList.add('picked');
    node.scrollIntoView({block: 'center', inline: 'center'});
  });
});
)";

struct Writer {
    std::string out;
    template <typename... Args> void put(fmt::format_string<Args...> f, Args&&... args) {
        fmt::format_to(std::back_inserter(out), f, std::forward<Args>(args)...);
    }
    void row(const std::vector<std::string>& cells, const char* tag = "td") {
        out += "<tr>";
        for (const auto& c : cells)
            put("<{0}>{1}</{0}>", tag, escapeMarkup(c));
        out += "</tr>\n";
    }
};

std::string verdictOf(const HtmlReportInputs& in) {
    if (in.error)
        return fmt::format("failed at the {} stage: {}", stageName(in.error->stage()),
                           in.error->message());
    const ExportReport& r = *in.report;
    if (r.check.ran && !r.check.passed)
        return "the check failed: the archive does not compute what the model computes";
    if (r.check.ran)
        return fmt::format("passed: the archive matches the model within the '{}' tolerance",
                           r.check.tolerance);
    return r.written ? "exported (not checked)" : "nothing was exported";
}

// A frozen-size row's box on the drawing (drawIr's numbering: a node's id,
// -1 - i for graph input i), kNotDrawn for none: the node computing the
// value, the graph input it is (an archive that kept an input's example
// size), else the node the row names.
constexpr int kNotDrawn = std::numeric_limits<int>::min();
int drawingId(const ir::Graph& g, const FrozenSize& f) {
    for (const ir::Value& v : g.values)
        if (!f.value.empty() && v.debugName == f.value && v.producer >= 0)
            return v.producer;
    for (size_t i = 0; i < g.inputs.size(); ++i)
        if (!f.value.empty() && g.value(g.inputs[i]).debugName == f.value)
            return -1 - static_cast<int>(i);
    const ir::NodeId id = g.nodeFor(f.node);
    return id >= 0 ? id : kNotDrawn;
}

std::string drawingElement(int id) {
    return id >= 0 ? fmt::format("ir-{}", id) : fmt::format("input-{}", -1 - id);
}

// The IR nodes the failure is about (red) and where the sizes froze (orange).
std::map<int, Mark> markedNodes(const HtmlReportInputs& in) {
    std::map<int, Mark> marked;
    const ir::Graph& g = *in.graph;
    auto mark = [&](int id, Mark m) {
        if (id != kNotDrawn)
            marked.try_emplace(id, m);
    };
    if (in.report)
        for (const FrozenSize& f : in.report->frozenSizes.values)
            mark(drawingId(g, f), Mark::Frozen);
    if (in.error)
        for (const Diagnostic& d : in.error->details())
            if (d.hasNode)
                mark(g.nodeFor(d.node), Mark::Failed);
    if (in.report && in.report->check.diverged)
        mark(g.nodeFor(in.report->check.divergence.node), Mark::Failed);
    return marked;
}

// What stopped the run: the error, or the rules the archive breaks (a run
// at another size of a dynamic axis that fails is one).
void failureSection(Writer& w, const HtmlReportInputs& in) {
    const ExportReport* r = in.report;
    const bool checkFailed = r && r->check.ran && !r->check.passed;
    if (!in.error && !checkFailed)
        return;
    w.put("<section id=\"failure\"><h2>The failure</h2>\n");
    if (in.error)
        w.put("<pre>{}</pre>\n", escapeMarkup(in.error->render()));
    if (checkFailed) {
        for (const auto& p : r->check.structureProblems)
            w.put("<pre>{}</pre>\n", escapeMarkup(p));
        if (r->check.diverged) {
            const Divergence& d = r->check.divergence;
            w.put("<p>First diverging operation: <code>{} = {}(...)</code> at graph.nnef:{}, "
                  "from {}: {}</p>\n",
                  escapeMarkup(d.identifier), escapeMarkup(d.operation), d.nnefLine,
                  escapeMarkup(d.node.describe()), escapeMarkup(d.detail));
        }
        if (r->check.structureProblems.empty() && !r->check.diverged)
            w.put("<p>An output differs from the model's: see the check below.</p>\n");
    }
    w.put("</section>\n");
}

// The check's figures, passed or not: each output compared with the model's.
void checkSection(Writer& w, const HtmlReportInputs& in) {
    if (!in.report || !in.report->check.ran)
        return;
    const CheckReport& check = in.report->check;
    // Dynamic exports are compared again at other sizes: "output_0 @ S=7".
    std::string again;
    for (const auto& o : check.outputs)
        if (auto at = o.name.find(" @ "); at != std::string::npos && again.empty())
            again = fmt::format(", then again at other sizes of the dynamic axes (the rows "
                                "\"... @ {}\")",
                                o.name.substr(at + 3));
    w.put("<section id=\"check\"><h2>The check</h2>\n<p>The archive run by t2n's reference "
          "interpreter on the model's example inputs and compared with the model, output by "
          "output, within the '{}' tolerance{}.</p>\n",
          escapeMarkup(check.tolerance), escapeMarkup(again));
    if (!check.outputs.empty()) {
        w.put("<table id=\"outputs\">\n");
        w.row({"output", "verdict", "max abs error", "max rel error", "elements beyond", "note"},
              "th");
        for (const auto& o : check.outputs)
            w.row({o.name, o.ok ? "matches" : "DIFFERS", fmt::format("{:.3g}", o.maxAbsError),
                   fmt::format("{:.3g}", o.maxRelError),
                   fmt::format("{} of {}", o.mismatches, o.elements), o.note});
        w.put("</table>\n");
    }
    // The sizes each dynamic axis was checked at, and why those (an axis
    // checked at its example size only is said to be).
    if (!check.dynamicSizes.empty()) {
        w.put("<ul id=\"dynamic-sizes\">\n");
        for (const auto& d : check.dynamicSizes)
            w.put("<li{}>{}</li>\n", d.second == 0 ? " class=\"warn\"" : "", escapeMarkup(d.words));
        w.put("</ul>\n");
    }
    if (!check.tract.empty()) // "tract: passed (...)", "tract: skipped (not found)"
        w.put("<p>{}</p>\n", escapeMarkup(check.tract));
    w.put("</section>\n");
}

void frozenSection(Writer& w, const HtmlReportInputs& in) {
    if (!in.report || in.report->frozenSizes.empty())
        return;
    const FrozenSizes& table = in.report->frozenSizes;
    w.put("<section id=\"frozen-sizes\"><h2>Where a size froze</h2>\n"
          "<p>Values that should have followed the dynamic axes ({} at the example, {} at the "
          "second size) but did not. Click a row to find its node on the graph.</p>\n"
          "<table id=\"frozen-table\">\n",
          escapeMarkup(table.exampleSizes), escapeMarkup(table.secondSizes));
    w.row(table.columns(), "th");
    for (const FrozenSize& f : table.values) {
        const int id = in.graph ? drawingId(*in.graph, f) : kNotDrawn;
        if (id != kNotDrawn)
            w.put("<tr class=\"frozen\" data-node=\"{}\">", drawingElement(id));
        else
            w.put("<tr class=\"frozen\">");
        for (const auto& cell : table.cells(f))
            w.put("<td>{}</td>", escapeMarkup(cell));
        w.put("</tr>\n");
    }
    w.put("</table></section>\n");
}

void graphSection(Writer& w, const HtmlReportInputs& in) {
    if (!in.graph || in.graph->nodes.empty())
        return;
    const auto marked = markedNodes(in);
    const IrDrawing drawing = drawIr(*in.graph, marked);
    // The legend names the colours the drawing uses.
    std::string legend;
    for (const auto& [mark, text] : {std::pair{Mark::Failed, "red: the nodes the failure names"},
                                     std::pair{Mark::Frozen, "orange: where a size froze"}})
        if (std::any_of(marked.begin(), marked.end(),
                        [mark = mark](const auto& m) { return m.second == mark; }))
            legend += fmt::format("{}; ", text);
    legend += "boxes are grouped by module path; hover over a box to see its node and source line";
    legend[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(legend[0])));
    w.put("<section id=\"ir-graph\"><h2>t2n IR graph</h2>\n");
    w.put("<p class=\"note\">{}.{}</p>\n", legend,
          drawing.note.empty() ? std::string() : " " + escapeMarkup(drawing.note) + ".");
    if (!drawing.svg.empty())
        w.put("<div class=\"graph\">{}</div>\n", drawing.svg);
    w.put("</section>\n");
}

void factsSection(Writer& w, const HtmlReportInputs& in) {
    w.put("<table id=\"facts\">\n");
    w.row({"command", in.command});
    w.row({"model", in.recipe.model.string()});
    w.row({"output", in.recipe.output.string()});
    if (in.report) {
        if (!in.report->target.empty())
            w.row({"target", in.report->target});
        double total = 0;
        for (const auto& t : in.report->timings)
            total += t.seconds;
        std::string stages;
        for (const auto& t : in.report->timings)
            stages += fmt::format("{}{} {:.2f} s", stages.empty() ? "" : ", ", stageName(t.stage),
                                  t.seconds);
        if (!stages.empty())
            w.row({"stages", fmt::format("{} (total {:.2f} s)", stages, total)});
    }
    w.put("</table>\n");
}

void warningsSection(Writer& w, const HtmlReportInputs& in) {
    if (!in.report || in.report->warnings.empty())
        return;
    w.put("<section id=\"warnings\"><h2>Warnings</h2><ul>\n");
    for (const auto& warning : in.report->warnings)
        w.put("<li>{}</li>\n", escapeMarkup(warning));
    w.put("</ul></section>\n");
}

// One row per fact, nested objects as "blas.kind": a reader compares
// versions at a glance instead of reading JSON.
void versionRows(Writer& w, const nlohmann::json& j, const std::string& prefix) {
    for (const auto& [key, value] : j.items()) {
        if (value.is_object())
            versionRows(w, value, prefix + key + ".");
        else
            w.row({prefix + key,
                   value.is_string()
                       ? value.get<std::string>()
                       : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)});
    }
}

void versionsSection(Writer& w, const HtmlReportInputs& in) {
    w.put("<section id=\"versions\"><h2>Versions</h2>\n<p class=\"note\">What <code>t2n "
          "doctor</code> says on the machine that wrote this report.</p>\n<table>\n");
    auto j =
        nlohmann::json::parse(in.versionsJson.empty() ? "{}" : in.versionsJson, nullptr, false);
    if (j.is_object()) {
        // tract as `t2n doctor` prints it: its path, then how it was found
        // (or that it was not).
        if (auto note = j.find("tract_note"); note != j.end()) {
            const std::string path = j.value("tract", std::string());
            j["tract"] = (path.empty() ? "" : path + ", ") +
                         (note->is_string() ? note->get<std::string>()
                                            : note->dump(-1, ' ', false,
                                                         nlohmann::json::error_handler_t::replace));
            j.erase(note);
        }
        // The versions a bug report is read for come first, the rest by name.
        for (const char* key : {"t2n", "studio", "qt", "libtorch", "tract"})
            if (auto it = j.find(key); it != j.end()) {
                versionRows(w, {{key, *it}}, "");
                j.erase(it);
            }
        versionRows(w, j, "");
    }
    w.put("</table></section>\n");
}

} // namespace

std::string renderHtmlReport(const HtmlReportInputs& in) {
    Writer w;
    const std::string model = in.recipe.model.filename().string();
    const std::string verdict = verdictOf(in);
    const bool failed = in.error || (in.report && in.report->check.ran && !in.report->check.passed);
    w.put("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"generator\" content=\"t2n {}\">\n"
          "<title>t2n report: {}</title>\n<style>{}</style>\n</head>\n<body>\n",
          escapeMarkup(in.report ? in.report->t2nVersion : std::string()), escapeMarkup(model),
          kStyle);
    w.put("<h1>t2n report: {}</h1>\n", escapeMarkup(model));
    w.put("<p id=\"verdict\" class=\"verdict {}\">{}</p>\n", failed ? "failed" : "passed",
          escapeMarkup(verdict));
    factsSection(w, in);
    failureSection(w, in);
    frozenSection(w, in);
    checkSection(w, in);
    graphSection(w, in);
    warningsSection(w, in);
    const std::string recipe = toJson(in.recipe);
    // A check's recipe names the archive checked: exported again, it would be replaced.
    const std::string self =
        escapeMarkup(in.fileName.empty() || in.fileName == "-" ? "REPORT.html" : in.fileName);
    w.put("<section id=\"recipe\"><h2>Recipe</h2>\n<p>Open this file in the studio "
          "(<code>t2n-studio {0}</code>, or File &gt; Open){1}: the recipe below is read from "
          "it.</p>\n<pre>{2}</pre></section>\n",
          self,
          in.checkOnly
              ? std::string(" to check the same archive again")
              : fmt::format(" or run the export again with <code>t2n export --recipe {}</code>",
                            self),
          escapeMarkup(recipe));
    versionsSection(w, in);
    if (in.report)
        w.put("<section id=\"json-report\"><h2>JSON report</h2>\n<details><summary>the "
              "report as <code>--report</code> writes it</summary><pre>{}</pre></details>"
              "</section>\n",
              escapeMarkup(in.report->toJson()));
    w.out += dataBlock(kReportRecipeBlock, recipe);
    if (in.report)
        w.out += dataBlock("t2n-report", in.report->toJson());
    w.put("<script>{}</script>\n</body>\n</html>\n", kScript);
    return w.out;
}

} // namespace t2n::report
