// A second size for every symbolic axis of a dynamic export: the check runs
// the same archive again at that size, so that an axis frozen to the example
// size shows up as a mismatch instead of passing unnoticed.
#pragma once

#include "t2n/ir.h"
#include "t2n/options.h"
#include "t2n/report.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace t2n::check {

struct SizedInputs {
    std::string label;                       ///< "B=3, T=9"
    std::string exampleLabel;                ///< the same symbols at the example sizes: "B=2, T=8"
    std::vector<InputSpec> specs;            ///< the example specs with every symbolic axis resized
    std::map<std::string, int64_t> sizes;    ///< symbol -> its second size
    std::map<std::string, int64_t> examples; ///< symbol -> its example size
};

/// What the check says of one symbol: the sizes it ran at and why those.
/// `probe`: how the trace chose its second size (null: it did not say);
/// `checked`: the second size the check compared at (0: none); `refusal`:
/// the model's message when it refused the second size at the check.
DynamicSizeCheck describeSymbolCheck(const std::string& symbol, int64_t example,
                                     const ir::SymbolProbe* probe, int64_t checked,
                                     const std::string& refusal);

/// Empty when the export has no dynamic axis on an input. Each symbol gets
/// the size in `probed` (the size the trace's probe ran the model at, known
/// to be one the model accepts: pixel_unshuffle needs even sides), else its
/// example size + 1; the same new size wherever the symbol appears.
/// Symbols in `exampleOnly` (the model ran at no other size the trace
/// tried) keep their example size; none left: empty.
std::vector<SizedInputs> otherSizes(const ExportOptions& options,
                                    const std::map<std::string, int64_t>& probed = {},
                                    const std::set<std::string>& exampleOnly = {});

} // namespace t2n::check
