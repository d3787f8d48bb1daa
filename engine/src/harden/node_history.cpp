// Torch-free reading of the snapshots and events the chain recorded.
#include "t2n/harden.h"

namespace t2n::harden {

const SnapshotNode* GraphSnapshot::find(StableId id) const {
    for (const auto& n : nodes)
        if (n.id == id)
            return &n;
    return nullptr;
}

std::string_view nodeEventName(NodeEventKind k) {
    switch (k) {
    case NodeEventKind::Removed:
        return "removed";
    case NodeEventKind::Added:
        return "added";
    case NodeEventKind::Rewired:
        return "rewired";
    }
    return "?";
}

std::vector<NodeHistoryEntry> nodeHistory(const HardenDiagnostics& d, StableId id) {
    std::vector<NodeHistoryEntry> out;
    for (size_t i = 0; i < d.passes.size(); ++i) {
        const PassRecord& r = d.passes[i];
        for (const auto& rem : r.nodeRemarks) {
            bool told = false; // already the remark of this node's event
            for (const auto& e : r.events)
                told = told || (e.node == id && e.remark == rem.text);
            if (rem.node == id && !told)
                out.push_back({i, r.name, r.round, true, NodeEventKind::Removed, rem.text});
        }
        for (const auto& e : r.events)
            if (e.node == id)
                out.push_back({i, r.name, r.round, false, e.what, e.remark});
    }
    return out;
}

} // namespace t2n::harden
