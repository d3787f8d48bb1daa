#include "harden/fold_tuple_index_through_tuple_construct.h"

#include "harden/graph_utils.h"

#include <fmt/format.h>

namespace t2n::harden {

using torch::jit::Node;

void foldTupleIndexThroughTupleConstruct(PassContext& ctx) {
    for (Node* n : nodesOfKind(ctx.graph->block(), c10::prim::TupleIndex)) {
        Node* tuple = n->input(0)->node();
        if (tuple->kind() != c10::prim::TupleConstruct)
            continue; // a tuple from a call or a graph input: nothing to see through
        auto index = torch::jit::toIValue(n->input(1));
        if (!index || !index->isInt()) {
            ctx.remark(n, fmt::format("missed: {}: the index is not a constant", describe(n)));
            continue;
        }
        auto size = static_cast<int64_t>(tuple->inputs().size());
        int64_t k = index->toInt() < 0 ? index->toInt() + size : index->toInt();
        if (k < 0 || k >= size)
            continue; // out of range: the model raises at run time, keep it
        if (!ctx.rewrite("tuple_indices_folded"))
            return;
        n->output()->replaceAllUsesWith(tuple->input(static_cast<size_t>(k)));
        n->destroy();
    }
}

} // namespace t2n::harden
