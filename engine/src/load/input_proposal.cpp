#include "load/input_proposal.h"

#include "harden/bind_arguments.h"
#include "jit/graph_runner.h"
#include "jit/packed_params.h"
#include "load/input_feedback.h"
#include "load/input_hints.h"
#include "load/isolated_run.h"
#include "load/module_loader.h"
#include "load/proposal_memory.h"

#include "t2n/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/runtime/custom_operator.h>

#include <chrono>
#include <deque>
#include <map>
#include <numeric>
#include <set>

namespace t2n::load {

const std::vector<int64_t>& commonSizes(int kind) {
    // Image sides: ImageNet's, CIFAR's, MNIST's, then others in use.
    static const std::vector<int64_t> image{224, 32, 28, 64, 128, 256, 96, 299, 320, 512, 16};
    static const std::vector<int64_t> sequence{16, 8, 32, 64, 128, 10, 20, 50, 100, 256, 4, 1};
    // One second at 16 kHz first (speech models), then shorter and longer.
    static const std::vector<int64_t> signal{16000, 8000, 4000, 1024, 22050, 44100, 400, 256};
    static const std::vector<int64_t> frames{8, 16, 4, 32, 1, 2};
    switch (static_cast<FreeSize>(kind)) {
    case FreeSize::Image:
        return image;
    case FreeSize::Sequence:
        return sequence;
    case FreeSize::Signal:
        return signal;
    case FreeSize::Frames:
        return frames;
    }
    return image;
}

namespace {

int64_t sizeAt(FreeSize kind, size_t level) {
    const auto& list = commonSizes(static_cast<int>(kind));
    return list[std::min(level, list.size() - 1)];
}

// The spec of `hint` for its `shape`-th template and the `level`-th common sizes.
InputSpec specFor(const InputHint& hint, size_t shape, size_t level) {
    InputSpec spec;
    spec.name = hint.name;
    spec.dtype = hint.dtype;
    spec.randomRange = hint.range;
    if (hint.number) {
        spec.values = {hint.values[std::min(shape, hint.values.size() - 1)]};
        return spec;
    }
    for (const HintDim& d : hint.shapes[std::min(shape, hint.shapes.size() - 1)])
        spec.shape.push_back(d.free ? sizeAt(*d.free, level) : d.size);
    if (hint.lengths)
        spec.values = {static_cast<double>(sizeAt(FreeSize::Sequence, level))};
    return spec;
}

// "224x224 pixels, a common image size": what the free sizes were set to.
std::string freeSizesText(const InputHint& hint, size_t shape, size_t level) {
    std::set<FreeSize> kinds;
    if (hint.number)
        return {};
    for (const HintDim& d : hint.shapes[std::min(shape, hint.shapes.size() - 1)])
        if (d.free)
            kinds.insert(*d.free);
    std::vector<std::string> parts;
    for (FreeSize k : kinds) {
        const int64_t v = sizeAt(k, level);
        switch (k) {
        case FreeSize::Image:
            parts.push_back(fmt::format("{}x{} pixels, a common image size", v, v));
            break;
        case FreeSize::Sequence:
            parts.push_back(fmt::format("{} steps, a common sequence length", v));
            break;
        case FreeSize::Signal:
            parts.push_back(fmt::format("{} samples, a common audio length", v));
            break;
        case FreeSize::Frames:
            parts.push_back(fmt::format("{} frames, a common clip length", v));
            break;
        }
    }
    if (hint.lengths)
        parts.clear();
    return fmt::format("{}", fmt::join(parts, "; "));
}

// The first line of what the model said, short enough for a list.
std::string firstLine(const std::string& what) {
    std::string line = jit::describeModelFailure(what).message;
    if (const auto nl = line.find('\n'); nl != std::string::npos)
        line.resize(nl);
    if (line.size() > 240)
        line = line.substr(0, 237) + "...";
    return line;
}

// What PyTorch says when an input is smaller than its layers need: a
// kernel, a pooling window or a reflection pad larger than what reaches it
// (a VGG-style detection backbone at 224 pixels). Smaller sizes of the same
// template would fail alike; only larger ones are worth a run.
bool saysInputTooSmall(const std::string& error) {
    for (const char* words :
         {"Kernel size can't be greater than actual input size", "Output size is too small",
          "Padding size should be less than the corresponding input dimension", "too short"})
        if (error.find(words) != std::string::npos)
            return true;
    return false;
}

// The largest size the free axes of `hint`'s `shape`-th template take at `level`.
int64_t largestFreeSize(const InputHint& hint, size_t shape, size_t level) {
    int64_t largest = 0;
    for (const HintDim& d : hint.shapes[std::min(shape, hint.shapes.size() - 1)])
        if (d.free)
            largest = std::max(largest, sizeAt(*d.free, level));
    return largest;
}

// The names of the attributes forward() sets (prim::SetAttr), inlined.
std::set<std::string> attributesSet(const torch::jit::Module& module) {
    std::set<std::string> names;
    auto graph = module.get_method("forward").graph()->copy();
    torch::jit::Inline(*graph);
    std::vector<const torch::jit::Block*> blocks{graph->block()};
    while (!blocks.empty()) {
        const auto* b = blocks.back();
        blocks.pop_back();
        for (const auto* n : b->nodes()) {
            if (n->kind() == c10::prim::SetAttr)
                names.insert(n->s(c10::attr::name));
            for (const auto* sub : n->blocks())
                blocks.push_back(sub);
        }
    }
    return names;
}

// The values of the attributes named `names` in every object of the module
// tree, to put back after each candidate's run: a run (even a failed one, of
// another size) must not leave its state to the next, nor to the model
// (a deep copy of the module is no way out: Silero VAD v4's LSTM no longer
// runs in one).
class SavedState {
public:
    SavedState(const torch::jit::Module& module, const std::set<std::string>& names) {
        if (names.empty())
            return;
        std::vector<c10::intrusive_ptr<c10::ivalue::Object>> objects{module._ivalue()};
        std::set<const void*> seen;
        while (!objects.empty()) {
            auto o = objects.back();
            objects.pop_back();
            if (!seen.insert(o.get()).second)
                continue;
            for (size_t i = 0; i < o->slots().size(); ++i) {
                const c10::IValue& v = o->getSlot(i);
                if (v.isObject())
                    objects.push_back(v.toObject());
                if (names.count(o->type()->getAttributeName(i)))
                    saved_.push_back({o, i, copyOf(v)});
            }
        }
    }
    void restore() const {
        for (const auto& s : saved_)
            s.object->setSlot(s.slot, copyOf(s.value));
    }

private:
    static c10::IValue copyOf(const c10::IValue& v) {
        return v.isTensor() && v.toTensor().defined() ? c10::IValue(v.toTensor().clone()) : v;
    }
    struct Saved {
        c10::intrusive_ptr<c10::ivalue::Object> object;
        size_t slot;
        c10::IValue value;
    };
    std::vector<Saved> saved_;
};

// Quantized and prepacked (XNNPACK) kernels trust their input: qnnpack's linear reads a [1, 100352]
// input against a 784-wide packed weight and crashes (SIGSEGV) or "runs"
// on what lies beyond, so a wrong candidate could take t2n down or be
// proposed. t2n::guard_quantized_input, placed before each quantized
// conv/linear of the proposal's graph, compares the input with the packed
// weight first and fails the run with the size the weight states.
void guardQuantizedInput(torch::jit::Stack& stack) {
    const c10::IValue packed = std::move(stack.back());
    stack.pop_back();
    const at::Tensor x = stack.back().toTensor();
    stack.pop_back();
    auto p = jit::unpackPackedParams(packed);
    if (!p)
        p = jit::unpackMobileContext(packed);
    if (!p || !p->weight.defined() || p->transposed)
        return;
    const at::Tensor& w = p->weight;
    const char* what = w.is_quantized() ? "quantized" : "prepacked";
    if (!p->conv) {
        if (x.dim() >= 1 && w.dim() == 2 && x.size(-1) != w.size(1))
            throw std::runtime_error(fmt::format(
                "RuntimeError: {} linear expects {} input features (its weight is {}x{}) "
                "but the input has shape [{}]",
                what, w.size(1), w.size(0), w.size(1), fmt::join(x.sizes(), ", ")));
        return;
    }
    if (x.dim() < 2 || w.dim() < 3)
        return;
    const int64_t channels = w.size(1) * p->groups;
    if (x.size(1) != channels)
        throw std::runtime_error(fmt::format(
            "RuntimeError: {} convolution expects {} input channels (weight [{}], {} "
            "group(s)) but the input has shape [{}]",
            what, channels, fmt::join(w.sizes(), ", "), p->groups, fmt::join(x.sizes(), ", ")));
    if (x.dim() != w.dim())
        return; // conv1d packed as conv2d: sides not comparable
    for (int64_t i = 2; i < x.dim(); ++i) {
        const size_t k = static_cast<size_t>(i - 2);
        const int64_t pad = k < p->padding.size() ? p->padding[k] : 0;
        const int64_t dil = k < p->dilation.size() ? p->dilation[k] : 1;
        if (x.size(i) + 2 * pad < dil * (w.size(i) - 1) + 1)
            // The words PyTorch's own convolutions use (saysInputTooSmall).
            throw std::runtime_error(
                fmt::format("RuntimeError: Kernel size can't be greater than actual input size: {} "
                            "convolution kernel [{}] on input [{}]",
                            what, fmt::join(w.sizes(), ", "), fmt::join(x.sizes(), ", ")));
    }
}

const torch::jit::RegisterOperators registerQuantizedGuard({torch::jit::Operator(
    "t2n::guard_quantized_input(Tensor x, Any packed) -> ()", guardQuantizedInput,
    // A side effect, so that no clean-up removes the guard.
    c10::AliasAnalysisKind::CONSERVATIVE)});

bool isGuardedKind(const std::string& kind) {
    // XNNPACK's prepacked kernels trust their input as qnnpack's do.
    if (kind == "prepacked::conv2d_clamp_run" || kind == "prepacked::linear_clamp_run")
        return true;
    return (kind.starts_with("quantized::linear") || kind.starts_with("quantized::conv")) &&
           kind.find("transpose") == std::string::npos &&
           kind.find("unpack") == std::string::npos && kind.find("prepack") == std::string::npos;
}

// Kernels outside ATen's checked ones: quantized and prepacked (XNNPACK)
// kernels and custom extensions.
bool hasUncheckedKernels(const torch::jit::Block* block) {
    for (const torch::jit::Node* n : block->nodes()) {
        const std::string ns = n->kind().ns().toUnqualString();
        if (ns != "aten" && ns != "prim" && ns != "t2n")
            return true;
        for (const torch::jit::Block* b : n->blocks())
            if (hasUncheckedKernels(b))
                return true;
    }
    return false;
}

// A guard before each quantized conv/linear of `graph` (forward() inlined);
// false when it has none.
bool guardQuantizedInputs(const std::shared_ptr<torch::jit::Graph>& graph) {
    std::vector<torch::jit::Node*> guarded;
    std::vector<torch::jit::Block*> blocks{graph->block()};
    while (!blocks.empty()) {
        torch::jit::Block* b = blocks.back();
        blocks.pop_back();
        for (torch::jit::Node* n : b->nodes()) {
            if (isGuardedKind(n->kind().toQualString()) && n->inputs().size() >= 2 &&
                n->input(0)->type()->kind() == c10::TypeKind::TensorType)
                guarded.push_back(n);
            for (torch::jit::Block* sub : n->blocks())
                blocks.push_back(sub);
        }
    }
    static const auto kGuard = c10::Symbol::fromQualString("t2n::guard_quantized_input");
    for (torch::jit::Node* n : guarded)
        graph->create(kGuard, {n->input(0), n->input(1)}, 0)->insertBefore(n);
    return !guarded.empty();
}

// Inputs whose leading axes the model combines: a diffusion block's image x
// (batch 1 by convention) and its timesteps t (a free length, 16) are both
// of batch B, and broadcasting 1 against 16 runs, so the candidate ran with
// sizes an export with `B` on both cannot have. Input i of leading size 1
// and input j of leading size n are tied when i runs at n and fails at n + 1
// (one size wanted, not a broadcast); j then gets i's size 1, confirmed by a
// run. `runs` runs a candidate; `reasons` gets the words per input changed.
std::vector<InputSpec>
tieLeadingAxes(std::vector<InputSpec> specs, const std::vector<bool>& adjustable,
               const std::function<bool(const std::vector<InputSpec>&)>& runs,
               std::vector<std::string>& reasons) {
    auto leading = [&](size_t k) -> int64_t {
        const InputSpec& s = specs[k];
        return adjustable[k] && s.values.empty() && !s.shape.empty() ? s.shape[0] : 0;
    };
    auto with = [&](size_t k, int64_t size) {
        auto t = specs;
        t[k].shape[0] = size;
        return t;
    };
    constexpr int kMaxPairs = 4;
    int pairs = 0;
    for (size_t i = 0; i < specs.size(); ++i)
        for (size_t j = 0; j < specs.size() && leading(i) == 1; ++j) {
            const int64_t n = leading(j);
            if (j == i || n <= 1 || pairs++ >= kMaxPairs)
                continue;
            if (!runs(with(i, n)) || runs(with(i, n + 1)))
                continue;
            auto tied = with(j, 1);
            if (!runs(tied))
                continue;
            specs = std::move(tied);
            reasons[j] = fmt::format(
                "axis 0 of size 1 like '{}': the model combines their leading axes (it ran "
                "with both {}, not with {} and {})",
                specs[i].name, n, n + 1, n);
        }
    return specs;
}

} // namespace

InputProposal proposeInputs(const torch::jit::Module& module, const ProposalLimits& limits,
                            const std::function<bool()>& cancelled) {
    const InputHints read = readInputHints(module);
    InputProposal out;
    out.defaulted = read.defaulted;
    // A forward() that writes module attributes gets them back after each
    // run: each candidate starts from the state as loaded (a failed run of
    // another size may have written part of it: Silero VAD's context), and
    // the proposal leaves the model as it was loaded.
    const SavedState state(module, attributesSet(module));
    const torch::jit::Module& runner = module;
    // A quantized model's candidates run with guards, in a child process:
    // nothing a guessed size does to a kernel can end t2n.
    auto inlined = module.get_method("forward").graph()->copy();
    torch::jit::Inline(*inlined);
    const bool isolate = hasUncheckedKernels(inlined->block());
    const auto guarded = guardQuantizedInputs(inlined) ? inlined : nullptr;
    // Candidates: per input a template (its alternatives, likeliest first)
    // and one level of the common sizes, tried cheapest first: the sum of
    // the template indices and the level, so that two inputs' alternatives
    // combine (a [1, L, 80] input beside a [1] lengths) and small sizes come
    // before unlikely shapes.
    size_t levels = 1;
    std::vector<size_t> choices;
    for (const auto& h : read.hints) {
        choices.push_back(h.shapes.size());
        for (const auto& s : h.shapes)
            for (const auto& d : s)
                if (d.free)
                    levels = std::max(levels, commonSizes(static_cast<int>(*d.free)).size());
        if (h.lengths)
            levels = std::max(levels, commonSizes(static_cast<int>(FreeSize::Sequence)).size());
    }
    struct Candidate {
        size_t cost;
        size_t level;
        std::vector<size_t> shape;
    };
    std::vector<Candidate> candidates;
    std::vector<size_t> combo(read.hints.size(), 0);
    constexpr size_t kMaxCombos = 256;
    for (size_t made = 0; made < kMaxCombos; ++made) {
        const size_t sum = std::accumulate(combo.begin(), combo.end(), size_t{0});
        for (size_t level = 0; level < levels; ++level)
            candidates.push_back({sum + level, level, combo});
        // The next combination, like an odometer.
        size_t i = 0;
        while (i < combo.size() && ++combo[i] == choices[i])
            combo[i++] = 0;
        if (i == combo.size())
            break;
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.cost < b.cost; });
    const auto start = std::chrono::steady_clock::now();
    std::set<std::string> tried;
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    bool timedOut = false;
    // Per (input, template): the largest free size the model called too small,
    // and the smallest one a candidate ran out of memory at
    // (load/proposal_memory.h). A candidate is skipped only when every input
    // with free sizes is at or past its bound: the message does not say which
    // input was too small (or too large).
    using Bounds = std::map<std::pair<size_t, size_t>, int64_t>;
    Bounds tooSmall, tooLarge;
    auto pastBound = [&](const Bounds& bounds, const Candidate& c, bool below) {
        bool any = false;
        for (size_t i = 0; i < read.hints.size(); ++i) {
            const int64_t size = largestFreeSize(read.hints[i], c.shape[i], c.level);
            if (size == 0)
                continue;
            const auto it = bounds.find({i, c.shape[i]});
            if (it == bounds.end() || (below ? size > it->second : size < it->second))
                return false;
            any = true;
        }
        return any;
    };
    // The inputs a correction may change: not numbers, not lengths.
    std::vector<bool> adjustable;
    bool numbers = false;
    for (const auto& h : read.hints) {
        adjustable.push_back(!h.number && !h.lengths);
        numbers = numbers || h.number;
    }
    // Candidates made from what a failed run's error said (load/input_feedback.h)
    // run before the next template's, breadth first, a few steps deep.
    struct Pending {
        std::vector<InputSpec> specs;
        std::vector<std::string> reasons; ///< per input
        int depth = 0;
        std::optional<size_t> integers; ///< an input made integers by the error `cause`
        std::string cause;
        /// A candidate that ran out of memory at smaller sizes: run even
        /// when the corrections have had their runs.
        bool smaller = false;
    };
    std::deque<Pending> feedback;
    constexpr int kMaxFeedbackRuns = 24;
    constexpr int kMaxFeedbackDepth = 5;
    int feedbackRuns = 0, templateRuns = 0;
    // Inputs an error asked integers of, kept so for the templates after it.
    std::set<size_t> integers;
    std::vector<std::string> earlierErrors;
    // One run of forward() on `specs`, within the memory cap; the model's
    // whole error in `lastFullError`.
    std::string lastFullError;
    const MemoryCap cap;
    auto runOn = [&](const std::vector<InputSpec>& specs) {
        ProposalAttempt attempt;
        attempt.specs = specs;
        const double began = seconds();
        auto run = [&] {
            torch::NoGradGuard noGrad;
            // One call per candidate, each of other sizes: the profiling
            // executor's first call would profile for a plan never used.
            torch::jit::GraphOptimizerEnabledGuard oneShot(false);
            if (numbers) {
                // Numbers become constants of a copy, as the export binds them.
                auto bound = harden::bindNonTensorArguments(runner, specs);
                const auto tensors = makeExampleInputs(bound->tensorSpecs, limits.seed);
                std::vector<c10::IValue> stack(tensors.begin(), tensors.end());
                auto forward = bound->module.get_method("forward");
                forward(stack);
                return;
            }
            const auto tensors = makeExampleInputs(specs, limits.seed);
            if (guarded) {
                jit::RunOptions options;
                options.stage = Stage::Load;
                options.wanted = {guarded->inputs().back()};
                jit::runGraph(&runner, *guarded, tensors, options);
                return;
            }
            std::vector<c10::IValue> stack(tensors.begin(), tensors.end());
            auto forward = runner.get_method("forward");
            forward(stack);
        };
        std::string& fullError = lastFullError;
        fullError.clear();
        if (isolate) {
            const IsolatedOutcome o =
                runIsolated(run, std::max(1.0, limits.maxSeconds - seconds()));
            attempt.ran = o.ran;
            if (!o.ran) {
                attempt.error = o.usageError || o.crashed ? o.error : firstLine(o.error);
                fullError = o.error;
            }
        } else {
            try {
                run();
                attempt.ran = true;
            } catch (const Error& e) {
                attempt.error = e.message();
                fullError = attempt.error;
            } catch (const std::exception& e) {
                attempt.error = firstLine(e.what());
                fullError = e.what();
            }
            state.restore();
        }
        attempt.seconds = seconds() - began;
        return attempt;
    };
    size_t next = 0;
    while (true) {
        Pending p;
        std::optional<Candidate> from; ///< a template candidate, not a correction
        if (!feedback.empty() && (feedbackRuns < kMaxFeedbackRuns || feedback.front().smaller)) {
            p = std::move(feedback.front());
            feedback.pop_front();
        } else {
            while (next < candidates.size() && (pastBound(tooSmall, candidates[next], true) ||
                                                pastBound(tooLarge, candidates[next], false)))
                ++next; // not run, not counted against maxAttempts
            if (next >= candidates.size())
                break;
            const Candidate& c = candidates[next++];
            for (size_t i = 0; i < read.hints.size(); ++i) {
                InputSpec spec = specFor(read.hints[i], c.shape[i], c.level);
                if (integers.count(i) && spec.dtype == DType::F32 && !read.hints[i].number)
                    spec.dtype = DType::I64;
                p.specs.push_back(spec);
                std::string reason = read.hints[i].reason;
                if (const auto sizes = freeSizesText(read.hints[i], c.shape[i], c.level);
                    !sizes.empty())
                    reason += "; " + sizes;
                p.reasons.push_back(reason);
            }
            from = c;
        }
        const std::vector<InputSpec>& specs = p.specs;
        std::string key;
        for (const auto& s : specs)
            key += s.toString() + " ";
        if (!tried.insert(key).second)
            continue;
        if (from && templateRuns >= limits.maxAttempts)
            break;
        if (seconds() > limits.maxSeconds) {
            timedOut = true;
            break;
        }
        if (cancelled && cancelled())
            throw Error(Stage::Load, ErrorCode::Cancelled, "input proposal cancelled",
                        "nothing was written");
        (from ? templateRuns : feedbackRuns)++;
        ProposalAttempt attempt = runOn(specs);
        out.attempts.push_back(attempt);
        const std::string fullError = attempt.ran ? std::string() : lastFullError;
        if (!attempt.ran)
            earlierErrors.push_back(attempt.error);
        // Integers got further than floats: so for the templates after it.
        if (p.integers && (attempt.ran || attempt.error != p.cause))
            integers.insert(*p.integers);
        if (!attempt.ran) {
            if (from && saysInputTooSmall(attempt.error))
                for (size_t i = 0; i < read.hints.size(); ++i) {
                    int64_t& floor = tooSmall[{i, from->shape[i]}];
                    floor = std::max(floor,
                                     largestFreeSize(read.hints[i], from->shape[i], from->level));
                }
            if (saysOutOfMemory(attempt.error)) {
                if (!from)
                    continue; // the words say nothing of the shapes wanted
                int64_t largest = 0;
                for (size_t i = 0; i < read.hints.size(); ++i) {
                    const int64_t size =
                        largestFreeSize(read.hints[i], from->shape[i], from->level);
                    largest = std::max(largest, size);
                    if (size == 0)
                        continue;
                    auto [it, fresh] = tooLarge.try_emplace({i, from->shape[i]}, size);
                    it->second = fresh ? size : std::min(it->second, size);
                }
                // The same shapes at the first level of smaller sizes, next.
                for (size_t level = from->level + 1; level < levels; ++level) {
                    int64_t at = 0;
                    for (size_t i = 0; i < read.hints.size(); ++i)
                        at = std::max(at, largestFreeSize(read.hints[i], from->shape[i], level));
                    if (at >= largest)
                        continue;
                    Pending smaller{{}, {}, p.depth + 1, std::nullopt, attempt.error, true};
                    for (size_t i = 0; i < read.hints.size(); ++i) {
                        InputSpec spec = specFor(read.hints[i], from->shape[i], level);
                        const std::string sizes =
                            freeSizesText(read.hints[i], from->shape[i], level);
                        smaller.reasons.push_back(
                            read.hints[i].reason +
                            (sizes.empty() ? ""
                                           : "; " + sizes +
                                                 " (larger sizes needed more memory than a "
                                                 "candidate may take)"));
                        spec.dtype = specs[i].dtype;
                        spec.randomRange = specs[i].randomRange;
                        smaller.specs.push_back(spec);
                    }
                    feedback.push_front(std::move(smaller));
                    break;
                }
                continue;
            }
            if (p.depth < kMaxFeedbackDepth)
                for (Correction& c : correctionsFromError(attempt.error + "\n" + fullError, specs,
                                                          adjustable, earlierErrors)) {
                    Pending q{std::move(c.specs), p.reasons, p.depth + 1, c.integers,
                              attempt.error};
                    for (size_t i = 0; i < q.specs.size(); ++i)
                        if (!(q.specs[i] == specs[i]))
                            q.reasons[i] = c.reason;
                    feedback.push_back(std::move(q));
                }
            continue;
        }
        out.confirmed = true;
        std::vector<std::string> tiedReasons(specs.size());
        const auto tied = tieLeadingAxes(
            specs, adjustable,
            [&](const std::vector<InputSpec>& s) {
                return seconds() < limits.maxSeconds && runOn(s).ran;
            },
            tiedReasons);
        if (tied != specs) {
            ProposalAttempt confirmed;
            confirmed.specs = tied;
            confirmed.ran = true;
            out.attempts.push_back(confirmed);
        }
        for (size_t i = 0; i < read.hints.size(); ++i)
            out.inputs.push_back({tied[i], tiedReasons[i].empty()
                                               ? p.reasons[i]
                                               : p.reasons[i] + "; " + tiedReasons[i]});
        break;
    }
    if (out.confirmed)
        return out;
    std::vector<std::string> names;
    for (const auto& h : read.hints)
        names.push_back(h.name);
    Error e(Stage::Load, ErrorCode::Usage,
            fmt::format("could not propose inputs for forward({}): none of the {} candidate(s) "
                        "tried ran{}",
                        fmt::join(names, ", "), out.attempts.size(),
                        timedOut ? fmt::format(" within {:.0f} s", limits.maxSeconds) : ""),
            "give the inputs yourself, one --input NAME:SHAPE:DTYPE per forward() argument "
            "(e.g. --input image:1x3x224x224:f32); the attempts above say what the model "
            "refused");
    for (const auto& a : out.attempts) {
        std::vector<std::string> flags;
        for (const auto& s : a.specs)
            flags.push_back(s.toString());
        e.addDetail({fmt::format("tried {}: {}", fmt::join(flags, " "), a.error), {}, false});
    }
    throw e;
}

} // namespace t2n::load
