// tract's versions and every choice t2n makes by version, in one table of
// (what, since, until) rows (tract_versions.cpp). Three readers: the writer
// (lowerings ask InferenceTarget::has(), which asks this table), the tract CLI
// runner (which flags the binary has) and the structural check (an archive's
// operations against the version its tract_core_properties names). The rows
// were read from tract's own history (`git grep` of registry names and CLI
// flags over the release tags; reference/upstream-0.24-and-tract-0.23.md §4).
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

namespace t2n::target {

struct SemVer {
    std::array<int, 3> parts{0, 0, 0};
    static SemVer parse(std::string_view s); ///< "0.21.13", "v0.22.0", "0.23.6-pre"
    std::string str() const;
    /// Same release line (major.minor): 0.21.15 and 0.21.17.
    bool sameLine(const SemVer& o) const {
        return parts[0] == o.parts[0] && parts[1] == o.parts[1];
    }
    auto operator<=>(const SemVer&) const = default;
};

struct TractGate {
    /// An operation ("tract_core_log_softmax"), one of its parameters
    /// ("tract_core_scatter_elements:reduction"), a CLI flag
    /// ("cli:--approx-custom"), a form of NNEF text ("literal:inf") or a .dat
    /// item type ("dat:q4_0").
    std::string_view what;
    /// The first release that has it. Several versions, oldest first, name a
    /// backport: "0.21.15 0.22.0" = from 0.21.15 on the 0.21 line and from
    /// 0.22.0 on every later line.
    std::string_view since;
    /// The first release without it ("" = still there).
    std::string_view until;
    /// What the row says, for messages and the docs.
    std::string_view note;
};

/// Every row, in table order.
std::span<const TractGate> tractGates();
/// The row for `what`, or null when t2n knows no version limit for it.
const TractGate* findTractGate(std::string_view what);
/// True when tract `v` has `what`: always for names without a row.
bool tractHas(std::string_view what, const SemVer& v);
/// The oldest release that has `what` ("" when it has no row or no limit
/// below tract 0.20): the "since tract" of the supported-operator table.
std::string_view tractSince(std::string_view what);
/// The versions that have `gate`, for messages: "tract 0.23.0 or newer",
/// "tract 0.21.15 or newer on the 0.21 line, 0.22.0 or newer after it",
/// "tract before 0.23.0".
std::string describeGate(const TractGate& gate);

} // namespace t2n::target
