// The sub-commands of t2n. Each adds itself to the root app and returns
// the function main() runs when it was chosen.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

#include <string>

namespace t2n {
struct CheckReport;
struct ExportRecipe;
class Error;
class Observer;
} // namespace t2n

namespace t2n::cli {

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

/// 0 when the check passed or did not run, 1 (a mismatch) otherwise.
int checkExitCode(const CheckReport& check, Observer& observer);

/// "t2n: error: ..." on stderr.
void printError(const Error& e);
/// A failed export or check: the error (or the check's verdict), then, when
/// the studio can show it, `recipe` written beside its target (or the
/// --save-recipe file `savedRecipe`) and, as the last line, the command that
/// opens it in the studio. Return the exit code.
int failedExport(const Error& e, const ExportRecipe& recipe, const std::string& savedRecipe);
int failedCheck(const CheckReport& check, Observer& observer, const ExportRecipe& recipe,
                const std::string& savedRecipe);

} // namespace t2n::cli
