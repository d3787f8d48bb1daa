// The translation's half of the check: its manifest (t2n/check_manifest.h).
#pragma once

#include "t2n/check_manifest.h"
#include "t2n/ir.h"
#include "translate/translator.h"

#include <vector>

namespace t2n::translate {

/// `fromTorch[id]` says whether IR value `id` has a TorchScript counterpart
/// (the trace's map); such values are named by their debug name.
CheckManifest checkManifest(const Translation& translation, const ir::Graph& graph,
                            const std::vector<bool>& fromTorch);

} // namespace t2n::translate
