// t2n check ARCHIVE --model MODEL --input ...: compare an NNEF artifact with
// the TorchScript model (reference interpreter, and tract when present).
// Exit 0 on a match, 1 when the archive cannot be read back, is not a valid
// NNEF graph or computes something else; the README lists the other codes.
#include "cli_observer.h"
#include "commands.h"
#include "export_flags.h"
#include "process_guard.h"
#include "proposed_inputs.h"
#include "run_report.h"

#include "t2n/error.h"
#include "t2n/outputs.h"
#include "t2n/recipe.h"
#include "t2n/session.h"

#include <fmt/format.h>
#include <memory>

namespace t2n::cli {

namespace {
struct CheckArgs {
    ExportFlags flags;
    std::string archive;
    std::string report;
};
} // namespace

Command addCheckCommand(CLI::App& root) {
    auto args = std::make_shared<CheckArgs>();
    CLI::App* app = root.add_subcommand(
        "check", "compare an NNEF artifact with the TorchScript model it was exported from");
    app->add_option("archive", args->archive, "the artifact: folder, .nnef.tar or .nnef.tgz")
        ->required();
    app->add_option("-m,--model", args->flags.model, "the TorchScript model")->required();
    addInputFlags(*app, args->flags);
    app->footer("Give the same naming and name options as the export, so that NNEF identifiers "
                "map back to TorchScript nodes for the divergence report.");
    addExportOptionFlags(*app, args->flags);
    addCheckFlags(*app, args->flags);
    app->add_option("--report", args->report, "write the JSON report to FILE ('-' for stdout)");
    addReportHtmlFlag(*app, args->flags);
    return {app, [args] {
                ExportOptions options = toOptions(args->flags);
                std::error_code ec;
                if (!std::filesystem::exists(args->archive, ec))
                    throw Error(Stage::Check, ErrorCode::ModelFile,
                                fmt::format("the archive '{}' does not exist", args->archive),
                                "give the folder, .nnef.tar or .nnef.tgz to check");
                // Opened in the studio, this recipe checks the same archive again.
                ExportRecipe recipe{args->flags.model, args->archive, options, {}};
                std::vector<std::filesystem::path> taken = filesRead(recipe, {});
                taken.emplace_back(args->archive);
                validateCheck(options, taken);
                if (!options.debugBundle.empty())
                    taken.emplace_back(options.debugBundle);
                checkReportDestinations(args->report, args->flags.reportHtml, taken);
                if (args->report == "-" || args->flags.reportHtml == "-")
                    keepStdoutForReport();
                CliObserver observer(options.logLevel);
                Session session(&observer);
                const RunReport run{&session, args->flags.reportHtml, "t2n check"};
                const CheckReport* ran = nullptr;
                try {
                    session.load(args->flags.model);
                    proposeMissingInputs(session, options, observer);
                    recipe.options.inputs = options.inputs;
                    // Translates unless the archive's manifest lies beside it.
                    ran = &session.check(args->archive, options);
                } catch (const Error& e) {
                    return failedExport(e, recipe, run);
                }
                const CheckReport& check = *ran;
                if (!args->report.empty()) {
                    const std::string json = session.report().toJson();
                    if (args->report == "-") {
                        printReport(json);
                    } else {
                        PendingOutputs pending;
                        pending.addText(args->report, json + "\n", Stage::Report, "report");
                        pending.publish();
                    }
                }
                if (check.passed) {
                    PendingOutputs pending;
                    addHtmlReport(run, recipe, pending);
                    pending.publish();
                    observer.log(LogLevel::Info, fmt::format("{} matches the model at {}",
                                                             args->archive, check.tolerance));
                }
                return failedCheck(check, observer, recipe, run);
            }};
}

} // namespace t2n::cli
