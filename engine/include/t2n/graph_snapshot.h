// A TorchScript graph as plain structures, without LibTorch types: what the
// studio lays out and diffs. Every node carries a stable id given when the
// hardening chain starts and kept through every pass (freezing included),
// so that a node can be followed from the loaded graph to the hardened one
// and its history told ("removed by fold_constant_ifs: branch 0 kept").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::harden {

/// Stable node id; -1 means none.
using StableId = int64_t;
/// Edge endpoints that are not nodes.
inline constexpr StableId kGraphInput = -1;
inline constexpr StableId kGraphOutput = -2;

struct SnapshotNode {
    StableId id = -1;
    std::string kind; ///< aten::conv2d, prim::If, ...
    /// The node as TorchScript prints it, on one line, without its blocks.
    std::string text;
    std::vector<std::string> inputs;  ///< value debug names (no '%')
    std::vector<std::string> outputs; ///< value debug names (no '%')
    /// Output types as TorchScript prints them ("Float(1, 3, 8, 8, ...)", "int").
    std::vector<std::string> outputTypes;
    /// "encoder.layers.0": the inlined call stack, or a call's receiver path.
    std::string modulePath;
    /// "model.py:42", or "" when the archive recorded no location.
    std::string source;
    /// Enclosing node (prim::If, prim::Loop) and its block, for nested nodes.
    StableId parent = -1;
    int block = -1;
    /// 1-based line of the node in the graph's TorchScript printout (the
    /// records' graphText, Session::hardenedText()); 0 when unknown.
    int line = 0;
};

/// One value flowing from a node (or a graph input, or an enclosing node's
/// block parameter) to a node (or to kGraphOutput, or out of a block to its
/// enclosing node).
struct SnapshotEdge {
    StableId from = kGraphInput;
    StableId to = kGraphOutput;
    std::string value;
};

struct GraphSnapshot {
    std::vector<SnapshotNode> nodes; ///< graph order, outer before inner
    std::vector<SnapshotEdge> edges;
    std::vector<std::string> inputs; ///< graph inputs (self first when present)
    std::vector<std::string> outputs;

    bool empty() const { return nodes.empty() && inputs.empty(); }
    /// Null when the id is not in this snapshot.
    const SnapshotNode* find(StableId id) const;
};

enum class NodeEventKind { Removed, Added, Rewired };
std::string_view nodeEventName(NodeEventKind k);

/// What one pass did to one node.
struct NodeEvent {
    StableId node = -1;
    NodeEventKind what = NodeEventKind::Removed;
    /// The pass's remark about this node, if it made one ("branch 0 kept: ...").
    std::string remark;
};

/// A remark a pass attached to a node ("missed: condition depends on input x").
struct NodeRemark {
    StableId node = -1;
    std::string text;
};

} // namespace t2n::harden
