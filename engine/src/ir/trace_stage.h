// Stage trace: the hardened graph run once on the example inputs, recording
// the dtype and shape of every value; with dynamic axes, once more with those
// axes grown, to tell which sizes follow them; then t2n's IR built from the
// recordings and named. The session hands it the example inputs and says how
// to make the probe's.
#pragma once

#include "harden/prepare_graph.h"
#include "t2n/input_spec.h"
#include "t2n/ir.h"
#include "t2n/options.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace t2n::ir {

struct TraceRequest {
    const harden::PreparedModule* prepared = nullptr;
    /// One per forward() argument given, shapes known (values files read).
    std::vector<InputSpec> inputs;
    /// The example inputs made from `inputs`.
    std::vector<at::Tensor> example;
    std::vector<DynamicAxis> dynamicAxes;
    std::vector<std::string> inputNames; ///< --input-names, matched by dynamic axes too
    NamingScheme naming = NamingScheme::NaturalVerbose;
    /// Example inputs for the probe run's specs (the dynamic axes grown).
    std::function<std::vector<at::Tensor>(const std::vector<InputSpec>&)> probeInputs;
    /// Progress between the steps; may throw to cancel.
    std::function<void(double, const std::string&)> step;
    std::function<void(const std::string&)> warn;
};

struct TraceResult {
    Graph graph;
    std::vector<const torch::jit::Value*> jitValues; ///< per IR value id
};

/// Which input axes are dynamic, by input position: axis -> symbol.
std::vector<std::map<int, std::string>> inputSymbols(const TraceRequest& request);

/// The example inputs' specs with every dynamic axis grown by `delta` (the
/// probe run), or with farFactor > 0 to that multiple of its size (the far
/// probe); the same new size wherever a symbol appears; values given for the
/// example size are dropped.
std::vector<InputSpec> probeSpecs(std::vector<InputSpec> specs,
                                  const std::vector<std::map<int, std::string>>& symbols,
                                  int64_t delta, int64_t farFactor = 0);

/// The example inputs' specs with each symbol in `sizes` at that size.
std::vector<InputSpec> probeSpecs(std::vector<InputSpec> specs,
                                  const std::vector<std::map<int, std::string>>& symbols,
                                  const std::map<std::string, int64_t>& sizes);

/// Throws t2n::Error (ModelRun) naming the first failing node when the graph
/// fails on the example inputs.
TraceResult runTrace(const TraceRequest& request);

} // namespace t2n::ir
