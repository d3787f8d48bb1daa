// Semantic bisect: the hardening chain with an observer that runs the graph
// on the example inputs after every pass and compares it with the module
// before hardening (see t2n/bisect.h).
#pragma once

#include "check/compare.h"
#include "t2n/bisect.h"
#include "t2n/harden.h"

#include <torch/script.h>

#include <string>
#include <vector>

namespace t2n::check {

/// Hardens a clone of `model` with `options` (snapshots off) and returns the
/// per-pass comparison. Throws t2n::Error (Harden, ModelRun) when the
/// unhardened module itself fails on the inputs.
BisectReport bisectHardening(const torch::jit::Module& model, const std::vector<at::Tensor>& inputs,
                             harden::HardenOptions options, const Tolerance& tolerance,
                             const std::vector<std::string>& outputNames = {});

} // namespace t2n::check
