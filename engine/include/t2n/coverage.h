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

/// The list of aten kinds the translator supports, with family and notes,
/// and what follows from the NNEF operations each lowering declares it may
/// emit.
struct SupportedOp {
    std::string kind;
    std::string family;
    std::string note;
    /// The declared operations: "" when the lowering declares none yet.
    std::vector<std::string> emits;
    /// Whether the kind exports for Khronos NNEF 1.0.5: "yes", or "no" with
    /// the operations that have no standard form ("no: tract_core_topk");
    /// "" when undeclared.
    std::string khronos;
    /// The oldest tract release that has every operation (and parameter) it
    /// may need beyond its fallbacks: "0.23.0"; "" for any version t2n targets.
    std::string sinceTract;
};
std::vector<SupportedOp> supportedOperators();

/// The supported kinds whose names are nearest to `kind` (an unsupported
/// one): a name containing the other first, then by edit distance, at most
/// `count`; empty when none is near. What a failure page offers as a next step.
std::vector<std::string> nearestSupportedOperators(const std::string& kind, size_t count = 3);

} // namespace t2n
