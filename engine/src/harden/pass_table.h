// The hardening chain as one table: every pass, in order, with its summary,
// its statistics, whether it runs by default and whether it belongs to the
// folding group that repeats until a round changes nothing. The CLI's skip
// names, the GUI pass list and the docs all come from this table.
#pragma once

#include "harden/pass.h"

#include <span>
#include <string_view>

namespace t2n::harden {

struct Statistic {
    std::string_view name;
    std::string_view description;
};

struct PassInfo {
    std::string_view name;
    std::string_view summary;
    std::span<const Statistic> statistics;
    bool defaultOn;
    /// Part of the folding group, repeated until a whole round changes nothing:
    /// one pass's fold (a branch inlined) feeds another's (a constant compared).
    bool repeats;
    void (*run)(PassContext&);
};

/// The chain, in order.
std::span<const PassInfo> passTable();
const PassInfo* findPass(std::string_view name);

} // namespace t2n::harden
