#include "harden/pass_manager.h"

#include "harden/graph_utils.h"
#include "harden/node_identity.h"
#include "harden/perturb.h"
#include "t2n/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <set>

namespace t2n::harden {

namespace {
void checkSkipNames(const HardenOptions& options) {
    std::set<std::string> asked = options.skip;
    if (!options.perturbAfter.empty())
        asked.insert(options.perturbAfter);
    for (const auto& name : asked) {
        if (findPass(name))
            continue;
        std::vector<std::string_view> names;
        for (const auto& p : passTable())
            names.push_back(p.name);
        throw Error(Stage::Harden, ErrorCode::Usage,
                    fmt::format("unknown hardening pass '{}'", name),
                    fmt::format("passes: {}", fmt::join(names, ", ")));
    }
}

// The pass's declared statistics in order, zeros included; anything it
// counted without declaring it comes last (a bug, but never hidden).
std::vector<Count> orderedCounts(const PassInfo& pass, const std::vector<Count>& counted) {
    std::vector<Count> out;
    for (const auto& s : pass.statistics)
        out.emplace_back(std::string(s.name), 0);
    for (const auto& [name, n] : counted) {
        auto it =
            std::find_if(out.begin(), out.end(), [&](const Count& c) { return c.first == name; });
        if (it == out.end())
            out.emplace_back(name, n);
        else
            it->second += n;
    }
    return out;
}

// Graphs of more nodes than this are not linted after each pass, and keep no
// snapshot of each pass (graph text and structure, ~1.4 KB a node a pass:
// 8,000 chained adds grew by 213 MB in hardening, 100,000 by gigabytes).
constexpr int64_t kLargeGraphNodes = 10000;

class Runner {
public:
    Runner(PassContext& ctx, const HardenOptions& options, std::span<PassObserver* const> observers)
        : ctx_(ctx), options_(options), observers_(observers) {
        identity_.start(*ctx_.graph);
        ctx_.identity = &identity_;
    }
    ~Runner() { ctx_.identity = nullptr; }
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    const NodeIdentity& identity() const { return identity_; }

    PassRecord run(const PassInfo& pass, int round) {
        PassRecord rec;
        rec.name = std::string(pass.name);
        rec.round = round;
        if (skipped(pass, options_)) {
            rec.skipped = true;
            rec.counts = orderedCounts(pass, {});
            rec.nodes = countNodes(*ctx_.graph);
            return rec;
        }
        for (auto* o : observers_)
            o->beforePass(pass, round, *ctx_.graph);
        ctx_.counts.clear();
        ctx_.remarks.clear();
        ctx_.nodeRemarks.clear();
        ctx_.limited = false;
        auto start = std::chrono::steady_clock::now();
        try {
            pass.run(ctx_);
            if (!perturbed_ && options_.perturbAfter == pass.name) {
                perturbFirstOutput(*ctx_.graph);
                perturbed_ = true;
            }
            // LibTorch's lint looks each input's use up in that value's list
            // of uses: quadratic in a constant shared by every node (a chain
            // of 100,000 `x + 1.0` spent minutes here per pass). It checks
            // t2n's passes, which graphs of ordinary size exercise: larger
            // graphs skip it.
            if (countNodes(*ctx_.graph) <= kLargeGraphNodes)
                ctx_.graph->lint();
        } catch (const Error& e) {
            failed(pass, round, e.message());
            // The model itself failed on the example inputs (its own `raise`):
            // that is the model's error, at its line, not the pass's.
            if (e.code() == ErrorCode::ModelRun)
                throw;
            Error wrapped(Stage::Harden, e.code(),
                          fmt::format("hardening pass {} failed: {}", pass.name, e.message()),
                          e.hint());
            for (const auto& d : e.details())
                wrapped.addDetail(d);
            throw wrapped;
        } catch (const std::exception& e) {
            const auto* c10e = dynamic_cast<const c10::Error*>(&e);
            std::string what = c10e ? c10e->what_without_backtrace() : e.what();
            what = what.substr(0, what.find('\n'));
            failed(pass, round, what);
            if (dynamic_cast<const std::bad_alloc*>(&e) ||
                what.find("can't allocate memory") != std::string::npos)
                throw Error(Stage::Harden, ErrorCode::ModelRun,
                            fmt::format("out of memory in hardening pass {} ({})", pass.name, what),
                            "free memory or raise the process's limit (ulimit -v)");
            throw Error(Stage::Harden, ErrorCode::Internal,
                        fmt::format("hardening pass {} failed: {}", pass.name, what),
                        fmt::format("this is a bug in t2n; skipping the pass ('{}') may get the "
                                    "export through",
                                    pass.name));
        }
        rec.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        rec.counts = orderedCounts(pass, ctx_.counts);
        rec.remarks = ctx_.remarks;
        rec.limited = ctx_.limited;
        rec.nodes = countNodes(*ctx_.graph);
        rec.nodeRemarks = ctx_.nodeRemarks;
        rec.events = identity_.update(*ctx_.graph);
        for (auto& e : rec.events)
            for (const auto& r : rec.nodeRemarks)
                if (r.node == e.node)
                    e.remark = r.text;
        if (options_.snapshots && rec.nodes <= kLargeGraphNodes) {
            rec.graphText = graphText(*ctx_.graph);
            rec.snapshot = snapshotOf(*ctx_.graph, identity_);
        }
        for (auto* o : observers_)
            o->afterPass(pass, rec, *ctx_.graph);
        for (auto* o : observers_)
            o->afterPassContext(pass, rec, ctx_);
        return rec;
    }

private:
    void failed(const PassInfo& pass, int round, const std::string& what) {
        for (auto* o : observers_)
            o->afterPassFailed(pass, round, *ctx_.graph, what);
    }

    PassContext& ctx_;
    const HardenOptions& options_;
    std::span<PassObserver* const> observers_;
    NodeIdentity identity_;
    bool perturbed_ = false;
};
} // namespace

bool skipped(const PassInfo& pass, const HardenOptions& options) {
    if (pass.name == "freeze_module" && !options.freeze)
        return true;
    return !pass.defaultOn || options.skip.count(std::string(pass.name)) > 0;
}

ChainRun runPasses(PassContext& ctx, const HardenOptions& options,
                   std::span<PassObserver* const> observers) {
    checkSkipNames(options);
    Runner runner(ctx, options, observers);
    ChainRun out;
    if (options.snapshots && countNodes(*ctx.graph) <= kLargeGraphNodes)
        out.inputSnapshot = snapshotOf(*ctx.graph, runner.identity());
    auto table = passTable();
    size_t i = 0;
    for (; i < table.size() && !table[i].repeats; ++i)
        out.records.push_back(runner.run(table[i], 0));
    size_t groupEnd = i;
    while (groupEnd < table.size() && table[groupEnd].repeats)
        ++groupEnd;
    // One pass's fold feeds another's (an inlined branch yields a constant to
    // compare): repeat the group until a whole round changes nothing.
    bool changed = groupEnd > i;
    for (int round = 1; changed && round <= options.maxRounds; ++round) {
        changed = false;
        bool limited = false;
        for (size_t k = i; k < groupEnd; ++k) {
            out.records.push_back(runner.run(table[k], round));
            changed = changed || out.records.back().total() > 0;
            limited = limited || out.records.back().limited;
        }
        out.rounds = round;
        if (limited)
            break;
        if (changed && round == options.maxRounds) {
            out.records.back().remarks.push_back(fmt::format(
                "stopped: the folding group still changed the graph after {} rounds", round));
            ctx.warnings.push_back(fmt::format(
                "hardening stopped after {} rounds of folding while still making progress", round));
        }
    }
    for (i = groupEnd; i < table.size(); ++i)
        out.records.push_back(runner.run(table[i], 0));
    out.nodeIds = runner.identity().ids();
    return out;
}

} // namespace t2n::harden
