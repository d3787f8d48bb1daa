// t2n: TorchScript to NNEF for tract, from the command line.
#include "commands.h"
#include "process_guard.h"

#include "t2n/error.h"
#include "t2n/session.h"

#include <fmt/format.h>

#include <vector>

int main(int argc, char** argv) {
    t2n::cli::guardProcess();
    CLI::App app{"t2n: export TorchScript models to NNEF archives for the tract inference engine"};
    app.set_version_flag("--version", std::string("t2n ") + std::string(t2n::version()));
    app.require_subcommand(1);
    std::vector<t2n::cli::Command> commands{
        t2n::cli::addExportCommand(app),  t2n::cli::addCheckCommand(app),
        t2n::cli::addInspectCommand(app), t2n::cli::addHardenCommand(app),
        t2n::cli::addOpsCommand(app),     t2n::cli::addBenchCommand(app),
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // Like every other error: the stage (options are read by the load
        // stage), the message, a hint.
        fmt::print(stderr, "t2n: error: [load] {}\n  hint: see t2n {}--help\n", e.what(),
                   app.get_subcommands().empty() ? std::string()
                                                 : app.get_subcommands().front()->get_name() + " ");
        return static_cast<int>(t2n::ErrorCode::Usage);
    }
    try {
        for (const auto& c : commands)
            if (c.app->parsed())
                return c.run();
    } catch (const t2n::Error& e) {
        fmt::print(stderr, "t2n: error: {}\n", e.render());
        if (e.code() == t2n::ErrorCode::Cancelled && t2n::cli::cancelSignal() != 0)
            fmt::print(stderr, "t2n: stopped by {}\n",
                       t2n::cli::signalName(t2n::cli::cancelSignal()));
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        fmt::print(stderr,
                   "t2n: internal error: {}\n  hint: this is a bug in t2n; please report "
                   "it with the command line and the model\n",
                   e.what());
        return static_cast<int>(t2n::ErrorCode::Internal);
    }
    return 0;
}
