#include "check/divergence.h"

#include "jit/graph_runner.h"
#include "jit/torch_bridge.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace t2n::check {

namespace {

// The TorchScript value an IR value holds on the check inputs: its constant
// (parameters, folded values) or what the recording saw.
std::optional<at::Tensor> referenceOf(const CheckInputs& in, const jit::Recorded& rec,
                                      ir::ValueId id) {
    const ir::Value& v = in.graph->value(id);
    if (v.constant)
        if (auto* t = std::get_if<TensorData>(&*v.constant))
            return jit::toTensor(*t);
    const torch::jit::Value* jv = in.jitValues->at(static_cast<size_t>(id));
    if (!jv)
        return std::nullopt;
    auto it = rec.find(jv);
    if (it == rec.end() || !it->second.isTensor())
        return std::nullopt;
    // A quantized TorchScript value is compared as the real numbers it holds,
    // which is what the interpreter computes with (interp/quant.h).
    const at::Tensor& t = it->second.toTensor();
    return t.is_quantized() ? t.dequantize() : t;
}

NodeRef whereOf(const CheckInputs& in, ir::ValueId id) {
    const ir::Value& v = in.graph->value(id);
    if (v.producer >= 0)
        return in.graph->node(v.producer).where;
    NodeRef ref;
    ref.kind = v.paramName.empty() ? "prim::Constant" : "parameter";
    ref.valueName = v.paramName.empty() ? v.debugName : v.paramName;
    return ref;
}

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

ValueScan scan(const CheckInputs& in, const interp::Interpreter& interpreter,
               const std::map<std::string, at::Tensor>& nnefInputs,
               const std::vector<at::Tensor>& modelInputs, const Tolerance& tolerance,
               bool everyValue) {
    ValueScan out;
    jit::RunOptions torchRun;
    torchRun.stage = Stage::Check;
    jit::Recorded rec =
        jit::runGraph(&in.prepared->module, *in.prepared->graph, modelInputs, torchRun);
    const auto& ids = in.translation->identifierValues;
    // Every operation gets the TorchScript values of its operands, so that a
    // faulty operation differs on its own instead of through accumulated error.
    std::map<std::string, at::Tensor> references;
    for (const auto& [name, id] : ids)
        if (auto t = referenceOf(in, rec, id))
            references.emplace(name, *t);
    interp::Interpreter::RunOptions options;
    options.keepIntermediates = true;
    options.captureFailure = true;
    options.substitutes = &references;
    interp::RunResult run = interpreter.run(nnefInputs, options);
    for (const interp::TracedValue& tv : run.values) {
        auto it = ids.find(tv.name);
        if (it == ids.end())
            continue; // a helper value with no TorchScript counterpart
        auto expected = references.find(tv.name);
        if (expected == references.end())
            continue;
        ValueError figures;
        figures.identifier = tv.name;
        figures.operation = tv.operation;
        figures.nnefLine = tv.line;
        auto why = differs(expected->second, tv.value, tolerance, figures);
        if (everyValue)
            out.values.push_back(figures);
        if (why && !out.first) {
            Divergence d;
            d.identifier = tv.name;
            d.operation = tv.operation;
            d.nnefLine = tv.line;
            d.node = whereOf(in, it->second);
            d.detail = *why;
            out.first = d;
            if (!everyValue)
                return out;
        }
    }
    if (run.failure && !out.first) {
        Divergence d;
        const auto& detail = run.failure->details();
        d.identifier = detail.empty() ? std::string() : detail.front().node.valueName;
        d.operation = detail.empty() ? std::string() : detail.front().node.kind;
        d.nnefLine = detail.empty() ? 0 : detail.front().node.sourceLine;
        if (auto it = ids.find(d.identifier); it != ids.end())
            d.node = whereOf(in, it->second);
        d.detail = "the NNEF graph fails here: " + run.failure->message();
        out.first = d;
    }
    return out;
}

} // namespace

std::optional<Divergence> findDivergence(const CheckInputs& in,
                                         const interp::Interpreter& interpreter,
                                         const std::map<std::string, at::Tensor>& nnefInputs,
                                         const std::vector<at::Tensor>& modelInputs,
                                         const Tolerance& tolerance) {
    return scan(in, interpreter, nnefInputs, modelInputs, tolerance, false).first;
}

ValueScan scanValues(const CheckInputs& in, const interp::Interpreter& interpreter,
                     const std::map<std::string, at::Tensor>& nnefInputs,
                     const std::vector<at::Tensor>& modelInputs, const Tolerance& tolerance) {
    return scan(in, interpreter, nnefInputs, modelInputs, tolerance, true);
}

} // namespace t2n::check
