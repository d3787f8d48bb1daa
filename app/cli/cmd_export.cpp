// t2n export MODEL --input ... -o OUT: every stage, one artifact, a report.
#include "cli_observer.h"
#include "commands.h"
#include "export_flags.h"

#include "t2n/error.h"
#include "t2n/recipe.h"
#include "t2n/session.h"

#include <fmt/format.h>
#include <fstream>
#include <memory>

namespace t2n::cli {

namespace {
struct ExportArgs {
    ExportFlags flags;
    std::string output;
    std::string report;
    std::string recipe;
    std::string saveRecipe;
};

// The recipe (when given) with the command line's flags over it.
ExportRecipe resolveRecipe(const ExportArgs& a, const CLI::App& app) {
    ExportRecipe r;
    if (!a.recipe.empty())
        r = loadRecipe(a.recipe);
    r.options = applyGivenFlags(a.flags, r.options, app);
    if (!a.flags.model.empty())
        r.model = a.flags.model;
    if (!a.output.empty())
        r.output = a.output;
    if (r.model.empty())
        throw Error(Stage::Load, ErrorCode::Usage, "no model to export",
                    "give the model file, or a --recipe that names one");
    if (r.output.empty())
        throw Error(Stage::Write, ErrorCode::Usage, "no output path",
                    "give -o OUT.nnef.tgz, or a --recipe that names one");
    return r;
}

void writeReport(const std::string& path, const std::string& json) {
    if (path == "-") {
        fmt::print("{}\n", json);
        return;
    }
    std::ofstream out(path);
    out << json << "\n";
    if (!out)
        throw Error(Stage::Report, ErrorCode::OutputPath,
                    fmt::format("cannot write the report to '{}'", path),
                    "check that the folder exists and is writable");
}
} // namespace

int checkExitCode(const CheckReport& check, Observer& observer) {
    if (!check.ran || check.passed)
        return 0;
    observer.log(LogLevel::Error,
                 check.debugBundle.empty()
                     ? "the archive does not compute what the model computes (see above); "
                       "--debug-bundle PATH collects what is needed to reproduce it"
                     : "the archive does not compute what the model computes (see above)");
    return 1;
}

Command addExportCommand(CLI::App& root) {
    auto args = std::make_shared<ExportArgs>();
    CLI::App* app = root.add_subcommand("export", "export a TorchScript model to an NNEF artifact");
    addExportFlags(*app, args->flags, /*modelRequired=*/false);
    app->add_option("-o,--output", args->output,
                    "artifact path ending in .nnef (folder), .nnef.tar or .nnef.tgz");
    app->add_option("--recipe", args->recipe,
                    "export recipe (JSON) giving the model, output and options; flags on the "
                    "command line override its values");
    app->add_option("--save-recipe", args->saveRecipe,
                    "write the export's recipe (model, output, every option) to FILE first");
    app->add_option("--report", args->report, "write the JSON report to FILE ('-' for stdout)");
    app->add_flag("--no-check", args->flags.noCheck,
                  "do not check the archive against the model (reference interpreter, tract)");
    return {app, [args, app] {
                ExportRecipe recipe = resolveRecipe(*args, *app);
                if (!args->saveRecipe.empty())
                    saveRecipe(args->saveRecipe, recipe);
                const ExportOptions& options = recipe.options;
                CliObserver observer(options.logLevel);
                Session session(&observer);
                session.load(recipe.model);
                ExportReport report = session.exportModel(recipe.output, options);
                if (!args->report.empty())
                    writeReport(args->report, report.toJson());
                int ops = 0;
                for (const auto& [k, n] : report.nnefOps)
                    ops += n;
                double total = 0;
                for (const auto& t : report.timings)
                    total += t.seconds;
                observer.log(LogLevel::Info,
                             fmt::format("wrote {} ({}, {} bytes, {} NNEF operations, {} "
                                         "variables, {} warning(s)) in {:.2f} s",
                                         report.artifact.path.string(),
                                         artifactFormName(report.artifact.form),
                                         report.bytesWritten, ops, report.variables.size(),
                                         report.warnings.size(), total));
                return checkExitCode(report.check, observer);
            }};
}

} // namespace t2n::cli
