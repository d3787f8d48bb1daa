// t2n: TorchScript to NNEF for tract, from the command line.
#include "commands.h"
#include "process_guard.h"
#include "report/display_text.h"

#include "t2n/error.h"
#include "t2n/large_stack.h"
#include "t2n/runtime_info.h"
#include "t2n/session.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <new>
#include <string>
#include <vector>

void t2n::cli::printError(const t2n::Error& e) {
    // Model strings and paths in the message: no bidi override, escape
    // sequence or invalid byte reaches the terminal as it is.
    fmt::print(stderr, "t2n: error: {}\n", t2n::report::terminalText(e.render()));
    if (e.code() == t2n::ErrorCode::Cancelled && t2n::cli::cancelSignal() != 0)
        fmt::print(stderr, "t2n: stopped by {}\n", t2n::cli::signalName(t2n::cli::cancelSignal()));
}

int main(int argc, char** argv) {
    t2n::cli::guardProcess();
    t2n::installTensorBlockCache();
    t2n::followMachineThreads();
    CLI::App app{"t2n: export TorchScript models to NNEF archives for the tract inference engine"};
    // The runtime line lets a slow machine explain itself (`t2n doctor` says more).
    app.set_version_flag("--version", [] {
        return fmt::format("t2n {}\n{}", t2n::version(), t2n::runtimeInfo().summary());
    });
    app.require_subcommand(1);
    // --threads is the machine's, not the export's (no recipe holds it): a
    // root option that every command takes, before or after its name.
    int threads = 0;
    app.add_option("--threads", threads,
                   "ATen's and OpenBLAS's threads (default: the usable CPUs no other task keeps "
                   "busy; T2N_THREADS=N or OMP_NUM_THREADS=N in the environment otherwise)")
        ->check(CLI::Range(1, 4096));
    app.fallthrough();
    // The man page is written from this help: its EXIT STATUS section is this list.
    app.footer("Exit status:\n"
               "  0                           success (for check: the archive matches)\n"
               "  1                           the check found that the archive computes something "
               "else, or cannot read it back (export: nothing written)\n"
               "  2                           bad command line, --input, values file or recipe\n"
               "  3                           model file (check: or archive) missing or not "
               "TorchScript\n"
               "  4                           unsupported operators (each listed with module "
               "path and source line)\n"
               "  5                           a destination not writable, with a bad suffix, or "
               "one of the inputs\n"
               "  6                           the model fails on the given inputs\n"
               "  7                           inconsistent options (names, dynamic axes)\n"
               "  8                           cancelled (also by SIGINT, SIGTERM, SIGHUP or "
               "SIGQUIT)\n"
               "  10                          internal error (a bug in t2n)\n"
               "A failed run writes nothing: every destination keeps its bytes.");
    std::vector<t2n::cli::Command> commands{
        t2n::cli::addExportCommand(app),  t2n::cli::addCheckCommand(app),
        t2n::cli::addInspectCommand(app), t2n::cli::addHardenCommand(app),
        t2n::cli::addOpsCommand(app),     t2n::cli::addBenchCommand(app),
        t2n::cli::addDoctorCommand(app),  t2n::cli::addTensorsCommand(app),
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
    if (threads > 0)
        t2n::useThreads(threads, fmt::format("--threads {}", threads));
    try {
        for (const auto& c : commands)
            if (c.app->parsed()) {
                // Commands that run a model say so when the BLAS makes that slow.
                static const char* const runsModels[] = {"export", "check", "inspect", "harden",
                                                         "bench"};
                const auto info = t2n::runtimeInfo();
                if (info.blas.kind == t2n::BlasInfo::Kind::Reference &&
                    std::find(std::begin(runsModels), std::end(runsModels), c.app->get_name()) !=
                        std::end(runsModels))
                    fmt::print(stderr, "t2n: warning: {}\n", *t2n::runtimeAdvice(info));
                // Deep graphs recurse deep (LibTorch's passes, some of t2n's):
                // the command runs on a thread with a 512 MiB stack, not on
                // the main thread's 8 MiB (t2n/large_stack.h).
                int rc = 0;
                t2n::runOnLargeStack([&] { rc = c.run(); });
                return rc;
            }
    } catch (const t2n::Error& raised) {
        const t2n::Error e = t2n::cli::cancelledBySignal(raised);
        t2n::cli::printError(e);
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        if (t2n::cli::cancelSignal() != 0) { // what the signal interrupted failed
            t2n::cli::printError(t2n::cli::cancelledBySignal(
                t2n::Error(t2n::Stage::Load, t2n::ErrorCode::Internal, e.what())));
            return static_cast<int>(t2n::ErrorCode::Cancelled);
        }
        const std::string what = e.what();
        if (dynamic_cast<const std::bad_alloc*>(&e) ||
            what.find("can't allocate memory") != std::string::npos) {
            // Not a bug: the machine (or ulimit -v) ran out while the model ran.
            fmt::print(stderr,
                       "t2n: error: out of memory ({})\n  hint: free memory, raise the "
                       "process's limit (ulimit -v) or give smaller --input shapes\n",
                       t2n::report::terminalText(what.substr(0, what.find('\n'))));
            return static_cast<int>(t2n::ErrorCode::ModelRun);
        }
        fmt::print(stderr,
                   "t2n: internal error: {}\n  hint: this is a bug in t2n; please report "
                   "it with the command line and the model\n",
                   t2n::report::terminalText(e.what()));
        return static_cast<int>(t2n::ErrorCode::Internal);
    }
    return 0;
}
