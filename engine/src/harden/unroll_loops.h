// Pass unroll_loops: replaces each top-level prim::Loop whose trip count is
// fixed once the example's shapes are (`for i in range(n - 1)` with n from a
// size, `for t in parts` over a list split from a tensor, `while
// len(outputs) < n` over a list that grows by one per iteration, as in
// teacher-forced decoders) by that many copies of its body, the iteration
// number a constant in each. NNEF graphs are straight-line: a loop left in
// the graph cannot be exported.
//
// The count comes from the graph: a constant bound with a constant-true
// condition, or else one run on the example inputs with a counter added to
// the loop. It is trusted only when the count depends on nothing but shapes,
// constants and list lengths (see dependence.h); a count that follows tensor
// values (`while x.abs().max() > eps`, `range(int(lengths[0]))`) is left and
// remarked, and the trace stage then refuses the loop naming that reason. So
// is a loop of more than kMaxUnrolledIterations iterations, or whose copies
// would add more than kMaxUnrolledNodes nodes. Loops nested in other blocks
// are reached in the next round of the folding group, once their parent is
// unrolled or inlined.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

inline constexpr int64_t kMaxUnrolledIterations = 4096;
inline constexpr int64_t kMaxUnrolledNodes = 500000;

/// Statistics: loops_unrolled, iterations_unrolled. Needs the example inputs
/// for counts that are not constants.
void unrollLoops(PassContext& ctx);

} // namespace t2n::harden
