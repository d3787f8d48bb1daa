// Records of the hardening chain: totals, JSON, the one-line summary.
#include "t2n/harden.h"

#include "harden/pass_table.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace t2n::harden {

int64_t PassRecord::total() const {
    int64_t n = 0;
    for (const auto& c : counts)
        n += c.second;
    return n;
}

int64_t PassRecord::count(const std::string& statistic) const {
    for (const auto& c : counts)
        if (c.first == statistic)
            return c.second;
    return 0;
}

std::vector<std::pair<std::string, std::vector<Count>>> HardenDiagnostics::totals() const {
    std::vector<std::pair<std::string, std::vector<Count>>> out;
    for (const auto& rec : passes) {
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const auto& p) { return p.first == rec.name; });
        if (it == out.end()) {
            out.emplace_back(rec.name, rec.counts);
            continue;
        }
        for (size_t i = 0; i < rec.counts.size() && i < it->second.size(); ++i)
            it->second[i].second += rec.counts[i].second;
    }
    return out;
}

int64_t HardenDiagnostics::total(const std::string& pass, const std::string& statistic) const {
    int64_t n = 0;
    for (const auto& rec : passes)
        if (rec.name == pass)
            n += rec.count(statistic);
    return n;
}

int64_t HardenDiagnostics::total() const {
    int64_t n = 0;
    for (const auto& rec : passes)
        n += rec.total();
    return n;
}

std::vector<PassDescription> passDescriptions() {
    std::vector<PassDescription> out;
    for (const auto& p : passTable()) {
        PassDescription d{std::string(p.name), std::string(p.summary), {}, p.defaultOn, p.repeats};
        for (const auto& s : p.statistics)
            d.statistics.emplace_back(std::string(s.name), std::string(s.description));
        out.push_back(std::move(d));
    }
    return out;
}

namespace {
nlohmann::ordered_json countsJson(const std::vector<Count>& counts) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& [name, n] : counts)
        j[name] = n;
    return j;
}
} // namespace

std::string toJson(const HardenDiagnostics& d, bool withGraphs, int indent) {
    nlohmann::ordered_json j;
    j["froze"] = d.froze;
    j["manual_inline"] = d.manualInline;
    j["freeze_error"] =
        d.freezeError.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(d.freezeError);
    j["rounds"] = d.rounds;
    j["rewrite_limit"] = d.rewriteLimit ? nlohmann::ordered_json(*d.rewriteLimit) : nullptr;
    j["rewrites"] = d.rewrites;
    j["nodes_before"] = d.nodesBefore;
    j["nodes_after"] = d.nodesAfter;
    j["seconds"] = d.seconds;
    j["totals"] = nlohmann::ordered_json::object();
    for (const auto& [pass, counts] : d.totals())
        j["totals"][pass] = countsJson(counts);
    j["passes"] = nlohmann::ordered_json::array();
    for (const auto& r : d.passes) {
        nlohmann::ordered_json p;
        p["name"] = r.name;
        p["round"] = r.round;
        p["skipped"] = r.skipped;
        p["counts"] = countsJson(r.counts);
        p["remarks"] = r.remarks;
        p["seconds"] = r.seconds;
        p["nodes"] = r.nodes;
        if (r.limited)
            p["limited"] = true;
        p["events"] = nlohmann::ordered_json::array();
        for (const auto& e : r.events)
            p["events"].push_back({{"node", e.node},
                                   {"what", std::string(nodeEventName(e.what))},
                                   {"remark", e.remark}});
        p["node_remarks"] = nlohmann::ordered_json::array();
        for (const auto& nr : r.nodeRemarks)
            p["node_remarks"].push_back({{"node", nr.node}, {"text", nr.text}});
        if (withGraphs)
            p["graph"] = r.graphText;
        j["passes"].push_back(std::move(p));
    }
    j["warnings"] = d.warnings;
    if (withGraphs)
        j["input_graph"] = d.inputGraphText;
    // Names from the model may not be UTF-8: U+FFFD for a bad byte, not type_error.316.
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string summarize(const HardenDiagnostics& d) {
    std::vector<std::string> done;
    for (const auto& [pass, counts] : d.totals())
        for (const auto& [name, n] : counts)
            if (n > 0 && pass != "eliminate_dead_code")
                done.push_back(fmt::format("{} {}", n, name));
    std::string how = d.froze ? "froze the module"
                      : d.manualInline
                          ? "inlined calls (freezing " +
                                std::string(d.freezeError.empty() ? "off" : "failed") + ")"
                          : "left calls as they are";
    return fmt::format("hardening: {}; {}; {} -> {} nodes in {} round(s)", how,
                       done.empty() ? std::string("nothing to fold")
                                    : fmt::format("{}", fmt::join(done, ", ")),
                       d.nodesBefore, d.nodesAfter, d.rounds);
}

} // namespace t2n::harden
