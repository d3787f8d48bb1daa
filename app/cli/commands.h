// The sub-commands of t2n. Each adds itself to the root app and returns
// the function main() runs when it was chosen.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

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
Command addDoctorCommand(CLI::App& root);

/// 0 when the check passed or did not run, 1 (a mismatch) otherwise.
int checkExitCode(const CheckReport& check, Observer& observer);

} // namespace t2n::cli
