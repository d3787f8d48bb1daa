// The sub-commands of t2n. Each adds itself to the root app and returns
// the function main() runs when it was chosen.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace t2n::cli {

struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

Command addExportCommand(CLI::App& root);
Command addInspectCommand(CLI::App& root);
Command addOpsCommand(CLI::App& root);
Command addBenchCommand(CLI::App& root);

} // namespace t2n::cli
