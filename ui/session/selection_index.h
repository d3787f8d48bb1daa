// Which line of each text view shows which IR node, and back: the tables
// behind the studio's synced selection. Built from what the engine says about
// its own printouts (the IR listing's node lines, the hardened TorchScript
// snapshot's node lines, graph.nnef's provenance), never by reading the text.
#pragma once

#include "t2n/graph_snapshot.h"
#include "t2n/ir.h"
#include "t2n/provenance.h"

#include <vector>

namespace t2n::ui {

class SelectionIndex {
public:
    SelectionIndex() = default;
    /// `irNodeLines` is what graph.print() gave for each node; `hardened` the
    /// snapshot of the graph the TorchScript view shows (null: none).
    SelectionIndex(const ir::Graph& graph, const std::vector<int>& irNodeLines,
                   const harden::GraphSnapshot* hardened, const Provenance& provenance);

    /// IR node shown on a 1-based line of each text; -1 for none.
    int irNodeAtIrLine(int line) const { return at(irLineNodes_, line); }
    int irNodeAtTorchLine(int line) const { return at(torchLineNodes_, line); }
    int irNodeAtNnefLine(int line) const { return at(nnefLineNodes_, line); }

    /// Lines showing IR node `node` in each text (0 / empty: none).
    int irLineOf(int node) const { return at(nodeIrLine_, node, 0); }
    int torchLineOf(int node) const { return at(nodeTorchLine_, node, 0); }
    std::vector<int> nnefLinesOf(int node) const;

private:
    static int at(const std::vector<int>& table, int i, int none = -1);

    std::vector<int> irLineNodes_, torchLineNodes_, nnefLineNodes_; ///< by line
    std::vector<int> nodeIrLine_, nodeTorchLine_;                   ///< by IR node
    std::vector<std::vector<int>> nodeNnefLines_;                   ///< by IR node
};

} // namespace t2n::ui
