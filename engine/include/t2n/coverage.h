// Operator coverage of a model: which of its TorchScript operators t2n cannot
// translate for tract, how often, and where (t2n inspect --coverage); and the
// operators it can (the registry, for the docs and `t2n ops`).
#pragma once

#include "t2n/error.h"
#include "t2n/ir.h"

#include <string>
#include <vector>

namespace t2n {

struct UncoveredKind {
    std::string kind;           ///< aten::erfinv
    std::vector<NodeRef> nodes; ///< every node of that kind that needs translating
};

/// The operator kinds of `graph` with no lowering in the registry, sorted by
/// kind. Nodes folded at export time and scalar-only nodes are not counted:
/// they never reach the translator.
std::vector<UncoveredKind> uncoveredOperators(const ir::Graph& graph);

/// The list of aten kinds the translator supports, with family and notes.
struct SupportedOp {
    std::string kind;
    std::string family;
    std::string note;
};
std::vector<SupportedOp> supportedOperators();

} // namespace t2n
