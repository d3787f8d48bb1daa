// What a run of `t2n export` or `t2n check` leaves for a person: the table
// of values whose sizes froze (on stderr, with the error), and the one-file
// HTML report of --report-html (report/report_html.h), written with the
// artifact when the run succeeds and on its own when it fails: a failed run
// is what the report is for, like the debug bundle.
#pragma once

#include "t2n/error.h"
#include "t2n/recipe.h"
#include "t2n/report.h"

#include <string>
#include <string_view>

namespace t2n {
class PendingOutputs;
class Session;
} // namespace t2n

namespace t2n::cli {

/// The run's session and where its HTML report goes ("" for none, "-" for
/// standard output).
struct RunReport {
    const Session* session = nullptr;
    std::string htmlPath;
    std::string_view command; ///< "t2n export", "t2n check"
};

/// "where a size froze" as a text table on stderr; nothing when `table` is empty.
void printFrozenSizes(const FrozenSizes& table);

/// The HTML report of the run so far (`error`: the failure it stopped with).
std::string htmlReport(const RunReport& run, const ExportRecipe& recipe, const Error* error);

/// Adds the HTML report to `into` (a run that succeeded publishes it with
/// its other results), or prints it when the path is "-".
void addHtmlReport(const RunReport& run, const ExportRecipe& recipe, PendingOutputs& into);

/// A failed run: the frozen-size table, then the HTML report written now;
/// when it cannot be written, a warning says why (the failure stays the
/// run's error).
void reportFailedRun(const RunReport& run, const ExportRecipe& recipe, const Error* error);

} // namespace t2n::cli
