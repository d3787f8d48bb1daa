// Why a loop or a branch the hardening chain left in the graph cannot be
// exported, in words: NNEF graphs are straight-line, so a loop whose trip
// count follows tensor values (a greedy decoder that stops at EOS) or a
// branch on tensor values has no NNEF form. The refusal says what exports
// instead: the loop's body (one step) with its carried values as inputs and
// outputs, or both branches selected with torch.where.
#pragma once

#include "t2n/error.h"

#include <torch/script.h>

namespace t2n::ir {

/// The error for control flow (prim::Loop, prim::If) left in the graph:
/// Stage::Trace, ErrorCode::Unsupported, naming the node. `hardening` is the
/// hardening chain's remark on it ("" when it left none).
Error controlFlowRefusal(const torch::jit::Node* node, const std::string& hardening);

} // namespace t2n::ir
