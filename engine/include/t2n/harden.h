// Stage harden without LibTorch types: options, the per-pass records and the
// diagnostics record of the JIT-only hardening chain (seed 001), and their
// JSON form. Session::harden() runs the chain; front ends read the records.
#pragma once

#include "t2n/graph_snapshot.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace t2n::harden {

/// One counter of a pass, e.g. {"ifs_folded", 3}.
using Count = std::pair<std::string, int64_t>;

struct HardenOptions {
    /// Try torch::jit::freeze_module first (fallback: inline_unresolvable_submodules).
    bool freeze = true;
    /// Names of passes not to run (see passDescriptions()).
    std::set<std::string> skip;
    /// Stop after this many rewrites in total (`--harden-step N`); none: no limit.
    std::optional<int64_t> rewriteLimit;
    /// Keep the graph text after every pass in the records.
    bool snapshots = true;
    /// The folding passes repeat until a round changes nothing, at most this often.
    int maxRounds = 8;
    /// TEST HOOK, never set by front ends: right after the first run of the
    /// pass of this name, the first graph output is multiplied by 1.5 (with
    /// inserted aten ops), so that semantic bisect has a wrong pass to find.
    std::string perturbAfter;

    bool operator==(const HardenOptions&) const = default;
};

/// What the pass manager records after each pass.
struct PassRecord {
    std::string name;
    /// 0 for passes that run once; 1, 2, ... for the repeating folding group.
    int round = 0;
    /// The pass's declared statistics, in declaration order (zeros included).
    std::vector<Count> counts;
    /// What the pass did or could not do and why ("missed: ...").
    std::vector<std::string> remarks;
    double seconds = 0;
    /// Nodes after the pass, nested blocks included.
    int64_t nodes = 0;
    /// Graph text after the pass (empty when snapshots are off or the pass was skipped).
    std::string graphText;
    /// The graph after the pass as structures (empty when snapshots are off).
    GraphSnapshot snapshot;
    /// Nodes the pass removed, added or rewired (recorded with snapshots on or off).
    std::vector<NodeEvent> events;
    /// The remarks of `remarks` that name a node.
    std::vector<NodeRemark> nodeRemarks;
    bool skipped = false;
    /// The rewrite limit stopped this pass before it was done.
    bool limited = false;

    int64_t total() const;
    int64_t count(const std::string& statistic) const;
};

struct HardenDiagnostics {
    /// freeze_module succeeded (or the graph had nothing left to freeze).
    bool froze = false;
    /// Calls were resolved by inline_unresolvable_submodules (freezing off or failed).
    bool manualInline = false;
    /// Why freezing failed, when it did.
    std::string freezeError;
    /// Rounds of the repeating folding group.
    int rounds = 0;
    std::optional<int64_t> rewriteLimit;
    /// Rewrites made (what a rewrite limit counts).
    int64_t rewrites = 0;
    int64_t nodesBefore = 0;
    int64_t nodesAfter = 0;
    double seconds = 0;
    std::string inputGraphText;
    GraphSnapshot inputSnapshot;
    std::vector<PassRecord> passes;
    std::vector<std::string> warnings;

    /// Each pass's statistics summed over its rounds, in table order.
    std::vector<std::pair<std::string, std::vector<Count>>> totals() const;
    /// One statistic summed over all rounds of a pass.
    int64_t total(const std::string& pass, const std::string& statistic) const;
    /// Every count of every pass summed: zero means the chain changed nothing.
    int64_t total() const;
};

/// One step of a node's history: an event of a pass, or a remark it made about the node.
struct NodeHistoryEntry {
    size_t passIndex = 0; ///< index into HardenDiagnostics::passes
    std::string pass;
    int round = 0;
    bool isRemark = false; ///< a remark, not an event (then `what` is meaningless)
    NodeEventKind what = NodeEventKind::Removed;
    std::string text; ///< the remark, or the event's remark
};
/// Everything the chain did to or said about node `id`, in pass order. A node
/// of the input graph with no entry went through the chain untouched.
std::vector<NodeHistoryEntry> nodeHistory(const HardenDiagnostics& d, StableId id);

/// A pass of the table, without its function (for --help texts and the GUI).
struct PassDescription {
    std::string name;
    std::string summary;
    std::vector<std::pair<std::string, std::string>> statistics; ///< name, meaning
    bool defaultOn = true;
    bool repeats = false;
};
std::vector<PassDescription> passDescriptions();

/// The diagnostics as JSON text (nlohmann_json); graph texts only when asked.
std::string toJson(const HardenDiagnostics& d, bool withGraphs = false, int indent = 2);

/// One line for the export log: "hardening: froze; folded 3 ifs, ...; 136 -> 90 nodes".
std::string summarize(const HardenDiagnostics& d);

} // namespace t2n::harden
