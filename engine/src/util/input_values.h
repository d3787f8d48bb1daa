// Example values belong to the size they were given for. When a run resizes
// an input (the trace's probes, the check's second size of a dynamic axis), a
// values file and values given one per element no longer fit: the input then
// takes seeded random values at its new size. A single value given for all
// elements still fits and stays.
#pragma once

#include "t2n/input_spec.h"

namespace t2n {

void dropValuesOfOtherSize(InputSpec& spec);

} // namespace t2n
