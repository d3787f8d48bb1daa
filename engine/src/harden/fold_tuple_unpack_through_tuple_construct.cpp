#include "harden/fold_tuple_unpack_through_tuple_construct.h"

#include "harden/graph_utils.h"

namespace t2n::harden {

using torch::jit::Node;

void foldTupleUnpackThroughTupleConstruct(PassContext& ctx) {
    for (Node* n : nodesOfKind(ctx.graph->block(), c10::prim::TupleUnpack)) {
        Node* tuple = n->input()->node();
        if (tuple->kind() != c10::prim::TupleConstruct ||
            tuple->inputs().size() != n->outputs().size())
            continue;
        if (!ctx.rewrite("tuple_unpacks_folded"))
            return;
        for (size_t i = 0; i < n->outputs().size(); ++i)
            n->outputs()[i]->replaceAllUsesWith(tuple->input(i));
        n->destroy();
    }
}

} // namespace t2n::harden
