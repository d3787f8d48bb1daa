#include "t2n/coverage.h"

#include "translate/registry.h"
#include "translate/translator.h"

#include <map>

namespace t2n {

std::vector<UncoveredKind> uncoveredOperators(const ir::Graph& graph) {
    std::map<std::string, std::vector<NodeRef>> missing;
    for (const auto& n : graph.nodes)
        if (!n.folded && !translate::producesOnlyScalars(graph, n) &&
            !translate::hasLowering(graph, n, translate::defaultRegistry()))
            missing[n.kind].push_back(n.where);
    std::vector<UncoveredKind> out;
    for (auto& [kind, nodes] : missing)
        out.push_back(UncoveredKind{kind, std::move(nodes)});
    return out;
}

} // namespace t2n
