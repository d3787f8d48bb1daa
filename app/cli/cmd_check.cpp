// t2n check ARCHIVE --model MODEL --input ...: compare an NNEF artifact with
// the TorchScript model (reference interpreter, and tract when present).
// Exit 0 on a match, 1 on a mismatch, other codes for errors.
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
    return {app, [args] {
                ExportOptions options = toOptions(args->flags);
                CliObserver observer(options.logLevel);
                Session session(&observer);
                // Opened in the studio, this recipe checks the same archive again.
                const ExportRecipe recipe{args->flags.model, args->archive, options};
                const CheckReport* ran = nullptr;
                try {
                    session.load(args->flags.model);
                    session.translate(options);
                    ran = &session.check(args->archive, options);
                } catch (const Error& e) {
                    return failedExport(e, recipe, {});
                }
                const CheckReport& check = *ran;
                if (!args->report.empty()) {
                    std::string json = session.report().toJson();
                    if (args->report == "-")
                        fmt::print("{}\n", json);
                    else
                        std::ofstream(args->report) << json << "\n";
                }
                if (check.passed)
                    observer.log(LogLevel::Info, fmt::format("{} matches the model at {}",
                                                             args->archive, check.tolerance));
                return failedCheck(check, observer, recipe, {});
            }};
}

} // namespace t2n::cli
