// What every fuzz target asks of a tensor a reader accepted: it holds exactly
// the bytes its shape and dtype need, and every element can be read (ASan
// reports a read outside them).
#pragma once

#include "t2n/tensor_data.h"

#include <cstdint>

namespace t2n::fuzz {

inline void requireWholeAndReadable(const TensorData& t) {
    if (t.byteSize() != t.bytes().size())
        __builtin_trap();
    double sum = 0;
    for (int64_t i = 0; i < t.numel(); ++i)
        sum += t.asDouble(i);
    (void)sum;
}

} // namespace t2n::fuzz
