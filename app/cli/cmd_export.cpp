// t2n export MODEL [--input ...] -o OUT: every stage, one artifact, a report,
// under the write protocol of t2n/outputs.h: a failed run writes nothing.
#include "cli_observer.h"
#include "commands.h"
#include "export_flags.h"
#include "process_guard.h"
#include "proposed_inputs.h"
#include "run_report.h"

#include "report/display_text.h"

#include "t2n/error.h"
#include "t2n/outputs.h"
#include "t2n/recipe.h"
#include "t2n/session.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <span>
#include <tuple>

namespace t2n::cli {

// The report on standard output goes out before anything is put in place:
// a closed or full stdout fails the export like any other destination.
void printReport(const std::string& json) {
    const std::string text = json + "\n";
    std::fflush(stdout);
    if (const int err = writeAll(reportDescriptor(), std::as_bytes(std::span(text))); err != 0)
        throw Error(
            Stage::Report, ErrorCode::OutputPath,
            fmt::format("cannot write the report to standard output: {}", std::strerror(err)),
            "nothing was written; give --report FILE, or a working standard output");
}

ExportRecipe withAbsolutePaths(ExportRecipe recipe) {
    std::error_code ec;
    auto absolute = [&](const std::filesystem::path& p) {
        return p.empty() ? p : std::filesystem::absolute(p, ec).lexically_normal();
    };
    recipe.model = absolute(recipe.model);
    recipe.output = absolute(recipe.output);
    for (auto& input : recipe.options.inputs)
        input.valuesFile = absolute(input.valuesFile).string();
    recipe.options.debugBundle = absolute(recipe.options.debugBundle).string();
    return recipe;
}

namespace {

// Every destination of the run, checked before any work; none may be a
// file the run reads or another destination.
void checkDestinations(const ExportFlags& a, const ExportRecipe& r) {
    std::vector<std::filesystem::path> taken = filesRead(r, a.recipe);
    taken.push_back(validateExport(r.output, r.options, taken).path);
    if (r.options.check && !r.options.debugBundle.empty())
        taken.emplace_back(r.options.debugBundle);
    if (!a.saveRecipe.empty()) {
        checkTextDestination(a.saveRecipe, Stage::Write, "recipe", taken);
        taken.emplace_back(a.saveRecipe);
    }
    checkReportDestinations(a.report, a.reportHtml, taken);
}

/// Writes the recipe into t2n's state folder (never beside the target: a
/// failed run writes nothing among the user's files) and prints, as the last
/// line, the command that opens the same export in the studio.
void offerStudio(const ExportRecipe& recipe, const std::string& debugBundle) {
    // A bundle folder holds the archive and its recipe; a recipe opens anything.
    std::error_code ec;
    if (!debugBundle.empty() && std::filesystem::is_directory(debugBundle, ec)) {
        fmt::print(stderr, "t2n: to open this export in the studio: {}\n",
                   report::terminalText(studioCommand(debugBundle)));
        return;
    }
    const std::filesystem::path file = failedRecipePath(recipe.output);
    if (file.empty())
        return;
    try {
        std::filesystem::create_directories(file.parent_path(), ec);
        saveRecipe(file, withAbsolutePaths(recipe));
    } catch (const Error&) {
        return; // no room for it: the error above is all there is
    }
    fmt::print(stderr, "t2n: to open this export in the studio: {}\n",
               report::terminalText(studioCommand(file)));
}

/// Errors the studio can show on the model's graphs (a bad command line or
/// output path cannot be opened there).
bool studioCanShow(ErrorCode code) {
    return code == ErrorCode::ModelFile || code == ErrorCode::Unsupported ||
           code == ErrorCode::ModelRun || code == ErrorCode::InvalidOption;
}
} // namespace

int checkExitCode(const CheckReport& check, Observer& observer, bool exporting) {
    if (!check.ran || check.passed)
        return 0;
    const char* verdict = !check.readable ? "the archive could not be read back (see above)"
                          : !check.structureProblems.empty() && check.outputs.empty()
                              ? "the archive is not a valid NNEF graph (see above)"
                              : "the archive does not compute what the model computes (see above)";
    std::string text = verdict;
    if (exporting)
        text += "; nothing was written";
    if (check.debugBundle.empty())
        text += "; --debug-bundle PATH collects what is needed to reproduce it";
    else
        text += fmt::format("; the debug bundle {} holds the archive", check.debugBundle);
    observer.log(LogLevel::Error, text);
    return 1;
}

void checkReportDestinations(const std::string& report, const std::string& reportHtml,
                             std::vector<std::filesystem::path>& taken) {
    for (const auto& [path, what, flag] :
         {std::tuple{report, "report", "--report"},
          std::tuple{reportHtml, "HTML report", "--report-html"}}) {
        if (path == "-" && stdoutWasClosed())
            throw Error(Stage::Report, ErrorCode::OutputPath,
                        fmt::format("cannot write the {} to standard output: it is closed", what),
                        fmt::format("give {} FILE, or run t2n with a standard output", flag));
        if (!path.empty() && path != "-") {
            checkTextDestination(path, Stage::Report, what, taken);
            taken.emplace_back(path);
        }
    }
    if (report == "-" && reportHtml == "-")
        throw Error(Stage::Report, ErrorCode::Usage,
                    "--report and --report-html cannot both go to standard output",
                    "give one of them a FILE");
}

int failedExport(const Error& raised, const ExportRecipe& recipe, const RunReport& run) {
    const Error e = cancelledBySignal(raised);
    printError(e);
    // A request refused before the work, or stopped on request, has nothing to report.
    if (e.code() != ErrorCode::Usage && e.code() != ErrorCode::OutputPath &&
        e.code() != ErrorCode::Cancelled)
        reportFailedRun(run, recipe, &e);
    if (studioCanShow(e.code()))
        offerStudio(recipe, {});
    return static_cast<int>(e.code());
}

int failedCheck(const CheckReport& check, Observer& observer, const ExportRecipe& recipe,
                const RunReport& run, bool exporting) {
    const int code = checkExitCode(check, observer, exporting);
    if (code != 0) {
        reportFailedRun(run, recipe, nullptr);
        offerStudio(recipe, check.debugBundle);
    }
    return code;
}

Command addExportCommand(CLI::App& root) {
    auto args = std::make_shared<ExportFlags>();
    CLI::App* app = root.add_subcommand("export", "export a TorchScript model to an NNEF artifact");
    addExportFlags(*app, *args, /*modelRequired=*/false);
    addExportCommandFlags(*app, *args);
    app->footer("When the export fails (and the studio can show why), the recipe that reopens "
                "it in t2n-studio is written under t2n's state folder ($XDG_STATE_HOME/t2n/failed, "
                "else ~/.local/state/t2n/failed), never beside the target: a failed run writes "
                "nothing among your files but the --debug-bundle and --report-html asked for. "
                "The last line printed is the command that opens it.");
    return {
        app, [args, app] {
            ExportRecipe recipe = resolveRecipe(*args, *app);
            if (recipe.model.empty())
                throw Error(Stage::Load, ErrorCode::Usage, "no model to export",
                            "give the model file, or a --recipe that names one");
            if (recipe.output.empty())
                throw Error(Stage::Write, ErrorCode::Usage, "no output path",
                            "give -o OUT.nnef.tgz, or a --recipe that names one");
            const ExportOptions& options = recipe.options;
            checkDestinations(*args, recipe);
            // What the model prints goes to stderr: stdout holds the report alone.
            if (args->report == "-" || args->reportHtml == "-")
                keepStdoutForReport();
            CliObserver observer(options.logLevel);
            Session session(&observer);
            // The artifact, the recipe and the report are put in place
            // together, and only when the export succeeded.
            PendingOutputs pending;
            ExportReport report;
            const RunReport run{&session, args->reportHtml, "t2n export"};
            try {
                session.load(recipe.model);
                proposeMissingInputs(session, recipe.options, observer);
                report = session.exportModel(recipe.output, options, pending);
            } catch (const Error& e) {
                return failedExport(e, recipe, run);
            }
            if (!report.written)
                return failedCheck(report.check, observer, recipe, run, /*exporting=*/true);
            if (!args->saveRecipe.empty())
                pending.addText(args->saveRecipe, toJson(recipe) + "\n", Stage::Write, "recipe");
            if (!args->report.empty() && args->report != "-")
                pending.addText(args->report, report.toJson() + "\n", Stage::Report, "report");
            addHtmlReport(run, recipe, pending);
            if (args->report == "-")
                printReport(report.toJson());
            if (observer.cancelRequested())
                throw Error(Stage::Write, ErrorCode::Cancelled, "export cancelled",
                            "nothing was written");
            pending.publish();
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
                                     artifactFormName(report.artifact.form), report.bytesWritten,
                                     ops, report.variables.size(), report.warnings.size(), total));
            return 0;
        }};
}

} // namespace t2n::cli
