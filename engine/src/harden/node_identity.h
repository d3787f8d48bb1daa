// Stable node ids through the hardening chain. Node pointers are not
// identities: a pass may destroy a node and the allocator hand its address to
// the next one, and freeze_module replaces the whole graph with a clone. The
// tracker therefore checks kind and the first output's Value::unique() (which
// only grows within a graph) before trusting a pointer, and re-matches a
// replaced graph by kind, source range, module path and output names.
#pragma once

#include "t2n/graph_snapshot.h"

#include <torch/script.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace t2n::harden {

class NodeIdentity {
public:
    /// Gives every node of `graph` (nested blocks included) a fresh id.
    void start(const torch::jit::Graph& graph);
    /// Carries the ids over to `graph` as a pass left it (the same graph
    /// edited, or a replacement) and says which nodes were removed, added or
    /// rewired (inputs from other nodes, or moved to another block).
    std::vector<NodeEvent> update(const torch::jit::Graph& graph);

    /// -1 for a node the tracker has not seen (one a running pass just made).
    StableId idOf(const torch::jit::Node* node) const;
    const std::unordered_map<const torch::jit::Node*, StableId>& ids() const { return ids_; }

private:
    struct Entry {
        StableId id = -1;
        c10::Symbol kind;
        size_t firstOutput = 0;          ///< Value::unique() of output 0, or SIZE_MAX
        std::string matchKey;            ///< kind, source range, module path, output names
        std::string looseKey;            ///< the same without output names
        std::vector<std::string> inputs; ///< where each input comes from, in ids
        StableId parent = -1;
        int block = -1;
    };
    std::vector<Entry> assign(const torch::jit::Graph& graph, bool replaced);
    void describeInputs(std::vector<Entry>& entries, const std::vector<torch::jit::Node*>& nodes);

    const torch::jit::Graph* graph_ = nullptr;
    std::unordered_map<const torch::jit::Node*, StableId> ids_;
    std::unordered_map<const torch::jit::Node*, size_t> slot_; ///< index into entries_
    std::vector<Entry> entries_;                               ///< graph order
    StableId next_ = 0;
};

/// The graph as plain structures, with the tracker's ids.
GraphSnapshot snapshotOf(const torch::jit::Graph& graph, const NodeIdentity& identity);

} // namespace t2n::harden
