#include "proposed_inputs.h"

#include "t2n/session.h"

#include <fmt/format.h>

namespace t2n::cli {

namespace {
std::string ranText(const InputProposal& p) {
    return p.attempts.size() == 1
               ? "confirmed by a run of forward()"
               : fmt::format("confirmed by a run of forward(), after {} candidate(s) it refused",
                             p.attempts.size() - 1);
}
} // namespace

std::string proposalText(const InputProposal& proposal) {
    std::string out;
    for (const auto& i : proposal.inputs)
        out += fmt::format("{}\n    {}\n", i.spec.toString(), i.reason);
    for (const auto& d : proposal.defaulted)
        out += fmt::format("{}: left to its default\n", d);
    out += fmt::format("({})\n", ranText(proposal));
    for (const auto& a : proposal.attempts)
        if (!a.ran) {
            std::string specs;
            for (const auto& s : a.specs)
                specs += (specs.empty() ? "" : " ") + s.toString();
            out += fmt::format("  refused {}: {}\n", specs, a.error);
        }
    out += fmt::format("flags: {}\n", proposal.flags());
    return out;
}

void proposeMissingInputs(Session& session, ExportOptions& options, Observer& observer) {
    if (!options.inputs.empty())
        return;
    ProposalLimits limits;
    limits.seed = options.seed;
    const InputProposal proposal = session.proposeInputs(limits);
    observer.log(
        LogLevel::Info,
        fmt::format("no --input given: inputs inferred from the model ({})", ranText(proposal)));
    for (const auto& i : proposal.inputs)
        observer.log(LogLevel::Info, fmt::format("  {}: {}", i.spec.toString(), i.reason));
    for (const auto& d : proposal.defaulted)
        observer.log(LogLevel::Info, fmt::format("  {}: left to its default", d));
    observer.log(LogLevel::Info, "to repeat or change them: " + proposal.flags());
    options.inputs = proposal.specs();
}

} // namespace t2n::cli
