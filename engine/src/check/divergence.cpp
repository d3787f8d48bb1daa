#include "check/divergence.h"

#include "check/random_outputs.h"
#include "jit/graph_runner.h"
#include "jit/torch_bridge.h"
#include "target/quantized_kinds.h"
#include "target/random_kinds.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace t2n::check {

std::unordered_map<std::string, const torch::jit::Value*> valuesByName(const torch::jit::Graph& g) {
    std::unordered_map<std::string, const torch::jit::Value*> out;
    for (const torch::jit::Value* v : g.inputs())
        out.emplace(v->debugName(), v);
    for (const torch::jit::Node* n : g.nodes())
        for (const torch::jit::Value* v : n->outputs())
            out.emplace(v->debugName(), v);
    return out;
}

std::optional<at::Tensor>
referenceOf(const ManifestValue& value, const jit::Recorded& rec,
            const std::unordered_map<std::string, const torch::jit::Value*>& byName,
            bool& quantized) {
    if (value.torchValue.empty())
        return std::nullopt;
    auto jv = byName.find(value.torchValue);
    if (jv == byName.end())
        return std::nullopt;
    auto it = rec.find(jv->second);
    if (it == rec.end() || !it->second.isTensor())
        return std::nullopt;
    // A quantized TorchScript value is compared as the real numbers it holds,
    // which is what the interpreter computes with (interp/quant.h).
    const at::Tensor t = jit::realView(it->second.toTensor());
    quantized = t.is_quantized();
    return quantized ? t.dequantize() : t;
}

namespace {

// Compares an NNEF value with its reference; operand alignment may have
// added unit axes, so equal element counts compare flattened. Fills the
// value's error figures; returns why it differs, if it does.
std::optional<std::string> differs(const at::Tensor& expected, const at::Tensor& got,
                                   const Tolerance& tolerance, ValueError& figures) {
    if (expected.numel() != got.numel()) {
        figures.ok = false;
        figures.maxAbs = figures.relative = std::numeric_limits<double>::infinity();
        return fmt::format("shape [{}] where TorchScript has [{}]", fmt::join(got.sizes(), ", "),
                           fmt::join(expected.sizes(), ", "));
    }
    at::Tensor e = expected.reshape({-1}), g = got.reshape({-1});
    if (e.is_floating_point() != g.is_floating_point()) {
        e = e.to(at::kDouble);
        g = g.to(at::kDouble);
    }
    Comparison c = compare(e, g, tolerance);
    figures.ok = c.ok;
    figures.maxAbs = c.maxAbsError;
    if (figures.maxAbs > 0) {
        const double scale = e.to(at::kDouble).abs().max().item<double>();
        figures.relative = figures.maxAbs / std::max(scale, 1e-30);
    }
    if (c.ok)
        return std::nullopt;
    return c.summary();
}

// A quantized value against its reference, in steps of its scale; fills
// the figures and the criterion's counts; returns why it is beyond its bound.
std::optional<std::string> differsInSteps(const at::Tensor& expected, const at::Tensor& got,
                                          const interp::QuantParams& q, const std::string& kind,
                                          ValueError& figures, QuantizedCheck& counts) {
    if (expected.numel() != got.numel()) {
        figures.ok = false;
        figures.maxAbs = figures.relative = std::numeric_limits<double>::infinity();
        ++counts.beyond;
        return fmt::format("shape [{}] where TorchScript has [{}]", fmt::join(got.sizes(), ", "),
                           fmt::join(expected.sizes(), ", "));
    }
    const double step = static_cast<float>(q.scale);
    const at::Tensor e = expected.reshape({-1}).to(at::kDouble);
    const at::Tensor g = got.reshape({-1}).to(at::kDouble);
    const StepCount c = countSteps(e, g, step);
    const int bound = quantizedBound(kind);
    figures.maxAbs = c.maxSteps * step;
    if (figures.maxAbs > 0)
        figures.relative = figures.maxAbs / std::max(e.abs().max().item<double>(), 1e-30);
    figures.ok = c.maxSteps < bound + 0.5;
    ++counts.values;
    counts.elements += e.numel();
    counts.offByOneElements += c.offByOne;
    if (c.maxSteps < 0.5)
        ++counts.exact;
    else if (c.maxSteps < 1.5)
        ++counts.offByOne;
    if (!figures.ok)
        ++counts.beyond;
    if (c.maxSteps > counts.worstSteps || counts.worst.empty()) {
        counts.worstSteps = c.maxSteps;
        counts.worst = figures.identifier;
        counts.worstKind = kind;
    }
    if (figures.ok)
        return std::nullopt;
    return fmt::format("{:.3g} quantization steps off (step {:.6g}; {} of {} elements one step "
                       "off, {} more) where {} allows {}",
                       c.maxSteps, step, c.offByOne, e.numel(), c.offByMore, kind, bound);
}

ValueScan scan(const CheckInputs& in, const interp::Interpreter& interpreter,
               const std::map<std::string, at::Tensor>& nnefInputs,
               const std::vector<at::Tensor>& modelInputs, const Tolerance& tolerance,
               bool everyValue, const interp::QuantTable* quant) {
    ValueScan out;
    jit::RunOptions torchRun;
    torchRun.stage = Stage::Check;
    jit::Recorded rec =
        jit::runGraph(&in.prepared->module, *in.prepared->graph, modelInputs, torchRun);
    const auto byName = valuesByName(*in.prepared->graph);
    std::unordered_map<std::string, const ManifestValue*> manifest;
    for (const auto& v : in.manifest->values)
        manifest.emplace(v.identifier, &v);
    // Every operation gets the TorchScript values of its operands, so that a
    // faulty operation differs on its own instead of through accumulated error.
    std::map<std::string, at::Tensor> references;
    for (const auto& v : in.manifest->values) {
        bool quantized = false;
        auto t = referenceOf(v, rec, byName, quantized);
        // An f32 value with no graph.quant entry that stands for a quantized
        // TorchScript value is the real-valued side of a requantized
        // operation (the casts to f32 of its operands, its result before
        // requantization): fed the requantized reference it would hide the
        // operation's own error. Only the quantized identifier is compared.
        if (t && !(quant && quantized && !quant->count(v.identifier)))
            references.emplace(v.identifier, *t);
    }
    interp::Interpreter::RunOptions options;
    options.keepIntermediates = true;
    options.captureFailure = true;
    options.substitutes = &references;
    interp::RunResult run = interpreter.run(nnefInputs, options);
    for (const interp::TracedValue& tv : run.values) {
        auto found = manifest.find(tv.name);
        if (found == manifest.end())
            continue; // a helper value with no TorchScript counterpart
        const ManifestValue* value = found->second;
        // A random draw (or what a lowering made of it: an f16 draw's cast, a
        // tensor mean plus a draw) cannot equal the model's sample; what
        // reads it is fed the model's sample, and compared.
        if (tv.operation == kRandomOperation || target::drawsRandom(value->node.kind))
            continue;
        auto expected = references.find(tv.name);
        if (expected == references.end())
            continue;
        ValueError figures;
        figures.identifier = tv.name;
        figures.operation = tv.operation;
        figures.nnefLine = tv.line;
        const interp::QuantParams* q = nullptr;
        if (quant)
            if (auto it = quant->find(tv.name); it != quant->end() && it->second.bits == 8)
                q = &it->second;
        auto why = q ? differsInSteps(expected->second, tv.value, *q, value->node.kind, figures,
                                      out.quantized)
                     : differs(expected->second, tv.value, tolerance, figures);
        if (everyValue)
            out.values.push_back(figures);
        if (why && !out.first) {
            Divergence d;
            d.identifier = tv.name;
            d.operation = tv.operation;
            d.nnefLine = tv.line;
            d.node = value->node;
            d.detail = *why;
            out.first = d;
            if (!everyValue)
                return out;
        }
    }
    out.quantized.applied = quant != nullptr;
    out.quantized.passed = !out.first && !run.failure; // quantized and other values alike
    if (run.failure && !out.first) {
        Divergence d;
        const auto& detail = run.failure->details();
        d.identifier = detail.empty() ? std::string() : detail.front().node.valueName;
        d.operation = detail.empty() ? std::string() : detail.front().node.kind;
        d.nnefLine = detail.empty() ? 0 : detail.front().node.sourceLine;
        if (auto found = manifest.find(d.identifier); found != manifest.end())
            d.node = found->second->node;
        d.detail = "the NNEF graph fails here: " + run.failure->message();
        out.first = d;
    }
    return out;
}

} // namespace

int quantizedBound(const std::string& kind) {
    // What t2n lands exactly on PyTorch's integers (quantize) or what tract
    // moves or selects as stored integers without arithmetic.
    return target::keepsQuantizedIntegers(kind) ? 0 : 1;
}

StepCount countSteps(const at::Tensor& expected, const at::Tensor& got, double step) {
    StepCount c;
    if (!(step > 0) || expected.numel() == 0 || expected.numel() != got.numel())
        return c;
    const at::Tensor steps =
        (expected.reshape({-1}).to(at::kDouble) - got.reshape({-1}).to(at::kDouble)).abs() / step;
    c.maxSteps = steps.max().item<double>();
    c.offByOne = ((steps >= 0.5) & (steps < 1.5)).sum().item<int64_t>();
    c.offByMore = (steps >= 1.5).sum().item<int64_t>();
    return c;
}

std::optional<Divergence> findDivergence(const CheckInputs& in,
                                         const interp::Interpreter& interpreter,
                                         const std::map<std::string, at::Tensor>& nnefInputs,
                                         const std::vector<at::Tensor>& modelInputs,
                                         const Tolerance& tolerance,
                                         const interp::QuantTable* quant) {
    return scan(in, interpreter, nnefInputs, modelInputs, tolerance, false, quant).first;
}

ValueScan scanValues(const CheckInputs& in, const interp::Interpreter& interpreter,
                     const std::map<std::string, at::Tensor>& nnefInputs,
                     const std::vector<at::Tensor>& modelInputs, const Tolerance& tolerance,
                     const interp::QuantTable* quant) {
    return scan(in, interpreter, nnefInputs, modelInputs, tolerance, true, quant);
}

} // namespace t2n::check
