#include "report/report_html.h"

#include "report/ir_graph_svg.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

namespace t2n::report {

namespace {

std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += ch;
        }
    }
    return out;
}

// JSON inside <script type="application/json">: '<', '>' and '&' only occur
// in its strings, where \uXXXX says the same; so no "</script>" or "<!--"
// can end or change the block.
std::string dataBlock(std::string_view id, std::string_view json) {
    std::string safe;
    safe.reserve(json.size());
    for (char ch : json) {
        if (ch == '<')
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
tr.frozen { cursor: pointer; } tr.frozen:hover { background: #fff3de; }
.graph .picked polygon, .graph .picked path { stroke: #1565c0; stroke-width: 4; }
.note { color: #5a6572; }
)";

// Clicking a row of the frozen-size table picks and shows its node on the graph.
constexpr std::string_view kScript = R"(
document.querySelectorAll('tr.frozen[data-node]').forEach(function (row) {
  row.addEventListener('click', function () {
    var node = document.getElementById(row.dataset.node);
    if (!node) return;
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
            put("<{0}>{1}</{0}>", tag, escape(c));
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
        return fmt::format("passed: the archive matches the model at {}", r.check.tolerance);
    return r.written ? "exported (not checked)" : "nothing was exported";
}

// The IR nodes the failure is about (red) and where the sizes froze (orange).
std::map<ir::NodeId, Mark> markedNodes(const HtmlReportInputs& in) {
    std::map<ir::NodeId, Mark> marked;
    const ir::Graph& g = *in.graph;
    auto mark = [&](ir::NodeId id, Mark m) {
        if (id >= 0)
            marked.try_emplace(id, m);
    };
    if (in.report)
        for (const FrozenSize& f : in.report->frozenSizes.values) {
            ir::NodeId id = -1;
            for (const ir::Value& v : g.values)
                if (!f.value.empty() && v.debugName == f.value)
                    id = v.producer;
            mark(id >= 0 ? id : g.nodeFor(f.node), Mark::Frozen);
        }
    if (in.error)
        for (const Diagnostic& d : in.error->details())
            if (d.hasNode)
                mark(g.nodeFor(d.node), Mark::Failed);
    if (in.report && in.report->check.diverged)
        mark(g.nodeFor(in.report->check.divergence.node), Mark::Failed);
    return marked;
}

void failureSection(Writer& w, const HtmlReportInputs& in) {
    const ExportReport* r = in.report;
    const bool checkFailed = r && r->check.ran && !r->check.passed;
    if (!in.error && !checkFailed)
        return;
    w.put("<section id=\"failure\"><h2>The failure</h2>\n");
    if (in.error)
        w.put("<pre>{}</pre>\n", escape(in.error->render()));
    if (checkFailed) {
        for (const auto& p : r->check.structureProblems)
            w.put("<pre>{}</pre>\n", escape(p));
        if (!r->check.outputs.empty()) {
            w.put("<table id=\"outputs\">\n");
            w.row(
                {"output", "verdict", "max abs error", "max rel error", "elements beyond", "note"},
                "th");
            for (const auto& o : r->check.outputs)
                w.row({o.name, o.ok ? "matches" : "DIFFERS", fmt::format("{:.3g}", o.maxAbsError),
                       fmt::format("{:.3g}", o.maxRelError),
                       fmt::format("{} of {}", o.mismatches, o.elements), o.note});
            w.put("</table>\n");
        }
        if (r->check.diverged) {
            const Divergence& d = r->check.divergence;
            w.put("<p>First diverging operation: <code>{} = {}(...)</code> at graph.nnef:{}, "
                  "from {}: {}</p>\n",
                  escape(d.identifier), escape(d.operation), d.nnefLine, escape(d.node.describe()),
                  escape(d.detail));
        }
        if (!r->check.tract.empty())
            w.put("<p>tract: {}</p>\n", escape(r->check.tract));
    }
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
          escape(table.exampleSizes), escape(table.secondSizes));
    w.row(table.columns(), "th");
    std::map<std::string, ir::NodeId> producers;
    if (in.graph)
        for (const ir::Value& v : in.graph->values)
            producers.emplace(v.debugName, v.producer);
    for (const FrozenSize& f : table.values) {
        ir::NodeId id = -1;
        if (auto it = producers.find(f.value); it != producers.end())
            id = it->second;
        if (id < 0 && in.graph)
            id = in.graph->nodeFor(f.node);
        if (id >= 0)
            w.put("<tr class=\"frozen\" data-node=\"ir-{}\">", id);
        else
            w.put("<tr class=\"frozen\">");
        for (const auto& cell : table.cells(f))
            w.put("<td>{}</td>", escape(cell));
        w.put("</tr>\n");
    }
    w.put("</table></section>\n");
}

void graphSection(Writer& w, const HtmlReportInputs& in) {
    if (!in.graph || in.graph->nodes.empty())
        return;
    const IrDrawing drawing = drawIr(*in.graph, markedNodes(in));
    w.put("<section id=\"ir-graph\"><h2>t2n IR graph</h2>\n");
    w.put("<p class=\"note\">Red: the nodes the failure names; orange: where a size froze; "
          "boxes are grouped by module path.{}</p>\n",
          drawing.note.empty() ? std::string() : " " + escape(drawing.note) + ".");
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
        w.put("<li>{}</li>\n", escape(warning));
    w.put("</ul></section>\n");
}

void versionsSection(Writer& w, const HtmlReportInputs& in) {
    w.put("<section id=\"versions\"><h2>Versions</h2>\n<table>\n");
    const auto j =
        nlohmann::json::parse(in.versionsJson.empty() ? "{}" : in.versionsJson, nullptr, false);
    if (j.is_object())
        for (const auto& [key, value] : j.items())
            w.row({key, value.is_string() ? value.get<std::string>() : value.dump()});
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
          escape(in.report ? in.report->t2nVersion : std::string()), escape(model), kStyle);
    w.put("<h1>t2n report: {}</h1>\n", escape(model));
    w.put("<p id=\"verdict\" class=\"verdict {}\">{}</p>\n", failed ? "failed" : "passed",
          escape(verdict));
    factsSection(w, in);
    failureSection(w, in);
    frozenSection(w, in);
    graphSection(w, in);
    warningsSection(w, in);
    const std::string recipe = toJson(in.recipe);
    w.put("<section id=\"recipe\"><h2>Recipe</h2>\n<p>Open this file in the studio "
          "(<code>t2n-studio {0}</code>, or File &gt; Open) or run it again with "
          "<code>t2n export --recipe {0}</code>: the recipe below is read from it.</p>\n"
          "<pre>{1}</pre></section>\n",
          escape(in.fileName.empty() || in.fileName == "-" ? "REPORT.html" : in.fileName),
          escape(recipe));
    versionsSection(w, in);
    if (in.report)
        w.put("<section id=\"json-report\"><h2>JSON report</h2>\n<details><summary>the "
              "report as <code>--report</code> writes it</summary><pre>{}</pre></details>"
              "</section>\n",
              escape(in.report->toJson()));
    w.out += dataBlock(kReportRecipeBlock, recipe);
    if (in.report)
        w.out += dataBlock("t2n-report", in.report->toJson());
    w.put("<script>{}</script>\n</body>\n</html>\n", kScript);
    return w.out;
}

} // namespace t2n::report
