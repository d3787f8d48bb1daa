// The sub-commands of t2n. Each adds itself to the root app and returns
// the function main() runs when it was chosen.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace t2n {
struct CheckReport;
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

/// 0 when the check passed or did not run, 1 (a mismatch) otherwise, with
/// a closing verdict that says what failed (and, `exporting`, that nothing
/// was written).
int checkExitCode(const CheckReport& check, Observer& observer, bool exporting = false);
/// Writes the JSON report on standard output; Error (Report, OutputPath)
/// when it cannot (closed, full, a broken pipe).
void printReport(const std::string& json);

} // namespace t2n::cli
