#include "session/selection_index.h"

#include <algorithm>
#include <unordered_map>

namespace t2n::ui {

namespace {
// Grows `table` (indexed by line) so that `line` fits, filling with -1.
void put(std::vector<int>& table, int line, int node) {
    if (line <= 0)
        return;
    if (table.size() <= static_cast<size_t>(line))
        table.resize(static_cast<size_t>(line) + 1, -1);
    if (table[static_cast<size_t>(line)] < 0) // the first node printed there
        table[static_cast<size_t>(line)] = node;
}
} // namespace

SelectionIndex::SelectionIndex(const ir::Graph& graph, const std::vector<int>& irNodeLines,
                               const harden::GraphSnapshot* hardened,
                               const Provenance& provenance) {
    const size_t n = graph.nodes.size();
    nodeIrLine_.assign(n, 0);
    nodeTorchLine_.assign(n, 0);
    nodeNnefLines_.assign(n, {});

    for (size_t i = 0; i < n && i < irNodeLines.size(); ++i) {
        nodeIrLine_[i] = irNodeLines[i];
        put(irLineNodes_, irNodeLines[i], static_cast<int>(i));
    }

    if (hardened) {
        std::unordered_map<harden::StableId, int> lineOf;
        for (const auto& s : hardened->nodes)
            lineOf.emplace(s.id, s.line);
        for (const auto& node : graph.nodes) {
            const auto it = lineOf.find(node.torchNode);
            if (node.torchNode < 0 || it == lineOf.end())
                continue;
            nodeTorchLine_[static_cast<size_t>(node.id)] = it->second;
            put(torchLineNodes_, it->second, node.id);
        }
    }

    for (const auto& pl : provenance.lines) {
        if (pl.irNode < 0 || static_cast<size_t>(pl.irNode) >= n || pl.line <= 0)
            continue;
        put(nnefLineNodes_, pl.line, pl.irNode);
        nodeNnefLines_[static_cast<size_t>(pl.irNode)].push_back(pl.line);
    }
}

std::vector<int> SelectionIndex::nnefLinesOf(int node) const {
    if (node < 0 || static_cast<size_t>(node) >= nodeNnefLines_.size())
        return {};
    return nodeNnefLines_[static_cast<size_t>(node)];
}

int SelectionIndex::at(const std::vector<int>& table, int i, int none) {
    return i >= 0 && static_cast<size_t>(i) < table.size() ? table[static_cast<size_t>(i)] : none;
}

} // namespace t2n::ui
