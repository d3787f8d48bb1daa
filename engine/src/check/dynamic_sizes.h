// A second size for every symbolic axis of a dynamic export: the check runs
// the same archive again at that size, so that an axis frozen to the example
// size shows up as a mismatch instead of passing unnoticed.
#pragma once

#include "t2n/options.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace t2n::check {

struct SizedInputs {
    std::string label;            ///< "B=3, T=9"
    std::string exampleLabel;     ///< the same symbols at the example sizes: "B=2, T=8"
    std::vector<InputSpec> specs; ///< the example specs with every symbolic axis resized
};

/// Empty when the export has no dynamic axis on an input. Each symbol gets
/// the size in `probed` (the size the trace's probe ran the model at, known
/// to be one the model accepts: pixel_unshuffle needs even sides), else its
/// example size + 1; the same new size wherever the symbol appears.
std::vector<SizedInputs> otherSizes(const ExportOptions& options,
                                    const std::map<std::string, int64_t>& probed = {});

} // namespace t2n::check
