// Runs the pass table on a PassContext: skips what the options say, repeats
// the folding group until a round changes nothing, times every pass, and
// records after each one its counts, remarks, node count and graph text.
// Observers see a const view of the graph before and after each pass (or
// when it fails); passes never print.
#pragma once

#include "harden/pass_table.h"

#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace t2n::harden {

class PassObserver {
public:
    virtual ~PassObserver() = default;
    virtual void beforePass(const PassInfo&, int /*round*/, const torch::jit::Graph&) {}
    virtual void afterPass(const PassInfo&, const PassRecord&, const torch::jit::Graph&) {}
    /// After afterPass(), with the whole context (module and example inputs
    /// included) for observers that run the graph; they must not change it.
    virtual void afterPassContext(const PassInfo&, const PassRecord&, const PassContext&) {}
    virtual void afterPassFailed(const PassInfo&, int /*round*/, const torch::jit::Graph&,
                                 const std::string& /*error*/) {}
};

struct ChainRun {
    std::vector<PassRecord> records;
    int rounds = 0;
    /// The graph before the first pass (empty when snapshots are off).
    GraphSnapshot inputSnapshot;
    /// Stable id of every node of the final graph.
    std::unordered_map<const torch::jit::Node*, StableId> nodeIds;
};

/// Throws t2n::Error (Harden, Usage) for an unknown name in options.skip, and
/// t2n::Error (Harden) naming the pass when one fails.
ChainRun runPasses(PassContext& ctx, const HardenOptions& options,
                   std::span<PassObserver* const> observers = {});

/// Whether the options leave this pass out.
bool skipped(const PassInfo& pass, const HardenOptions& options);

} // namespace t2n::harden
