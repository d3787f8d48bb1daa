#include "check/check_stage.h"

#include "archive/sibling_path.h"
#include "check/branch_changes.h"
#include "check/compare.h"
#include "check/debug_bundle.h"
#include "check/divergence.h"
#include "check/dynamic_sizes.h"
#include "check/frozen_sizes.h"
#include "check/npz_writer.h"
#include "check/random_outputs.h"
#include "check/structure_check.h"
#include "check/tract_cli.h"
#include "check/tract_readings.h"
#include "interp/interpreter.h"
#include "interp/quant.h"
#include "jit/graph_runner.h"
#include "jit/torch_bridge.h"
#include "load/module_loader.h"
#include "load/npy_reader.h"
#include "reader/model_reader.h"
#include "t2n/recipe.h"
#include "target/op_catalog.h"
#include "util/strings.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>
#include <set>

namespace t2n::check {

namespace {

// The check calls forward() once or twice per export: LibTorch's profiling
// executor would spend that first call recording types for a specialised
// plan never used again (ViT-B/16: 1.28 s against 0.56 s warm). Without
// optimisation it runs the graph as loaded, as a warm call does.
std::vector<at::Tensor> referenceOutputs(const torch::jit::Module& model,
                                         const std::vector<at::Tensor>& inputs) {
    torch::NoGradGuard noGrad;
    torch::jit::GraphOptimizerEnabledGuard oneShot(false);
    std::vector<c10::IValue> args(inputs.begin(), inputs.end());
    try {
        return flattenOutputs(const_cast<torch::jit::Module&>(model).forward(args));
    } catch (const std::exception& e) {
        const auto* c10e = dynamic_cast<const c10::Error*>(&e);
        throw jit::modelRunError(Stage::Check, "the TorchScript model failed on the check inputs",
                                 c10e ? c10e->what_without_backtrace() : e.what());
    }
}

// `expected`: the model's output, for the note on one that is all zeros
// (outputs only: compare() also runs for every intermediate value).
OutputComparison toReport(const std::string& name, const Comparison& c,
                          const at::Tensor& expected) {
    OutputComparison o;
    o.name = name;
    o.ok = c.ok;
    o.elements = c.elements;
    o.mismatches = c.mismatches;
    o.mismatchRatio = c.mismatchRatio;
    o.maxAbsError = c.maxAbsError;
    o.maxRelError = c.maxRelError;
    if (c.hasWorst) {
        o.worstIndex = c.worstIndex;
        o.expected = c.worstExpected;
        o.got = c.worstGot;
    }
    o.note = !c.shapeMismatch.empty() ? c.shapeMismatch : c.dtypeMismatch;
    if (c.ok && o.note.empty() && everyValueZero(expected))
        o.note = "every value the model gives here is 0 for the check's inputs, so this match "
                 "cannot tell the archive from one that outputs zeros; check again with other "
                 "input values (--input NAME=@FILE.npy)";
    return o;
}

// Variables are data, not arithmetic: each .dat must hold exactly the bytes
// the exporter meant to write, whatever the tolerance.
std::optional<Divergence> firstVariableDifference(const CheckInputs& in,
                                                  const nnef::LoadedModel& loaded) {
    for (const auto& v : in.exported) {
        auto it = loaded.tensors.find(v.label);
        if (it == loaded.tensors.end())
            continue; // the structural check reports missing files
        const TensorData& got = it->second;
        if (got.identity() == v.data->identity() && got.shape() == v.data->shape() &&
            got.dtype() == v.data->dtype())
            continue; // the reader matched the file to these very bytes as it streamed
        std::string why;
        const TensorData& exported = *v.data;
        if (got.dtype() != exported.dtype() || got.shape() != exported.shape()) {
            why = fmt::format("{} [{}] in the archive, {} [{}] exported", dtypeName(got.dtype()),
                              fmt::join(got.shape(), ", "), dtypeName(exported.dtype()),
                              fmt::join(exported.shape(), ", "));
        } else {
            auto a = exported.bytes(), b = got.bytes();
            for (int64_t i = 0; why.empty() && i < got.numel(); ++i) {
                const size_t w = dtypeBits(got.dtype()) / 8;
                if (std::memcmp(a.data() + i * w, b.data() + i * w, w) != 0)
                    why = fmt::format("element {} is {} in the archive but {} in the model", i,
                                      got.asDouble(i), exported.asDouble(i));
            }
        }
        if (why.empty())
            continue;
        Divergence d;
        d.identifier = v.identifier;
        d.operation = "variable";
        d.detail = fmt::format("'{}.dat' ({}): {}", v.label,
                               v.origin == "parameter" ? "a model parameter" : v.from, why);
        // The parameter (or folded constant) the variable holds.
        const std::string source = v.origin == "parameter" && !v.from.empty() ? v.from : v.label;
        d.node.kind = v.origin == "parameter" ? "parameter" : "constant";
        d.node.valueName = source;
        if (auto dot = source.rfind('.'); v.origin == "parameter" && dot != std::string::npos)
            d.node.modulePath = source.substr(0, dot);
        for (const auto& a : loaded.document.graph.body)
            if (a.lhs && a.lhs->kind == nnef::ast::Expr::Kind::Identifier &&
                a.lhs->text == v.identifier)
                d.nnefLine = a.loc.line;
        return d;
    }
    return std::nullopt;
}

// Whether graph.quant has an entry for a computed tensor (not only for
// stored weights): the archive computes on quantized activations.
bool hasQuantizedActivations(const interp::QuantTable& quant, const nnef::LoadedModel& model) {
    for (const auto& a : model.document.graph.body)
        if (a.lhs->kind == nnef::ast::Expr::Kind::Identifier && quant.count(a.lhs->text) &&
            !(a.rhs->kind == nnef::ast::Expr::Kind::Invocation && a.rhs->text == "variable"))
            return true;
    return false;
}

// Whether the model holds a dynamically quantized linear (alone, or as the
// gates of quantize_dynamic's LSTM/GRU): it quantizes its
// input on the input's own range at every call, so a difference of an ulp
// before it can move an input value by a whole step of that grid, and the
// outputs of a deep model may differ by more than any float tolerance
// although every operation computes what PyTorch computes.
bool requantizesPerCall(const CheckInputs& in) {
    if (!in.prepared || !in.prepared->graph)
        return false;
    static const auto dynamicLinear = c10::Symbol::fromQualString("quantized::linear_dynamic");
    static const auto dynamicGru = c10::Symbol::fromQualString("aten::quantized_gru");
    static const auto dynamicLstm = c10::Symbol::fromQualString("aten::quantized_lstm");
    for (const torch::jit::Node* n : in.prepared->graph->nodes())
        if (n->kind() == dynamicLinear || n->kind() == dynamicGru || n->kind() == dynamicLstm)
            return true;
    return false;
}

// Both targets are checked at the tolerance asked for (approximate by
// default). The Khronos target used to default to torch.allclose's bounds as
// torch_to_nnef's KhronosNNEF does, but atol 1e-8 rejects deep f32 networks
// that Khronos NNEF-Tools' own interpreter runs within 4e-7 (a DenseNet);
// `--tolerance allclose` keeps the strict comparison.
Tolerance toleranceFor(const ExportOptions& options) {
    return Tolerance::parse(options.checkTolerance);
}

// Why tier 2 does not run tract on a Khronos archive: tract is not a Khronos
// 1.0.5 reader. It lacks standard operations such an archive may hold
// (constant, gather, cast, rcp, split) and reads others its own way (pools
// never count padding, elu has no alpha), so its verdict would be about
// tract, not about the archive.
constexpr std::string_view kTractSkippedForKhronos =
    "skipped (Khronos target: tract is not a Khronos NNEF 1.0.5 reader; it lacks the standard "
    "constant, gather and cast operations. The reference interpreter ran the archive in "
    "Khronos mode instead)";

} // namespace

std::vector<at::Tensor> flattenOutputs(const c10::IValue& result) {
    std::vector<at::Tensor> out;
    jit::flattenTensors(result, out);
    // A quantized output (no DeQuantStub) is compared as the real numbers it
    // holds, like every quantized tensor of the check (interp/quant.h).
    // A complex output is compared as t2n writes it: a trailing axis of 2.
    for (auto& t : out)
        if (t.is_quantized())
            t = t.dequantize();
        else
            t = jit::realView(t);
    return out;
}

namespace {

// Whether the archive declares `registry` (extension tract_registry X;).
bool declaresRegistry(const nnef::ast::Document& doc, std::string_view registry) {
    for (const auto& e : doc.extensions) {
        const auto words = util::split(e.text, ' ');
        if (words.size() >= 2 && words[0] == "tract_registry" &&
            target::canonicalRegistry(words[1]) == registry)
            return true;
    }
    return false;
}

// What the tiers share: the request, the report they fill, and how to log,
// report progress and poll for a cancel.
struct CheckRun {
    const CheckInputs& in;
    const ExportOptions& options;
    const bool khronos;
    Tolerance tolerance;
    CheckReport report;
    /// The outputs that depend on a random draw (read from the archive).
    RandomDependence random;
    /// Per such output: the independent values its comparison counts on
    /// (tier 1 measures them; tier 2 compares tract's outputs with them).
    std::map<std::string, int64_t> independent;
    /// The registries tract must load to run the archive.
    bool usesOnnx = false, usesResource = false;

    void log(LogLevel l, const std::string& m) const {
        if (in.log)
            in.log(l, m);
    }
    // Reports progress and stops here when asked to.
    void step(double fraction, const std::string& status) const {
        if (in.cancelled && in.cancelled())
            throw Error(Stage::Check, ErrorCode::Cancelled, "export cancelled",
                        "the check stopped before " + status);
        if (in.progress)
            in.progress(fraction, status);
    }
};

// The archive as read back, ready to run. The interpreter refers to
// `loaded`: the pair stays where it was made.
struct ReadBack {
    nnef::LoadedModel loaded;
    std::optional<interp::Interpreter> interpreter;

    ReadBack() = default;
    ReadBack(ReadBack&&) = delete;
};

// Tier 0: read back with the independent reader; structural rules. Problems
// go into the report; false when the archive cannot run.
bool readBack(CheckRun& run, ReadBack& back) {
    const nnef::ReadMode readMode = run.khronos ? nnef::ReadMode::Strict : nnef::ReadMode::Tract;
    run.step(0, "reading the archive back");
    // The tensors just written: each .dat is compared with its tensor as it
    // streams, and read as that tensor when equal, so that the archive is
    // never held in memory beside the model it came from.
    std::map<std::string, TensorData> written;
    for (const auto& v : run.in.exported)
        written.emplace(v.label, *v.data);
    try {
        nnef::ReadOptions readOptions;
        readOptions.mode = readMode;
        readOptions.known = &written;
        back.loaded = nnef::readModel(run.in.artifact, readOptions);
        run.report.graphText = back.loaded.graphText;
    } catch (const Error& e) {
        if (e.code() == ErrorCode::Cancelled)
            throw;
        run.report.readable = false;
        run.report.structureProblems.push_back(e.render());
        return false;
    }
    for (const auto& p : checkStructure(back.loaded, readMode)) {
        if (p.severity == Problem::Severity::Error)
            run.report.structureProblems.push_back(formatProblem(p));
        else
            run.log(LogLevel::Debug, formatProblem(p));
    }
    try {
        interp::InterpreterOptions interpOptions;
        interpOptions.mode = run.khronos ? interp::TargetMode::Khronos : interp::TargetMode::Tract;
        interpOptions.readings = tractReadings(
            target::SemVer::parse(run.options.target.version.empty() ? knownTractVersions().back()
                                                                     : run.options.target.version));
        back.interpreter.emplace(back.loaded, interpOptions);
    } catch (const Error& e) {
        run.report.structureProblems.push_back(e.render());
    }
    if (!run.report.structureProblems.empty())
        return false;
    return true;
}

// What tier 1 fed the archive and what TorchScript answered: tier 2 hands
// the same to tract.
struct Compared {
    std::map<std::string, at::Tensor> nnefInputs;
    std::vector<at::Tensor> expected;
    bool ok = false;
};

std::vector<at::Tensor> clones(const std::vector<at::Tensor>& ts) {
    std::vector<at::Tensor> out;
    for (const auto& t : ts)
        out.push_back(t.clone());
    return out;
}

double since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// An output that depends on a random draw, compared by distribution
// (compare.h): `got` from a run that recorded the draws (RunOptions::record),
// whose sizes bound the independent values.
OutputComparison byDistribution(CheckRun& run, const nnef::ast::Document& doc,
                                const std::string& output, const std::string& shown,
                                const at::Tensor& expected, const at::Tensor& got,
                                const interp::RunResult& result) {
    const std::vector<size_t>& draws = run.random.outputs.at(output);
    int64_t independent = got.numel();
    for (size_t d : draws)
        for (const auto& v : result.values)
            if (v.name == run.random.draws[d].identifier)
                independent = std::min(independent, v.value.numel());
    run.independent.emplace(output, independent); // the example inputs' run
    const DistributionComparison c = compareDistributions(expected, got, independent);
    OutputComparison o;
    o.name = shown;
    o.ok = c.ok;
    o.elements = c.elements;
    o.distribution = c.figures;
    o.distribution.source = describeDraw(run.random.draws[draws.front()], doc, run.in.manifest);
    o.note = fmt::format("compared by shape, dtype, range and moments: it depends on a random "
                         "draw ({}); {}",
                         o.distribution.source, c.summary());
    return o;
}

// Tier 1: the reference interpreter against the TorchScript model, at the
// example inputs and at a second size of every dynamic axis; on a mismatch,
// the first diverging operation.
Compared compareWithInterpreter(CheckRun& run, ReadBack& back) {
    const CheckInputs& in = run.in;
    const ExportOptions& options = run.options;
    const CheckManifest& doc = *in.manifest;
    CheckReport& report = run.report;
    Compared out;
    const std::vector<at::Tensor> inputs =
        in.exampleInputs.empty() ? load::makeExampleInputs(options.inputs, options.seed)
                                 : in.exampleInputs;
    // --compute f16: the archive is fed the f32 example inputs rounded to
    // f16; the model keeps them in f32.
    auto forArchive = [&](const at::Tensor& t) {
        return options.compute == DType::F16 && t.scalar_type() == at::kFloat ? t.to(at::kHalf) : t;
    };
    for (size_t k = 0; k < doc.inputs.size(); ++k)
        out.nnefInputs[doc.inputs[k]] = forArchive(inputs.at(doc.inputIndices.at(k)));
    // The reference is the model as loaded, never the trace's run of the
    // hardened graph: that run would share any hardening bug it should judge.
    run.step(0.2, "running the TorchScript model");
    ReferenceRun reference =
        in.reference.valid() ? in.reference.get() : runReference(*in.model, inputs);
    out.expected = std::move(reference.outputs);
    report.torchForwardSeconds = reference.seconds;
    run.step(0.4, "running the archive with the reference interpreter");
    interp::Interpreter::RunOptions runOptions;
    runOptions.captureFailure = true;
    const std::vector<std::string> drawNames = run.random.drawIdentifiers();
    const std::set<std::string> draws(drawNames.begin(), drawNames.end());
    runOptions.record = &draws;
    const auto timer = std::chrono::steady_clock::now();
    interp::RunResult result = back.interpreter->run(out.nnefInputs, runOptions);
    report.interpreterSeconds = since(timer);
    const std::vector<at::Tensor>& expected = out.expected;
    // Outputs named otherwise than this translation names them (an archive
    // exported with other --output-name values) cannot be compared.
    for (const auto& name : doc.outputs)
        if (!result.failure && !result.outputs.count(name)) {
            std::vector<std::string> present;
            for (const auto& [k, v] : result.outputs)
                present.push_back(k);
            report.structureProblems.push_back(fmt::format(
                "the archive has no output named '{}' (its outputs: {}); give the names it was "
                "exported with (--output-name)",
                name, fmt::join(present, ", ")));
            out.ok = false;
            return out;
        }
    bool allOk = !result.failure && expected.size() == doc.outputs.size();
    if (expected.size() != doc.outputs.size())
        report.structureProblems.push_back(
            fmt::format("the model returns {} tensors but the NNEF graph has {} outputs",
                        expected.size(), doc.outputs.size()));
    for (size_t i = 0; !result.failure && i < doc.outputs.size() && i < expected.size(); ++i) {
        if (run.random.outputs.count(doc.outputs[i])) {
            report.outputs.push_back(byDistribution(run, back.loaded.document, doc.outputs[i],
                                                    doc.outputs[i], expected[i],
                                                    result.outputs.at(doc.outputs[i]), result));
            allOk = allOk && report.outputs.back().ok;
            continue;
        }
        // A dequantized output is as exact as its quantized source: tract's
        // approximate bound for quantized tensors is one step (atol = scale);
        // rtol 1e-6 only absorbs f32 rounding of grid values.
        const double quantStep =
            run.tolerance.level == ToleranceLevel::Approximate
                ? interp::dequantizedStep(back.loaded, doc.outputs[i]).value_or(0.0)
                : 0.0;
        Comparison c =
            compare(expected[i], result.outputs.at(doc.outputs[i]),
                    quantStep > 0 ? Tolerance::makeCustom(quantStep, 1e-6, 0) : run.tolerance);
        report.outputs.push_back(toReport(doc.outputs[i], c, expected[i]));
        if (quantStep > 0) {
            OutputComparison& o = report.outputs.back();
            if (o.note.empty())
                o.note = fmt::format(
                    "quantized output: tolerance one quantization step, atol = {:.6g}", quantStep);
            const StepCount steps =
                countSteps(expected[i], result.outputs.at(doc.outputs[i]), quantStep);
            o.quantStep = quantStep;
            o.maxErrorSteps = steps.maxSteps;
            o.offByOne = steps.offByOne;
            o.offByMore = steps.offByMore;
        }
        allOk = allOk && c.ok;
    }
    // Dynamic exports run again at a second size of every symbolic axis;
    // those comparisons are reported as "<output> @ B=3".
    bool sizesOk = true; // the comparisons at other sizes of dynamic axes
    const bool atExampleOk = allOk;
    std::set<std::string> exampleOnly;
    for (const auto& p : in.probes)
        if (p.second == 0)
            exampleOnly.insert(p.name);
    std::map<std::string, int64_t> checkedAt; // symbol -> the second size compared
    std::map<std::string, int64_t> examples;
    std::string refusal; // the model's words when it refuses the second size here
    for (const auto& p : in.probes)
        examples[p.name] = p.example;
    for (const auto& sized : otherSizes(options, in.secondSizes, exampleOnly)) {
        examples.insert(sized.examples.begin(), sized.examples.end());
        auto other = load::makeExampleInputs(sized.specs, options.seed + 1);
        std::map<std::string, at::Tensor> feed;
        for (size_t k = 0; k < doc.inputs.size(); ++k)
            feed[doc.inputs[k]] = forArchive(other.at(doc.inputIndices.at(k)));
        // A size the model refuses proves nothing about the archive: the
        // check stays at the example size, and says so (a model checked with
        // no trace, by `t2n check`, gets the example size + 1).
        std::vector<at::Tensor> want;
        try {
            want = referenceOutputs(*in.model, clones(other));
        } catch (const Error& e) {
            if (e.code() != ErrorCode::ModelRun)
                throw;
            constexpr std::string_view said = "the TorchScript model failed on the check inputs: ";
            refusal = e.message().starts_with(said) ? e.message().substr(said.size()) : e.message();
            continue;
        }
        checkedAt = sized.sizes;
        interp::RunResult got = back.interpreter->run(feed, runOptions);
        bool sizedOk = !got.failure;
        if (got.failure)
            report.structureProblems.push_back(fmt::format("at {}: the interpreter failed: {}",
                                                           sized.label, got.failure->message()));
        for (size_t i = 0; !got.failure && i < doc.outputs.size() && i < want.size(); ++i) {
            const std::string shown = doc.outputs[i] + " @ " + sized.label;
            if (run.random.outputs.count(doc.outputs[i]))
                report.outputs.push_back(byDistribution(run, back.loaded.document, doc.outputs[i],
                                                        shown, want[i],
                                                        got.outputs.at(doc.outputs[i]), got));
            else
                report.outputs.push_back(
                    toReport(shown, compare(want[i], got.outputs.at(doc.outputs[i]), run.tolerance),
                             want[i]));
            sizedOk = sizedOk && report.outputs.back().ok;
        }
        allOk = allOk && sizedOk;
        sizesOk = sizesOk && sizedOk;
        if (!sizedOk) {
            const std::string branches =
                describeBranchChanges(branchChanges(*in.model, inputs, other), sized.label);
            if (!branches.empty()) {
                report.structureProblems.push_back(branches);
                run.log(LogLevel::Warn, branches);
            }
        }
        if (!sizedOk && in.frozen && in.frozen->empty()) {
            run.step(0.5, "finding where the sizes froze");
            try {
                *in.frozen = findFrozenSizes(in, *back.interpreter, sized, feed, other, inputs);
            } catch (const Error& e) {
                if (e.code() == ErrorCode::Cancelled)
                    throw;
                run.log(LogLevel::Warn, "could not find where the sizes froze: " + e.message());
            }
        }
    }
    for (const auto& [symbol, example] : examples) {
        const ir::SymbolProbe* probe = nullptr;
        for (const auto& p : in.probes)
            probe = p.name == symbol ? &p : probe;
        const auto at = checkedAt.find(symbol);
        report.dynamicSizes.push_back(describeSymbolCheck(
            symbol, example, probe, at == checkedAt.end() ? 0 : at->second, refusal));
        run.log(report.dynamicSizes.back().second == 0 ? LogLevel::Warn : LogLevel::Info,
                report.dynamicSizes.back().words);
    }
    run.step(0.6, "comparing the outputs");
    // Graphs with quantized activations are judged operation by operation
    // (docs/quantized.md): tract and PyTorch round requantizations
    // differently near ties, and one step at one operation may become
    // several at the outputs. The outputs' figures in steps stay in the
    // report; the verdict is the criterion's.
    const interp::QuantTable quant = interp::readQuantTable(back.loaded.quant);
    const bool quantized = !result.failure && run.tolerance.level == ToleranceLevel::Approximate &&
                           hasQuantizedActivations(quant, back.loaded);
    if (auto d = firstVariableDifference(in, back.loaded)) {
        allOk = false;
        report.diverged = true;
        report.divergence = *d;
    } else if (quantized) {
        run.step(0.65, "comparing every quantized operation");
        ValueScan values =
            scanValues(in, *back.interpreter, out.nnefInputs, inputs, run.tolerance, &quant);
        report.quantized = values.quantized;
        if (options.checkEveryValue)
            report.valueErrors = std::move(values.values);
        const bool outputsOk = allOk;
        allOk = report.quantized.passed && sizesOk && expected.size() == doc.outputs.size() &&
                report.structureProblems.empty();
        if (!report.quantized.passed && values.first) {
            report.diverged = true;
            report.divergence = *values.first;
        } else if (!outputsOk) {
            double steps = 0;
            for (const auto& o : report.outputs)
                steps = std::max(steps, o.maxErrorSteps);
            run.log(LogLevel::Warn,
                    fmt::format("the outputs differ from the model's by up to {:.3g} "
                                "quantization steps, but every quantized operation fed the "
                                "model's operands is within its bound ({} of {} values exact): "
                                "the difference accumulates over the graph",
                                steps, report.quantized.exact, report.quantized.values));
        }
    } else if (options.checkEveryValue) {
        run.step(0.65, "comparing every value");
        ValueScan values = scanValues(in, *back.interpreter, out.nnefInputs, inputs, run.tolerance);
        report.valueErrors = std::move(values.values);
        if (!allOk && values.first) {
            report.diverged = true;
            report.divergence = *values.first;
        }
    } else if (!allOk && !atExampleOk) {
        // (When only the other sizes failed, a search at the example's sizes
        // finds nothing: "where a size froze" says what did.)
        // Only outputs that depend on a draw differ: no operation fed the
        // model's sample can show why, the draw itself does (their notes).
        const bool onlyDraws =
            report.structureProblems.empty() && !result.failure &&
            std::all_of(report.outputs.begin(), report.outputs.end(),
                        [](const OutputComparison& o) { return o.ok || o.distribution.applied; });
        if (onlyDraws) {
            run.log(LogLevel::Warn, "only outputs that depend on a random draw differ, by "
                                    "distribution: the archive draws other values than the "
                                    "model's (see their notes)");
        } else if (auto found = findDivergence(in, *back.interpreter, out.nnefInputs, inputs,
                                               run.tolerance, quant.empty() ? nullptr : &quant)) {
            report.diverged = true;
            report.divergence = *found;
        } else if (requantizesPerCall(in) && sizesOk && report.structureProblems.empty() &&
                   !result.failure && expected.size() == doc.outputs.size() &&
                   run.tolerance.level == ToleranceLevel::Approximate) {
            // Judged operation by operation, as graphs with quantized
            // activations are (docs/quantized.md).
            allOk = true;
            run.log(LogLevel::Warn,
                    "the outputs differ from the model's, but every operation fed the model's "
                    "operands is within the tolerance: the model's dynamically quantized "
                    "linears choose their input's grid on every call, so a difference of an "
                    "ulp before one can move a value by a whole step (judged operation by "
                    "operation, docs/quantized.md)");
        } else {
            run.log(LogLevel::Warn,
                    "no single operation differs beyond the tolerance when fed "
                    "TorchScript's values: the difference accumulates over the graph "
                    "(a looser --tolerance may be what this model needs)");
        }
    }
    out.ok = allOk;
    return out;
}

// The inputs and TorchScript's outputs as tract's --input-facts-from-bundle
// reads them (and the debug bundle keeps them).
void writeIoBundle(const CheckRun& run, const Compared& compared,
                   const std::filesystem::path& npz) {
    const CheckManifest& doc = *run.in.manifest;
    std::vector<NpzEntry> io;
    for (const auto& [name, t] : compared.nnefInputs)
        io.push_back({name, t});
    // An output that depends on a random draw has no values to assert: tract
    // is told to allow it missing, and its outputs are compared afterwards.
    for (size_t i = 0; i < doc.outputs.size() && i < compared.expected.size(); ++i)
        if (!compared.nnefInputs.count(doc.outputs[i]) && !run.random.outputs.count(doc.outputs[i]))
            io.push_back({doc.outputs[i], compared.expected[i]});
    writeNpz(npz, io);
}

std::vector<std::string> randomOutputs(const CheckRun& run) {
    std::vector<std::string> out;
    for (const auto& name : run.in.manifest->outputs)
        if (run.random.outputs.count(name))
            out.push_back(name);
    return out;
}

// tract's own draws against the model's, by distribution, from the outputs
// tract saved: a failure turns the tract verdict into a failure.
void compareTractDraws(CheckRun& run, const Compared& compared, TractCheckResult& tr,
                       const std::filesystem::path& saved) {
    const CheckManifest& doc = *run.in.manifest;
    std::vector<std::string> failures;
    int checked = 0;
    for (size_t i = 0; i < doc.outputs.size() && i < compared.expected.size(); ++i) {
        const std::string& name = doc.outputs[i];
        if (!run.random.outputs.count(name))
            continue;
        at::Tensor got;
        try {
            got = jit::toTensor(load::readNpzMember(saved, name)).clone();
        } catch (const Error& e) {
            failures.push_back(
                fmt::format("'{}' is not among the outputs tract saved: {}", name, e.message()));
            continue;
        }
        auto n = run.independent.find(name);
        const DistributionComparison c = compareDistributions(
            compared.expected[i], got, n == run.independent.end() ? 0 : n->second);
        ++checked;
        if (!c.ok)
            failures.push_back(fmt::format("'{}': {}", name, c.summary()));
    }
    if (!failures.empty()) {
        tr.status = TractStatus::Failed;
        tr.summary = fmt::format("tract: failed (its random draws differ from the model's by "
                                 "distribution: {})",
                                 util::join(failures, "; "));
        tr.hint = "a debug bundle's run.sh replays this command on another machine";
    } else {
        tr.summary += fmt::format("; {} output{} that depend{} on a random draw compared by "
                                  "shape, dtype, range and moments",
                                  checked, checked == 1 ? "" : "s", checked == 1 ? "s" : "");
    }
}

// Tier 2: the tract CLI, when there is one (tract archives only).
TractCheckResult runTract(CheckRun& run, const Compared& compared,
                          const std::filesystem::path& npz) {
    TractCheckResult tr;
    if (run.khronos) {
        tr.summary = fmt::format("tract: {}", kTractSkippedForKhronos);
        run.report.tract = tr.summary;
        return tr;
    }
    TractCheckOptions tract;
    tract.tractBin = run.options.tractBinary;
    tract.archive = std::filesystem::absolute(run.in.artifact);
    tract.ioBundle = npz;
    tract.tolerance = run.tolerance;
    tract.cancelled = run.in.cancelled;
    tract.usesResource = run.usesResource;
    tract.usesOnnx = run.usesOnnx;
    tract.missingOutputs = randomOutputs(run);
    if (!tract.missingOutputs.empty())
        tract.saveOutputs = npz.parent_path() / "tract_outputs.npz";
    tr = runTractCheck(tract);
    if (tr.process.cancelled)
        throw Error(Stage::Check, ErrorCode::Cancelled, "export cancelled",
                    "the check stopped while tract ran; tract was killed");
    if (tr.status == TractStatus::Passed && !tract.saveOutputs.empty())
        compareTractDraws(run, compared, tr, tract.saveOutputs);
    run.report.tract = tr.summary;
    if (!tr.command.empty())
        run.report.tractCommand = fmt::format("{}", fmt::join(tr.command, " "));
    for (const auto& w : tr.warnings)
        run.log(LogLevel::Warn, "tract: " + w);
    return tr;
}

// What a failed check leaves for whoever debugs it: the archive, the io
// bundle, the reports, the hardened graph and a recipe that reopens it.
void writeBundle(CheckRun& run, const TractCheckResult& tr, const std::filesystem::path& npz) {
    const CheckInputs& in = run.in;
    const ExportOptions& options = run.options;
    DebugBundle b;
    b.modelArchive = in.artifact;
    b.modelName = bundledModelName(
        std::filesystem::is_directory(in.artifact) || in.shownArtifact.empty() ? in.artifact
                                                                               : in.shownArtifact);
    b.ioNpz = npz;
    b.tract.tolerance = run.tolerance;
    if (tr.version.empty())
        b.tract.version = target::SemVer::parse(
            options.target.version.empty() ? knownTractVersions().back() : options.target.version);
    else
        b.tract.version = target::SemVer::parse(tr.version);
    b.tract.usesOnnx = run.usesOnnx;
    b.tract.usesResource = run.usesResource;
    b.tract.missingOutputs = randomOutputs(run);
    b.tractProgram = tr.tractPath;
    b.reportJson = in.reportJson ? in.reportJson() : std::string("{}");
    std::ostringstream hardened;
    hardened << *in.prepared->graph;
    b.hardenedGraph = hardened.str();
    if (run.report.diverged)
        b.divergenceJson = run.report.divergence.toJson();
    b.manifestJson = in.manifest->toJson();
    if (!in.modelFile.empty()) {
        ExportRecipe recipe{std::filesystem::absolute(in.modelFile), b.modelName, options, {}};
        recipe.options.debugBundle.clear(); // opened again, it checks; it writes no bundle
        b.recipeJson = toJson(recipe);
    }
    writeDebugBundle(options.debugBundle, b);
    run.report.debugBundle = options.debugBundle;
}

} // namespace

ReferenceRun runReference(const torch::jit::Module& model, const std::vector<at::Tensor>& inputs) {
    const auto start = std::chrono::steady_clock::now();
    ReferenceRun run;
    run.outputs = referenceOutputs(model, clones(inputs));
    run.seconds = since(start);
    return run;
}

CheckReport runCheck(const CheckInputs& in) {
    const auto start = std::chrono::steady_clock::now();
    const ExportOptions& options = *in.options;
    CheckRun run{in,
                 options,
                 options.target.kind == TargetKind::Khronos,
                 toleranceFor(options),
                 CheckReport{},
                 RandomDependence{},
                 {}};
    run.report.ran = true;
    run.report.tolerance = run.tolerance.str();
    // What the report says names the artifact as the user knows it.
    auto shown = [&](std::string text) {
        const std::string from = in.artifact.string();
        const std::string to = in.shownArtifact.empty() ? from : in.shownArtifact.string();
        for (size_t at = 0; !from.empty() && (at = text.find(from, at)) != std::string::npos;
             at += to.size())
            text.replace(at, from.size(), to);
        return text;
    };
    auto finish = [&]() {
        CheckReport& report = run.report;
        for (auto& p : report.structureProblems)
            p = shown(p);
        report.tractCommand = shown(report.tractCommand);
        report.tract = shown(report.tract);
        report.seconds = since(start);
        return report;
    };

    ReadBack back;
    if (!readBack(run, back))
        return finish();
    run.random = randomDependence(back.loaded.document);
    run.usesOnnx = declaresRegistry(back.loaded.document, "tract_onnx");
    run.usesResource = declaresRegistry(back.loaded.document, "tract_resource");
    const Compared compared = compareWithInterpreter(run, back);

    run.step(0.8, run.khronos ? "writing the io bundle" : "running tract");
    // A fresh private folder per check: a name made from the pid alone was
    // shared by every check of the process (threads exporting at once) and
    // could be planted beforehand as a link to anywhere. Noted for a
    // watchdog that must end the process now.
    const std::filesystem::path work = archive::makePrivateTempFolder("t2n-check-", Stage::Check);
    // Removed however the check ends (a cancel, a failing tract run).
    struct RemoveWork {
        std::filesystem::path path;
        ~RemoveWork() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    } removeWork{work};
    const auto npz = work / "io.npz";
    writeIoBundle(run, compared, npz);
    const TractCheckResult tr = runTract(run, compared, npz);
    run.report.passed = compared.ok && !tr.failed() && run.report.structureProblems.empty();

    if (!run.report.passed && !options.debugBundle.empty())
        writeBundle(run, tr, npz);
    run.step(1, "done");
    return finish();
}

} // namespace t2n::check
