#include "translate/check_manifest.h"

#include <algorithm>

namespace t2n::translate {

namespace {
// Where an IR value comes from: its node, or the graph input, parameter or
// constant it is.
NodeRef whereOf(const ir::Graph& graph, ir::ValueId id) {
    const ir::Value& v = graph.value(id);
    if (v.producer >= 0)
        return graph.node(v.producer).where;
    NodeRef ref;
    const bool input =
        std::find(graph.inputs.begin(), graph.inputs.end(), id) != graph.inputs.end();
    ref.kind = input ? "graph input" : v.paramName.empty() ? "prim::Constant" : "parameter";
    ref.valueName = v.paramName.empty() ? v.debugName : v.paramName;
    return ref;
}
} // namespace

CheckManifest checkManifest(const Translation& translation, const ir::Graph& graph,
                            const std::vector<bool>& fromTorch) {
    CheckManifest m;
    m.inputs = translation.doc.inputs;
    m.inputIndices = translation.inputIndices;
    m.outputs = translation.doc.outputs;
    for (const auto& [identifier, id] : translation.identifierValues) {
        ManifestValue v;
        v.identifier = identifier;
        const auto index = static_cast<size_t>(id);
        if (index < fromTorch.size() && fromTorch[index])
            v.torchValue = graph.value(id).debugName;
        v.node = whereOf(graph, id);
        m.values.push_back(std::move(v));
    }
    return m;
}

} // namespace t2n::translate
