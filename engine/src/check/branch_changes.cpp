#include "check/branch_changes.h"

#include "harden/graph_utils.h"
#include "jit/graph_runner.h"

#include <torch/csrc/jit/passes/inliner.h>

#include <fmt/format.h>

namespace t2n::check {

namespace {

std::string firstLine(std::string text) {
    if (auto nl = text.find('\n'); nl != std::string::npos)
        text.resize(nl);
    auto start = text.find_first_not_of(" \t");
    return start == std::string::npos ? std::string() : text.substr(start);
}

} // namespace

std::vector<BranchChange> branchChanges(const torch::jit::Module& model,
                                        const std::vector<at::Tensor>& example,
                                        const std::vector<at::Tensor>& second) {
    std::vector<BranchChange> out;
    try {
        auto graph = model.get_method("forward").graph()->copy();
        torch::jit::Inline(*graph);
        jit::RunOptions run;
        run.stage = Stage::Check;
        for (const torch::jit::Node* n : graph->nodes())
            if (n->kind() == c10::prim::If)
                run.wanted.push_back(n->input(0));
        if (run.wanted.empty())
            return out;
        const jit::Recorded a = jit::runGraph(&model, *graph, example, run);
        const jit::Recorded b = jit::runGraph(&model, *graph, second, run);
        for (const torch::jit::Value* c : run.wanted) {
            auto x = a.find(c), y = b.find(c);
            if (x == a.end() || y == b.end() || !x->second.isBool() || !y->second.isBool() ||
                x->second.toBool() == y->second.toBool())
                continue;
            BranchChange change;
            const torch::jit::Node* ifNode = c->uses().empty() ? c->node() : c->uses()[0].user;
            for (const auto& use : c->uses())
                if (use.user->kind() == c10::prim::If)
                    ifNode = use.user;
            change.where = harden::where(ifNode);
            auto range = ifNode->sourceRange();
            if (auto generated = range.findSourceRangeThatGenerated())
                range = *generated;
            change.condition = firstLine(range.text().str());
            if (!change.condition.empty() && change.condition.back() == ':')
                change.condition.pop_back();
            bool seen = false;
            for (const auto& o : out)
                seen = seen || (o.where == change.where && o.condition == change.condition);
            if (seen)
                continue; // the same line in another block of the model
            change.atExample = x->second.toBool();
            out.push_back(std::move(change));
        }
    } catch (const std::exception&) {
        return {}; // a diagnosis only: the failure itself is reported elsewhere
    }
    return out;
}

std::string describeBranchChanges(const std::vector<BranchChange>& changes,
                                  const std::string& secondLabel) {
    constexpr size_t kShown = 3;
    std::string text;
    for (size_t i = 0; i < changes.size() && i < kShown; ++i) {
        const BranchChange& c = changes[i];
        text +=
            fmt::format("{}the If at {}{} takes its {} branch at the example sizes and its {} "
                        "branch at {}",
                        text.empty() ? "" : "; ", c.where.empty() ? "?" : c.where,
                        c.condition.empty() ? "" : fmt::format(" (`{}`)", c.condition),
                        c.atExample ? "then" : "else", c.atExample ? "else" : "then", secondLabel);
    }
    if (changes.size() > kShown)
        text += fmt::format(" (and {} more)", changes.size() - kShown);
    if (!text.empty())
        text += ": the archive computes the example's branch only (t2n specialises an If on the "
                "example inputs); keep the axes it depends on static, or export one archive per "
                "branch";
    return text;
}

} // namespace t2n::check
