#include "run_report.h"

#include "commands.h"
#include "report/display_text.h"
#include "report/report_html.h"
#include "report/runtime_json.h"

#include "t2n/outputs.h"
#include "t2n/runtime_info.h"
#include "t2n/session.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace t2n::cli {

namespace {

// A terminal line stays readable: long cells (a source statement) are cut.
constexpr size_t kWidestCell = 48;

std::string cut(std::string cell) {
    if (cell.size() > kWidestCell)
        cell = cell.substr(0, kWidestCell - 3) + "...";
    return cell;
}

} // namespace

void printFrozenSizes(const FrozenSizes& table) {
    if (table.empty())
        return;
    std::vector<std::vector<std::string>> rows{table.columns()};
    for (const auto& f : table.values)
        rows.push_back(table.cells(f));
    std::vector<size_t> widths(rows.front().size(), 0);
    for (auto& row : rows)
        for (size_t i = 0; i + 1 < row.size(); ++i) // the last column runs to the end of the line
            widths[i] = std::max(widths[i], (row[i] = cut(row[i])).size());
    fmt::print(stderr,
               "t2n: where a size froze: values that should have followed the dynamic "
               "axes ({} -> {}) but did not:\n",
               table.exampleSizes, table.secondSizes);
    for (const auto& row : rows) {
        std::string line = " ";
        for (size_t i = 0; i < row.size(); ++i)
            line += i + 1 < row.size() ? fmt::format(" {:<{}}", row[i], widths[i]) : " " + row[i];
        fmt::print(stderr, "{}\n", report::displayText(line, false));
    }
}

std::string htmlReport(const RunReport& run, const ExportRecipe& recipe, const Error* error) {
    report::HtmlReportInputs in;
    in.command = std::string(run.command);
    in.checkOnly = run.command == "t2n check";
    in.recipe = withAbsolutePaths(recipe); // reopened from wherever the report goes
    in.report = &run.session->report();
    in.error = error;
    try {
        in.graph = &run.session->graph();
    } catch (const Error&) {
        in.graph = nullptr; // the run stopped before the trace
    }
    in.versionsJson = report::runtimeJson(runtimeInfo()).dump();
    in.fileName = std::filesystem::path(run.htmlPath).filename().string();
    return report::renderHtmlReport(in);
}

void addHtmlReport(const RunReport& run, const ExportRecipe& recipe, PendingOutputs& into) {
    if (run.htmlPath.empty())
        return;
    const std::string html = htmlReport(run, recipe, nullptr);
    if (run.htmlPath == "-")
        printReport(html);
    else
        into.addText(run.htmlPath, html, Stage::Report, "HTML report");
}

void reportFailedRun(const RunReport& run, const ExportRecipe& recipe, const Error* error) {
    if (run.session)
        printFrozenSizes(run.session->report().frozenSizes);
    if (run.htmlPath.empty() || !run.session)
        return;
    try {
        const std::string html = htmlReport(run, recipe, error);
        if (run.htmlPath == "-") {
            printReport(html);
            return;
        }
        PendingOutputs pending;
        pending.addText(run.htmlPath, html, Stage::Report, "HTML report");
        pending.publish();
        fmt::print(stderr, "t2n: the HTML report of this failure: {}\n",
                   report::terminalText(run.htmlPath));
    } catch (const Error& e) {
        fmt::print(stderr, "t2n: warning: the HTML report was not written: {}\n",
                   report::terminalText(e.render()));
    }
}

} // namespace t2n::cli
