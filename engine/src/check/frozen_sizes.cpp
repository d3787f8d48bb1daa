#include "check/frozen_sizes.h"

#include "check/divergence.h"
#include "jit/graph_runner.h"

#include <fmt/format.h>

#include <unordered_map>

namespace t2n::check {

namespace {

// Enough to see where the sizes froze; the rest follows from those.
constexpr size_t kMostFrozenRows = 50;

std::string frozenShapeText(at::IntArrayRef sizes) {
    return fmt::format("[{}]", fmt::join(sizes, ", "));
}

// Operand alignment may add unit axes: shapes that agree without them agree.
bool sameShapeUpToUnitAxes(at::IntArrayRef a, at::IntArrayRef b) {
    std::vector<int64_t> x, y;
    for (int64_t d : a)
        if (d != 1)
            x.push_back(d);
    for (int64_t d : b)
        if (d != 1)
            y.push_back(d);
    return x == y;
}

// TorchScript's shape of each hardened-graph value on `inputs`, by debug name.
std::unordered_map<std::string, std::string>
torchShapesByName(const CheckInputs& in, const std::vector<at::Tensor>& inputs) {
    jit::RunOptions run;
    run.stage = Stage::Check;
    const jit::Recorded rec = jit::runGraph(&in.prepared->module, *in.prepared->graph, inputs, run);
    std::unordered_map<std::string, std::string> out;
    for (const auto& [value, iv] : rec)
        if (iv.isTensor())
            out.emplace(value->debugName(), frozenShapeText(iv.toTensor().sizes()));
    return out;
}

} // namespace

FrozenSizes findFrozenSizes(const CheckInputs& in, const interp::Interpreter& interpreter,
                            const SizedInputs& sized,
                            const std::map<std::string, at::Tensor>& nnefInputs,
                            const std::vector<at::Tensor>& modelInputs,
                            const std::vector<at::Tensor>& exampleInputs) {
    FrozenSizes table;
    table.exampleSizes = sized.exampleLabel;
    table.secondSizes = sized.label;
    const auto atExample = torchShapesByName(in, exampleInputs);
    jit::RunOptions torchRun;
    torchRun.stage = Stage::Check;
    const jit::Recorded rec =
        jit::runGraph(&in.prepared->module, *in.prepared->graph, modelInputs, torchRun);
    const auto byName = valuesByName(*in.prepared->graph);
    std::unordered_map<std::string, const ManifestValue*> manifest;
    std::map<std::string, at::Tensor> references;
    for (const auto& v : in.manifest->values) {
        manifest.emplace(v.identifier, &v);
        bool quantized = false; // only shapes are compared here
        if (auto t = referenceOf(v, rec, byName, quantized))
            references.emplace(v.identifier, *t);
    }
    auto row = [&](const ManifestValue& v, const std::string& archive) {
        FrozenSize f;
        f.value = v.torchValue;
        f.identifier = v.identifier;
        f.node = v.node;
        if (auto it = atExample.find(v.torchValue); it != atExample.end())
            f.atExample = it->second;
        if (auto it = references.find(v.identifier); it != references.end())
            f.atSecond = frozenShapeText(it->second.sizes());
        f.archive = archive;
        return f;
    };
    interp::Interpreter::RunOptions options;
    options.keepIntermediates = true;
    options.captureFailure = true;
    options.substitutes = &references;
    const interp::RunResult run = interpreter.run(nnefInputs, options);
    for (const interp::TracedValue& tv : run.values) {
        if (table.values.size() >= kMostFrozenRows)
            break;
        auto found = manifest.find(tv.name);
        auto expected = references.find(tv.name);
        if (found == manifest.end() || expected == references.end())
            continue; // a helper value, or one with no TorchScript counterpart
        if (!sameShapeUpToUnitAxes(expected->second.sizes(), tv.value.sizes()))
            table.values.push_back(row(*found->second, frozenShapeText(tv.value.sizes())));
    }
    // The statement the archive stops at, fed TorchScript's operands: a
    // reshape to the example's sizes, typically.
    if (run.failure && table.values.size() < kMostFrozenRows) {
        const auto& detail = run.failure->details();
        const std::string identifier =
            detail.empty() ? std::string() : detail.front().node.valueName;
        const std::string fails = "fails: " + run.failure->message();
        if (auto found = manifest.find(identifier); found != manifest.end()) {
            table.values.push_back(row(*found->second, fails));
        } else {
            FrozenSize f;
            f.identifier = identifier;
            if (!detail.empty())
                f.node.kind = detail.front().node.kind;
            f.archive = fails;
            table.values.push_back(f);
        }
    }
    return table;
}

} // namespace t2n::check
