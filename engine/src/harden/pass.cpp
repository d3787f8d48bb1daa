#include "harden/pass.h"

#include "harden/node_identity.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace t2n::harden {

PassContext::PassContext(std::shared_ptr<torch::jit::Graph> g, RewriteBudget* budget)
    : graph(std::move(g)), budget_(budget ? budget : &ownBudget_) {}

bool PassContext::allowRewrite() {
    if (budget_->exhausted()) {
        if (!limited)
            remark(fmt::format("stopped: the rewrite limit ({}) is reached", *budget_->limit));
        limited = true;
        return false;
    }
    ++budget_->used;
    return true;
}

bool PassContext::rewrite(std::string_view statistic) {
    if (!allowRewrite())
        return false;
    count(statistic);
    return true;
}

int64_t PassContext::remainingRewrites() const {
    if (!budget_->limit)
        return std::numeric_limits<int64_t>::max();
    return std::max<int64_t>(0, *budget_->limit - budget_->used);
}

void PassContext::count(std::string_view statistic, int64_t n) {
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const Count& c) { return c.first == statistic; });
    if (it == counts.end())
        counts.emplace_back(std::string(statistic), n);
    else
        it->second += n;
}

void PassContext::remark(std::string text) {
    remarks.push_back(std::move(text));
}

void PassContext::remark(const torch::jit::Node* node, std::string text) {
    StableId id = identity ? identity->idOf(node) : -1;
    if (id >= 0)
        nodeRemarks.push_back({id, text});
    remarks.push_back(std::move(text));
}

bool PassContext::canRun(std::string_view what) {
    size_t expected = graph->inputs().size() - (module ? 1 : 0);
    if (exampleInputs.empty() && expected > 0) {
        remark(fmt::format("missed: {}: no example inputs were given", what));
        return false;
    }
    if (exampleInputs.size() != expected) {
        remark(fmt::format("missed: {}: {} example input(s) for {} forward() argument(s)", what,
                           exampleInputs.size(), expected));
        return false;
    }
    return true;
}

Recorded runAndRecord(const PassContext& ctx, const std::vector<const torch::jit::Value*>& wanted) {
    jit::RunOptions options;
    options.stage = Stage::Harden;
    options.wanted = wanted;
    if (options.wanted.empty())
        return {};
    return jit::runGraph(ctx.module ? &*ctx.module : nullptr, *ctx.graph, ctx.exampleInputs,
                         options);
}

} // namespace t2n::harden
