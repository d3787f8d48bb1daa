// tract's TDim in the reference interpreter. tract holds sizes and integer
// literals as TDim, a datum type of its own: `add(i, 1)` on an i64 tensor is
// a TDim tensor, and several of tract's operations refuse TDim where they
// accept i64. The interpreter computes such values as i64 tensors marked
// `tdim` (interp/value.h) and refuses what tract refuses (tdim.cpp).
#pragma once

#include "interp/ops.h"

#include <vector>

namespace t2n::interp {

/// Throws InterpError when tract refuses `call` for a TDim operand.
void refuseTDimOperands(const Call& call);

/// Marks the results of `call` that tract holds as TDim.
void markTDimResults(const Call& call, std::vector<Value>& results);

} // namespace t2n::interp
