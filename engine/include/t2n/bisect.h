// Semantic bisect of the hardening chain (LLVM's -opt-bisect-limit, for
// meaning): the example inputs run through the graph after every pass and
// each pass's outputs are compared with the unhardened module's, so that the
// first pass that changed the numbers is named without a manual search.
#pragma once

#include <string>
#include <vector>

namespace t2n {

struct BisectOutput {
    std::string name;      ///< output_0, ... (or the export's output names)
    double maxAbsDiff = 0; ///< against the unhardened module's output
    bool changed = false;  ///< beyond the check tolerance (or shape / dtype differ)
    std::string note;      ///< shape or dtype mismatch, ...
};

/// One pass that ran (skipped passes are not listed).
struct BisectStep {
    std::string pass;
    int round = 0;
    std::vector<BisectOutput> outputs;
    bool changed = false; ///< any output changed, or the graph no longer runs
    std::string error;    ///< why the graph after the pass did not run, if it did not
};

struct BisectReport {
    std::string tolerance; ///< the check tolerance the steps were judged at
    std::vector<BisectStep> steps;
    /// Index into steps of the first pass that changed the numbers; -1: none did.
    int firstChanged = -1;

    const BisectStep* first() const {
        return firstChanged < 0 ? nullptr : &steps.at(static_cast<size_t>(firstChanged));
    }
    /// "fold_constant_ifs (round 1) changed output_0 by 0.5" or "no pass changed the outputs".
    std::string summary() const;
};

} // namespace t2n
