#include "translate/numbers_from_tensors.h"

#include <algorithm>
#include <map>
#include <set>

namespace t2n::translate {

namespace {
// Readers that take a number where a tensor may stand (the Tensor, Scalar
// overloads) and give a tensor: elementwise, so a 0-d tensor broadcasts as
// the number would.
bool elementwiseReader(const std::string& kind) {
    static const std::set<std::string> kinds{
        "aten::gt",    "aten::lt",         "aten::ge",      "aten::le",   "aten::eq",
        "aten::ne",    "aten::add",        "aten::sub",     "aten::mul",  "aten::div",
        "aten::where", "aten::maximum",    "aten::minimum", "aten::rsub", "aten::pow",
        "aten::clamp", "aten::masked_fill"};
    return kinds.count(kind) > 0;
}
} // namespace

bool takesNumberFromTensor(const std::string& kind) {
    return kind == "aten::Float" || kind == "aten::FloatImplicit";
}

std::vector<bool> numbersKeptAsTensors(const ir::Graph& g) {
    std::vector<bool> kept(g.nodes.size(), false);
    std::map<ir::ValueId, std::vector<const ir::Node*>> readers;
    for (const auto& n : g.nodes)
        for (ir::ValueId id : n.inputs)
            readers[id].push_back(&n);
    for (const auto& n : g.nodes) {
        if (n.folded || !takesNumberFromTensor(n.kind) || n.inputs.empty() ||
            n.outputs.size() != 1 || g.value(n.inputs[0]).kind != ir::ValueKind::Tensor)
            continue;
        const ir::Value& number = g.value(n.outputs[0]);
        if (!number.dataDependent || number.kind != ir::ValueKind::Float)
            continue;
        const auto it = readers.find(number.id);
        const bool read = it != readers.end() && !it->second.empty();
        const bool returned =
            std::find(g.outputs.begin(), g.outputs.end(), number.id) != g.outputs.end();
        // (The tuple forward() returns reads its outputs too.)
        bool allElementwise = true;
        if (read)
            for (const ir::Node* r : it->second)
                allElementwise =
                    allElementwise && (r->kind == "prim::TupleConstruct" ||
                                       (elementwiseReader(r->kind) && !r->outputs.empty() &&
                                        g.value(r->outputs[0]).kind == ir::ValueKind::Tensor));
        kept[static_cast<size_t>(n.id)] = (read || returned) && allElementwise;
    }
    return kept;
}

} // namespace t2n::translate
