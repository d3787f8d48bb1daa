// The one-file report of an export or a check (`t2n export|check
// --report-html FILE`, the studio's File > Save report): one self-contained
// HTML document that a user attaches to a bug report. It holds the verdict
// and the failure, the table of values whose sizes froze, the IR graph as
// inline SVG with the nodes concerned marked, the check's figures, the
// warnings, the recipe, the versions (`t2n doctor`) and the JSON report; it
// refers to nothing outside itself (no link, image, font or script is
// fetched). The recipe and the JSON report are embedded as JSON data blocks;
// t2n::loadRecipe() reads the recipe back from the file, so the studio (and
// `t2n export --recipe`) reopen it.
// Qt-free: the command line writes it as the studio does.
#pragma once

#include "t2n/error.h"
#include "t2n/ir.h"
#include "t2n/recipe.h"
#include "t2n/report.h"

#include <string>

namespace t2n::report {

struct HtmlReportInputs {
    std::string command;    ///< what ran ("t2n export", "t2n check", "t2n-studio")
    bool checkOnly = false; ///< the run checked an archive it did not write (t2n check)
    ExportRecipe recipe;    ///< reopened by the studio
    const ExportReport* report = nullptr;
    const Error* error = nullptr;     ///< the failure, when the run stopped with one
    const ir::Graph* graph = nullptr; ///< t2n's IR, when the run got that far
    std::string versionsJson;         ///< runtimeJson(), plus what the front end adds
    std::string fileName;             ///< the report's own file name, for the commands it shows
};

/// The document. Deterministic for the same inputs (no date in it).
std::string renderHtmlReport(const HtmlReportInputs& in);

} // namespace t2n::report
