// A command run without --input: the engine proposes the inputs
// (Session::proposeInputs), and the command says what it chose and the flags
// that repeat or change it.
#pragma once

#include "t2n/input_proposal.h"
#include "t2n/options.h"

namespace t2n {
class Observer;
class Session;
} // namespace t2n

namespace t2n::cli {

/// When `options` has no inputs: proposes them, logs the proposal through
/// `observer` (each input with its reason, then the --input flags) and sets
/// options.inputs. Throws t2n::Error (Load, Usage) listing the attempts when
/// no candidate runs.
void proposeMissingInputs(Session& session, ExportOptions& options, Observer& observer);

/// The proposal as `t2n inspect --inputs` prints it.
std::string proposalText(const InputProposal& proposal);

} // namespace t2n::cli
