#include "check/semantic_bisect.h"

#include "harden/harden.h"
#include "jit/graph_runner.h"
#include "jit/torch_bridge.h"

#include <ATen/CPUGeneratorImpl.h>
#include <fmt/format.h>

#include <mutex>

namespace t2n {

std::string BisectReport::summary() const {
    const BisectStep* s = first();
    if (!s)
        return fmt::format("no pass changed the outputs ({} passes at {})", steps.size(),
                           tolerance);
    std::string what = s->error;
    for (const auto& o : s->outputs)
        if (o.changed)
            what += fmt::format("{}{} by {:.3g}{}", what.empty() ? "" : ", ", o.name, o.maxAbsDiff,
                                o.note.empty() ? "" : " (" + o.note + ")");
    return fmt::format("{}{} changed {}", s->pass,
                       s->round > 0 ? fmt::format(" (round {})", s->round) : std::string(), what);
}

} // namespace t2n

namespace t2n::check {

namespace {
// A model that draws random numbers (torch.rand in forward) draws the same
// values in every run compared here: each run starts PyTorch's default
// generator from one seed, and the caller's generator state is put back
// after it (a pass that reorders the draws still shows as a change).
class SameDraws {
public:
    SameDraws() : gen_(at::detail::getDefaultCPUGenerator()) {
        std::lock_guard<std::mutex> lock(gen_.mutex());
        state_ = gen_.get_state();
        gen_.set_current_seed(0x7432'6e5fULL);
    }
    ~SameDraws() {
        std::lock_guard<std::mutex> lock(gen_.mutex());
        gen_.set_state(state_);
    }
    SameDraws(const SameDraws&) = delete;
    SameDraws& operator=(const SameDraws&) = delete;

private:
    at::Generator gen_;
    at::Tensor state_;
};

// forward()'s outputs, flattened, for the graph run on the module `self`.
std::vector<at::Tensor> outputsOf(const torch::jit::Module* self, torch::jit::Graph& graph,
                                  const std::vector<at::Tensor>& inputs) {
    SameDraws sameDraws;
    jit::RunOptions run;
    run.stage = Stage::Harden;
    for (const auto* v : graph.outputs())
        run.wanted.push_back(v);
    auto rec = jit::runGraph(self, graph, inputs, run);
    std::vector<at::Tensor> out;
    for (const auto* v : graph.outputs())
        jit::flattenTensors(rec.at(v), out);
    return out;
}

class BisectObserver : public harden::PassObserver {
public:
    BisectObserver(std::vector<at::Tensor> reference, const std::vector<at::Tensor>& inputs,
                   const Tolerance& tolerance, const std::vector<std::string>& names)
        : reference_(std::move(reference)), inputs_(inputs), tolerance_(tolerance), names_(names) {}

    void afterPassContext(const harden::PassInfo&, const harden::PassRecord& rec,
                          const harden::PassContext& ctx) override {
        BisectStep step;
        step.pass = rec.name;
        step.round = rec.round;
        try {
            auto got = outputsOf(ctx.module ? &*ctx.module : nullptr, *ctx.graph, inputs_);
            if (got.size() != reference_.size())
                step.error = fmt::format("{} outputs instead of {}", got.size(), reference_.size());
            for (size_t i = 0; i < got.size() && i < reference_.size(); ++i) {
                Comparison c = compare(reference_[i], got[i], tolerance_);
                BisectOutput o;
                o.name = i < names_.size() ? names_[i] : fmt::format("output_{}", i);
                o.maxAbsDiff = c.maxAbsError;
                o.changed = !c.ok;
                o.note = !c.shapeMismatch.empty() ? c.shapeMismatch : c.dtypeMismatch;
                step.outputs.push_back(std::move(o));
            }
        } catch (const Error& e) {
            step.error = "the graph no longer runs: " + e.message();
        }
        step.changed = !step.error.empty();
        for (const auto& o : step.outputs)
            step.changed = step.changed || o.changed;
        if (step.changed && report.firstChanged < 0)
            report.firstChanged = static_cast<int>(report.steps.size());
        report.steps.push_back(std::move(step));
    }

    BisectReport report;

private:
    std::vector<at::Tensor> reference_;
    const std::vector<at::Tensor>& inputs_;
    const Tolerance& tolerance_;
    const std::vector<std::string>& names_;
};
} // namespace

BisectReport bisectHardening(const torch::jit::Module& model, const std::vector<at::Tensor>& inputs,
                             harden::HardenOptions options, const Tolerance& tolerance,
                             const std::vector<std::string>& outputNames) {
    torch::NoGradGuard noGrad;
    auto forward = model.get_method("forward").graph();
    BisectObserver observer(outputsOf(&model, *forward, inputs), inputs, tolerance, outputNames);
    observer.report.tolerance = tolerance.str();
    options.snapshots = false;
    harden::PassObserver* observers[] = {&observer};
    harden::hardenForExport(model, inputs, options, observers);
    return std::move(observer.report);
}

} // namespace t2n::check
