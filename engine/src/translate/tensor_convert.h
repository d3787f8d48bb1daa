// Element type conversion of TensorData without LibTorch (used for constants
// folded into the NNEF graph, e.g. a literal that must match its operand).
#pragma once

#include "t2n/tensor_data.h"

namespace t2n::translate {

/// A copy of `t` with elements converted like a C++ static_cast (bool: != 0).
TensorData convertDType(const TensorData& t, DType to);

} // namespace t2n::translate
