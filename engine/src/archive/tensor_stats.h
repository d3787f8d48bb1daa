// Minimum, maximum and mean of a tensor's elements, for the report's
// variable records (the studio's archive view shows them per .dat).
#pragma once

#include "t2n/tensor_data.h"

namespace t2n::archive {

struct TensorStats {
    double min = 0;
    double max = 0;
    double mean = 0;
    int64_t finite = 0; ///< elements counted (NaNs and infinities are left out)
};

/// One typed pass over the bytes; an empty tensor gives zeros.
TensorStats tensorStats(const TensorData& t);

} // namespace t2n::archive
