// t2n harden MODEL: run the JIT-only hardening chain alone and show what each
// pass did; --dump-dir writes the graph after every pass (NN-passname.txt)
// for diffing, --diagnostics the JSON record.
#include "cli_observer.h"
#include "commands.h"
#include "export_flags.h"

#include "t2n/error.h"
#include "t2n/harden.h"
#include "t2n/session.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

namespace t2n::cli {

namespace {
struct HardenArgs {
    ExportFlags flags;
    bool noFreeze = false;
    std::vector<std::string> skip;
    std::optional<int64_t> step;
    std::string diagnostics;
    std::string dumpDir;
};

std::string passList() {
    std::string out;
    for (const auto& p : harden::passDescriptions())
        out += fmt::format("\n  {:<42} {}", p.name, p.summary);
    return out;
}

void writeFile(const std::filesystem::path& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f)
        throw Error(Stage::Harden, ErrorCode::OutputPath,
                    fmt::format("cannot write {}", path.string()),
                    "check that the folder exists and is writable");
}

// 00-input.txt, then one file per pass that ran, numbered in run order.
void dumpSnapshots(const harden::HardenDiagnostics& d, const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw Error(Stage::Harden, ErrorCode::OutputPath,
                    fmt::format("cannot create {}: {}", dir.string(), ec.message()));
    writeFile(dir / "00-input.txt", d.inputGraphText);
    int n = 0;
    for (const auto& r : d.passes)
        if (!r.skipped)
            writeFile(dir / fmt::format("{:02}-{}.txt", ++n, r.name), r.graphText);
}

void printTable(const harden::HardenDiagnostics& d) {
    fmt::print("{:>3}  {:<42} {:>5} {:>6} {:>8}  {}\n", "#", "pass", "round", "nodes", "ms",
               "counts");
    int n = 0;
    for (const auto& r : d.passes) {
        std::vector<std::string> counts;
        for (const auto& [name, c] : r.counts)
            if (c > 0)
                counts.push_back(fmt::format("{}={}", name, c));
        fmt::print("{:>3}  {:<42} {:>5} {:>6} {:>8.2f}  {}{}\n", r.skipped ? 0 : ++n, r.name,
                   r.round == 0 ? std::string("-") : std::to_string(r.round), r.nodes,
                   r.seconds * 1e3,
                   r.skipped ? "skipped" : fmt::format("{}", fmt::join(counts, " ")),
                   r.limited ? " (rewrite limit)" : "");
        for (const auto& remark : r.remarks)
            fmt::print("     {}\n", remark);
    }
}
} // namespace

Command addHardenCommand(CLI::App& root) {
    auto args = std::make_shared<HardenArgs>();
    CLI::App* app = root.add_subcommand(
        "harden", "run the JIT-only hardening chain and show what each pass folded");
    app->footer("passes, in order:" + passList());
    addModelFlags(*app, args->flags);
    app->add_flag("--no-freeze", args->noFreeze,
                  "do not freeze the module: inline calls with inline_unresolvable_submodules");
    app->add_option("--skip", args->skip, "a pass not to run (repeatable)");
    app->add_option("--step", args->step,
                    "stop after N rewrites in total, to step through the chain");
    app->add_option("--diagnostics", args->diagnostics,
                    "write the diagnostics as JSON to FILE, or to stdout with -");
    app->add_option("--dump-dir", args->dumpDir,
                    "write the graph before the chain and after each pass as NN-passname.txt");
    return {app, [args] {
                ExportOptions options = toOptions(args->flags);
                options.harden.freeze = !args->noFreeze;
                options.harden.skip = {args->skip.begin(), args->skip.end()};
                options.harden.rewriteLimit = args->step;
                options.harden.snapshots = !args->dumpDir.empty();
                CliObserver observer(options.logLevel);
                Session session(&observer);
                session.load(args->flags.model);
                session.harden(options);
                const harden::HardenDiagnostics& d = session.report().harden;
                if (!args->dumpDir.empty())
                    dumpSnapshots(d, args->dumpDir);
                if (args->diagnostics == "-") {
                    fmt::print("{}\n", harden::toJson(d));
                    return 0;
                }
                if (!args->diagnostics.empty())
                    writeFile(args->diagnostics, harden::toJson(d) + "\n");
                printTable(d);
                fmt::print("{}\n", harden::summarize(d));
                return 0;
            }};
}

} // namespace t2n::cli
