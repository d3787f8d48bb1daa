// Pass inline_unresolvable_submodules: the fallback when freezing fails or
// is off. Inlines every prim::CallMethod and prim::CallFunction except calls
// on the torch.nn classes t2n translates as whole modules (LSTM, GRU, RNN,
// LSTMCell), so their module-level extractors still see them.
//
// In Python (seed 001) the pass inlines the classes whose source cannot be
// imported; in C++ nothing is importable, hence the short keep-list. It also
// resolves prim::ModuleContainerIndex (`self.blocks[self.which]` on an
// interface-typed ModuleList/ModuleDict), which freeze_module refuses in
// 1.13, when the key is a constant or an attribute forward() never sets.
#pragma once

#include "harden/pass.h"

#include <string_view>

namespace t2n::harden {

/// Statistics: calls_inlined, container_indices_resolved. Kept calls are remarks.
void inlineUnresolvableSubmodules(PassContext& ctx);

/// True for the torch.nn classes kept as calls ("__torch__.torch.nn.modules.rnn.LSTM",
/// name mangling ignored).
bool keptAsModuleCall(std::string_view qualifiedClassName);

} // namespace t2n::harden
