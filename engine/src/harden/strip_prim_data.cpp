#include "harden/strip_prim_data.h"

#include "harden/graph_utils.h"

namespace t2n::harden {

void stripPrimData(PassContext& ctx) {
    static const auto data = c10::Symbol::fromQualString("prim::data");
    for (torch::jit::Node* n : nodesOfKind(ctx.graph->block(), data)) {
        if (!ctx.rewrite("data_reads_stripped"))
            return;
        n->output()->replaceAllUsesWith(n->input());
        n->destroy();
    }
}

} // namespace t2n::harden
