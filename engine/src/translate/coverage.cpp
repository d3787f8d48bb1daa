#include "t2n/coverage.h"

#include "translate/registry.h"
#include "translate/translator.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace t2n {

std::vector<UncoveredKind> uncoveredOperators(const ir::Graph& graph) {
    std::map<std::string, std::vector<NodeRef>> missing;
    for (const auto& n : graph.nodes)
        if (!n.folded && !translate::producesOnlyScalars(graph, n) &&
            !translate::hasLowering(graph, n, translate::defaultRegistry()))
            missing[n.kind].push_back(n.where);
    std::vector<UncoveredKind> out;
    for (auto& [kind, nodes] : missing)
        out.push_back(UncoveredKind{kind, std::move(nodes)});
    return out;
}

namespace {
std::string_view unqualified(std::string_view kind) {
    const auto colons = kind.rfind("::");
    return colons == std::string_view::npos ? kind : kind.substr(colons + 2);
}

// Levenshtein distance, one row at a time.
size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), size_t{0});
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = up;
        }
    }
    return row[b.size()];
}
} // namespace

std::vector<std::string> nearestSupportedOperators(const std::string& kind, size_t count) {
    // A name that contains the other (erfinv / erf, _foreach_add / add) is
    // nearer than any edit distance says.
    const std::string_view name = unqualified(kind);
    std::vector<std::pair<size_t, std::string>> ranked;
    for (const auto& op : supportedOperators()) {
        const std::string_view other = unqualified(op.kind);
        if (op.kind == kind || other.empty())
            continue;
        const bool contained = (name.size() >= 3 && other.find(name) != std::string_view::npos) ||
                               (other.size() >= 3 && name.find(other) != std::string_view::npos);
        const size_t d = contained ? 0 : editDistance(name, other);
        // Farther than half the name is no longer "near".
        if (d <= std::max<size_t>(2, name.size() / 2))
            ranked.emplace_back(d * 2 + (op.kind.substr(0, 6) != kind.substr(0, 6)), op.kind);
    }
    std::stable_sort(ranked.begin(), ranked.end());
    std::vector<std::string> out;
    for (const auto& [d, k] : ranked)
        if (out.size() < count && std::find(out.begin(), out.end(), k) == out.end())
            out.push_back(k);
    return out;
}

} // namespace t2n
