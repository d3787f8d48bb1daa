// The sub-commands of t2n. Each adds itself to the root app and returns
// the function main() runs when it was chosen.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace t2n {
struct CheckReport;
struct ExportRecipe;
class Error;
class Observer;
} // namespace t2n

namespace t2n::cli {

struct RunReport;

struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

Command addExportCommand(CLI::App& root);
Command addCheckCommand(CLI::App& root);
Command addInspectCommand(CLI::App& root);
Command addHardenCommand(CLI::App& root);
Command addOpsCommand(CLI::App& root);
Command addBenchCommand(CLI::App& root);
Command addDoctorCommand(CLI::App& root);
Command addTensorsCommand(CLI::App& root);

/// 0 when the check passed or did not run, 1 (a mismatch) otherwise, with
/// a closing verdict that says what failed (and, `exporting`, that nothing
/// was written).
int checkExitCode(const CheckReport& check, Observer& observer, bool exporting = false);
/// Writes the JSON report on standard output; Error (Report, OutputPath)
/// when it cannot (closed, full, a broken pipe).
void printReport(const std::string& json);

/// "t2n: error: ..." on stderr.
void printError(const Error& e);
/// A failed export or check: the error (or the check's verdict), then, when
/// the studio can show it, `recipe` written into t2n's state folder
/// (failedRecipePath: never beside the target) and, as the last line, the
/// command that opens it (or the debug bundle folder) in the studio. Return
/// the exit code.
/// Both also print where sizes froze and write the HTML report `run` asks for.
int failedExport(const Error& e, const ExportRecipe& recipe, const RunReport& run);
int failedCheck(const CheckReport& check, Observer& observer, const ExportRecipe& recipe,
                const RunReport& run, bool exporting = false);

/// `recipe` with absolute paths: recipe paths are relative to the working
/// directory of whoever runs the recipe, and the recipes t2n writes for
/// others (a failed run's, the HTML report's) are opened from anywhere.
ExportRecipe withAbsolutePaths(ExportRecipe recipe);

/// --report and --report-html: standard output ("-") must be open and taken
/// by one of them; a file must pass checkDestination() (t2n/outputs.h) and
/// be none of `taken` (the model, the recipe, the artifact, each other),
/// to which it is added.
void checkReportDestinations(const std::string& report, const std::string& reportHtml,
                             std::vector<std::filesystem::path>& taken);

} // namespace t2n::cli
