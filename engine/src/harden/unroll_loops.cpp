#include "harden/unroll_loops.h"

#include "harden/dependence.h"
#include "jit/graph_runner.h"
#include "harden/graph_utils.h"

#include <fmt/format.h>

#include <unordered_map>

namespace t2n::harden {

using torch::jit::Block;
using torch::jit::Node;
using torch::jit::Value;

namespace {
std::optional<bool> constantBool(const Value* v) {
    auto c = constantValue(v);
    return c && c->isBool() ? std::optional<bool>(c->toBool()) : std::nullopt;
}

// `for i in range(5)`: a constant bound, a condition constant true before and
// after every iteration. A loop whose first condition is false runs 0 times.
std::optional<int64_t> constantTripCount(const Node* loop) {
    auto first = constantBool(loop->input(1));
    if (first && !*first)
        return 0;
    auto bound = constantValue(loop->input(0));
    auto again = constantBool(loop->blocks()[0]->outputs()[0]);
    if (first && again && *again && bound && bound->isInt())
        return std::max<int64_t>(0, bound->toInt());
    return std::nullopt;
}

// Adds an iteration counter to a loop of a graph copy; returns the loop's
// output that holds the number of iterations run.
Value* addCounter(torch::jit::Graph& g, Node* loop) {
    Block* body = loop->blocks()[0];
    loop->addInput(insertConstantBefore(loop, c10::IValue(int64_t{0})));
    Value* seen = body->addInput()->setType(c10::IntType::get());
    Value* next = nullptr;
    {
        torch::jit::WithInsertPoint guard(body->return_node());
        next = g.insert(c10::aten::add, {seen, int64_t{1}});
    }
    body->registerOutput(next);
    return loop->addOutput()->setType(c10::IntType::get());
}

// Runs a copy of the graph whose loops count their iterations.
std::unordered_map<const Node*, int64_t> countIterations(const PassContext& ctx,
                                                         const std::vector<Node*>& loops) {
    auto copy = ctx.graph->copy();
    std::unordered_map<const Node*, Node*> twin; // copy() keeps the node order
    auto b = copy->nodes().begin();
    for (auto a = ctx.graph->nodes().begin(); a != ctx.graph->nodes().end(); ++a, ++b)
        twin.emplace(*a, *b);
    jit::RunOptions options;
    options.stage = Stage::Harden;
    std::vector<const Value*> counters;
    for (const Node* loop : loops)
        counters.push_back(addCounter(*copy, twin.at(loop)));
    options.wanted = counters;
    Recorded rec = jit::runGraph(ctx.module ? &*ctx.module : nullptr, *copy, ctx.exampleInputs, options);
    std::unordered_map<const Node*, int64_t> out;
    for (size_t i = 0; i < loops.size(); ++i)
        if (auto it = rec.find(counters[i]); it != rec.end() && it->second.isInt())
            out.emplace(loops[i], it->second.toInt());
    return out;
}

// `n` copies of the body before the loop, each reading the previous copy's
// carried values and its iteration number as a constant; the loop's outputs
// become the last copy's.
void unroll(Node* loop, int64_t n) {
    Block* body = loop->blocks()[0];
    torch::jit::Graph& g = *loop->owningGraph();
    std::vector<Value*> carried(loop->inputs().begin() + 2, loop->inputs().end());
    for (int64_t k = 0; k < n; ++k) {
        std::unordered_map<Value*, Value*> env;
        env.emplace(body->inputs()[0], insertConstantBefore(loop, c10::IValue(k)));
        for (size_t j = 0; j < carried.size(); ++j)
            env.emplace(body->inputs()[j + 1], carried[j]);
        auto map = [&](Value* v) {
            auto it = env.find(v);
            return it == env.end() ? v : it->second;
        };
        for (Node* node : body->nodes()) {
            Node* copy = g.createClone(node, map);
            copy->insertBefore(loop);
            for (size_t o = 0; o < node->outputs().size(); ++o)
                env.emplace(node->outputs()[o], copy->outputs()[o]);
        }
        for (size_t j = 0; j < carried.size(); ++j)
            carried[j] = map(body->outputs()[j + 1]);
    }
    for (size_t j = 0; j < carried.size(); ++j)
        loop->outputs()[j]->replaceAllUsesWith(carried[j]);
    loop->destroy();
}
} // namespace

void unrollLoops(PassContext& ctx) {
    std::vector<Node*> loops;
    for (Node* n : ctx.graph->nodes())
        if (n->kind() == c10::prim::Loop)
            loops.push_back(n);
    if (loops.empty())
        return;
    const bool hasSelf = ctx.module.has_value();
    std::unordered_map<const Node*, int64_t> counts;
    std::unordered_map<const Node*, std::string> reasons;
    std::vector<Node*> toCount;
    for (Node* loop : loops) {
        if (auto n = constantTripCount(loop)) {
            counts.emplace(loop, *n);
            reasons.emplace(loop, "is a constant");
            continue;
        }
        bool onValues = false;
        std::string why =
            explainDependence(tripCountDependence(loop), *ctx.graph, hasSelf, onValues);
        if (onValues) {
            ctx.remark(loop, fmt::format("missed: {}: its trip count {}; only loops whose count "
                                         "follows from shapes and constants are unrolled",
                                         describe(loop), why));
            continue;
        }
        reasons.emplace(loop, why);
        toCount.push_back(loop);
    }
    if (!toCount.empty() && ctx.canRun("loop trip counts"))
        counts.merge(countIterations(ctx, toCount));
    for (Node* loop : loops) {
        auto it = counts.find(loop);
        if (it == counts.end())
            continue;
        const int64_t n = it->second;
        const int64_t added = n * countNodes(*loop->blocks()[0]);
        if (n > kMaxUnrolledIterations || added > kMaxUnrolledNodes) {
            ctx.remark(loop, fmt::format("missed: {}: it runs {} iterations on the example "
                                         "inputs ({} nodes unrolled), over the unrolling limit of "
                                         "{} iterations and {} nodes",
                                         describe(loop), n, added, kMaxUnrolledIterations,
                                         kMaxUnrolledNodes));
            continue;
        }
        if (!ctx.rewrite("loops_unrolled"))
            return;
        ctx.count("iterations_unrolled", n);
        ctx.remark(loop, fmt::format("{}: unrolled {} iteration(s); its trip count {}",
                                     describe(loop), n, reasons.at(loop)));
        unroll(loop, n);
    }
}

} // namespace t2n::harden
