#include "harden/prepare_graph.h"

#include "harden/harden.h"

namespace t2n::harden {

PreparedModule prepareGraph(const torch::jit::Module& model, bool freeze) {
    HardenOptions options;
    options.freeze = freeze;
    return hardenForExport(model, {}, options);
}

} // namespace t2n::harden
