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

/// Writes the recipe beside the target (or names the --save-recipe file) and
/// prints, as the last line, the command that opens the same export in the studio.
void offerStudio(const ExportRecipe& recipe, const std::string& savedRecipe,
                 const std::string& debugBundle) {
    std::filesystem::path file = savedRecipe;
    if (file.empty()) {
        file = recipeBeside(recipe.output);
        try {
            saveRecipe(file, recipe);
        } catch (const Error&) {
            return; // no room beside the target: the error above is all there is
        }
    }
    // A bundle folder holds the archive and its recipe; a recipe opens anything.
    std::error_code ec;
    const bool bundleFolder =
        !debugBundle.empty() && std::filesystem::is_directory(debugBundle, ec);
    fmt::print(stderr, "t2n: to open this export in the studio: {}\n",
               studioCommand(bundleFolder ? std::filesystem::path(debugBundle) : file));
}

/// Errors the studio can show on the model's graphs (a bad command line or
/// output path cannot be opened there).
bool studioCanShow(ErrorCode code) {
    return code == ErrorCode::ModelFile || code == ErrorCode::Unsupported ||
           code == ErrorCode::ModelRun || code == ErrorCode::InvalidOption;
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

int failedExport(const Error& e, const ExportRecipe& recipe, const std::string& savedRecipe) {
    printError(e);
    if (studioCanShow(e.code()))
        offerStudio(recipe, savedRecipe, {});
    return static_cast<int>(e.code());
}

int failedCheck(const CheckReport& check, Observer& observer, const ExportRecipe& recipe,
                const std::string& savedRecipe) {
    const int code = checkExitCode(check, observer);
    if (code != 0)
        offerStudio(recipe, savedRecipe, check.debugBundle);
    return code;
}

Command addExportCommand(CLI::App& root) {
    auto args = std::make_shared<ExportFlags>();
    CLI::App* app = root.add_subcommand("export", "export a TorchScript model to an NNEF artifact");
    addExportFlags(*app, *args, /*modelRequired=*/false);
    addExportCommandFlags(*app, *args);
    return {app, [args, app] {
                ExportRecipe recipe = resolveRecipe(*args, *app);
                if (recipe.model.empty())
                    throw Error(Stage::Load, ErrorCode::Usage, "no model to export",
                                "give the model file, or a --recipe that names one");
                if (recipe.output.empty())
                    throw Error(Stage::Write, ErrorCode::Usage, "no output path",
                                "give -o OUT.nnef.tgz, or a --recipe that names one");
                if (!args->saveRecipe.empty())
                    saveRecipe(args->saveRecipe, recipe);
                const ExportOptions& options = recipe.options;
                CliObserver observer(options.logLevel);
                Session session(&observer);
                ExportReport report;
                try {
                    session.load(recipe.model);
                    report = session.exportModel(recipe.output, options);
                } catch (const Error& e) {
                    return failedExport(e, recipe, args->saveRecipe);
                }
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
                return failedCheck(report.check, observer, recipe, args->saveRecipe);
            }};
}

} // namespace t2n::cli
