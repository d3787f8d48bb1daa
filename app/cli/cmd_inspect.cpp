// t2n inspect MODEL: the TorchScript graph and t2n's IR with module paths,
// or (--inputs) the inputs the engine proposes for the model.
#include "cli_observer.h"
#include "commands.h"
#include "export_flags.h"
#include "proposed_inputs.h"

#include "t2n/coverage.h"
#include "t2n/session.h"

#include <algorithm>
#include <fmt/format.h>
#include <memory>

namespace t2n::cli {

namespace {
struct InspectArgs {
    ExportFlags flags;
    std::vector<std::string> show{"torchscript", "ir"};
    bool coverage = false;
    bool inputs = false;
    bool json = false;
};

// The model's operators t2n cannot translate, with counts and source lines.
int printCoverage(Session& session, const ExportOptions& options) {
    auto missing = uncoveredOperators(session.trace(options));
    if (missing.empty()) {
        fmt::print("coverage: every operator of the model translates for tract\n");
        return 0;
    }
    size_t nodes = 0;
    for (const auto& m : missing)
        nodes += m.nodes.size();
    fmt::print("coverage: {} operator kind(s) not supported for tract ({} node(s))\n",
               missing.size(), nodes);
    for (const auto& m : missing) {
        fmt::print("{} x{}\n", m.kind, m.nodes.size());
        for (const auto& n : m.nodes)
            fmt::print("  {}\n", n.describe());
    }
    return static_cast<int>(ErrorCode::Unsupported);
}
} // namespace

Command addInspectCommand(CLI::App& root) {
    auto args = std::make_shared<InspectArgs>();
    CLI::App* app = root.add_subcommand(
        "inspect", "print the TorchScript graph, the hardened graph, t2n's IR or the NNEF text");
    addExportFlags(*app, args->flags);
    app->add_option("--show", args->show,
                    "what to print: torchscript, hardened, ir, nnef (the IR and NNEF run the "
                    "model: on the --input given, else on inputs t2n proposes)")
        ->capture_default_str()
        ->check(CLI::IsMember({"torchscript", "hardened", "ir", "nnef"}));
    app->add_flag("--coverage", args->coverage,
                  "list the model's operators t2n cannot translate (with counts and source "
                  "lines); exit code 4 (unsupported) when there are any");
    app->add_flag("--inputs", args->inputs,
                  "print only the inputs t2n proposes for forward() (read from the graph, "
                  "confirmed by running the model), each with its reason and the --input flags "
                  "that repeat them; exit code 2 with every candidate tried when none runs");
    app->add_flag("--json", args->json, "with --inputs: the proposal as JSON");
    return {
        app, [args] {
            ExportOptions options = toOptions(args->flags);
            CliObserver observer(options.logLevel);
            Session session(&observer);
            session.load(args->flags.model);
            if (args->inputs) {
                ProposalLimits limits;
                limits.seed = options.seed;
                const InputProposal proposal = session.proposeInputs(limits);
                fmt::print("{}", args->json ? proposal.toJson() + "\n" : proposalText(proposal));
                return 0;
            }
            const bool runs = args->coverage ||
                              std::any_of(args->show.begin(), args->show.end(),
                                          [](const auto& s) { return s == "ir" || s == "nnef"; });
            if (runs)
                proposeMissingInputs(session, options, observer);
            if (args->coverage)
                return printCoverage(session, options);
            for (const auto& what : args->show) {
                if (what == "torchscript") {
                    fmt::print("# TorchScript graph of forward()\n{}\n", session.torchScriptText());
                } else if (what == "hardened") {
                    session.harden(options);
                    fmt::print("# hardened graph\n{}\n", session.hardenedText());
                } else if (what == "ir") {
                    fmt::print("# t2n IR\n{}\n", session.trace(options).print());
                } else if (what == "nnef") {
                    session.translate(options);
                    fmt::print("# graph.nnef\n{}\n", session.nnefText());
                }
            }
            return 0;
        }};
}

} // namespace t2n::cli
