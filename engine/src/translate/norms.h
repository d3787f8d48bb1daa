// Norms shared by the reductions, the matrix norms and the losses.
#pragma once

#include "translate/context.h"

#include <vector>

namespace t2n::translate {

/// sum(|x|^p)^(1/p) over `axes` of `x` (of dtype `t`), the axes kept (size
/// 1): p = 2 as sqrt(sum(x * x)), 1 as sum(|x|), +inf / -inf as the max / min
/// of |x|, any other positive p through pow. Other orders are refused.
Expr vectorNormOf(Context& ctx, Expr x, double p, const std::vector<int64_t>& axes, DType t,
                  const std::string& tag = "norm");

} // namespace t2n::translate
