// The JIT-only hardening chain of seed 001 (harden_jit_for_export): freeze
// the module (or inline what freezing could not), then fold what the example
// inputs decide: shape guards, constant branches, tuple round trips, `.data`,
// input checks, and the branches the example takes. Every model goes
// through it, since in C++ every model is TorchScript-only.
#pragma once

#include "harden/pass_manager.h"
#include "harden/prepare_graph.h"

#include <span>
#include <vector>

namespace t2n::harden {

/// Hardens a clone of `model` (the model itself is left as it is). The
/// example inputs are forward()'s arguments after self, as the trace stage
/// will use them; without them the passes that run the graph skip, with a
/// remark. Throws t2n::Error (Harden) naming the pass that failed.
PreparedModule hardenForExport(const torch::jit::Module& model,
                               const std::vector<at::Tensor>& exampleInputs,
                               const HardenOptions& options = {},
                               std::span<PassObserver* const> observers = {});

} // namespace t2n::harden
