// Where each line of graph.nnef comes from, for selection synced across the
// studio's views: the NNEF identifiers a line defines and reads, its operation, the IR
// node that emitted it and that node's stable TorchScript node id (the id of
// the hardening snapshots, t2n/graph_snapshot.h); and the inverse lookups.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace t2n {

struct ProvenanceLine {
    int line = 0; ///< 1-based line of graph.nnef
    std::vector<std::string> identifiers;
    std::string op;         ///< conv, external, variable, ...
    int irNode = -1;        ///< ir::Node id; -1 for graph plumbing (inputs, variables)
    int64_t torchNode = -1; ///< stable TorchScript node id; -1 when none
    /// Identifiers the operation reads (positional and named arguments,
    /// inside arrays and tuples too), in order, each once: the NNEF graph's edges.
    std::vector<std::string> operands;
};

struct Provenance {
    /// The graph body's lines, in order (one operation per line).
    std::vector<ProvenanceLine> lines;

    /// Null when `line` is not an operation line.
    const ProvenanceLine* atLine(int line) const;
    /// The line that defines `identifier`; null when none does.
    const ProvenanceLine* defining(const std::string& identifier) const;
    /// Lines emitted for one IR node / for one TorchScript node, in order.
    std::vector<int> linesOfIrNode(int irNode) const;
    std::vector<int> linesOfTorchNode(int64_t torchNode) const;
};

} // namespace t2n
