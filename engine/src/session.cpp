#include "t2n/session.h"

#include "archive/write_document.h"
#include "check/archive_names.h"
#include "check/check_stage.h"
#include "check/semantic_bisect.h"
#include "harden/bind_arguments.h"
#include "harden/default_arguments.h"
#include "harden/explicit_state.h"
#include "harden/harden.h"
#include "ir/ir_builder.h"
#include "ir/naming.h"
#include "ir/trace_stage.h"
#include "jit/graph_runner.h"
#include "jit/torch_bridge.h"
#include "load/example_values.h"
#include "load/input_proposal.h"
#include "load/module_loader.h"
#include "load/weight_compression.h"
#include "nnef/q4_0.h"
#include "translate/check_manifest.h"
#include "translate/provenance_build.h"
#include "translate/translator.h"
#include "util/name_limits.h"

#include "t2n/large_stack.h"

#include <ATen/Parallel.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <future>
#include <optional>
#include <sstream>
#include <sys/resource.h>
#include <tuple>

namespace t2n {

namespace {
// Times a stage and tells the observer; the report gets the timing.
class StageScope {
public:
    StageScope(Stage s, Observer* o, ExportReport& r)
        : stage_(s), observer_(o), report_(r), start_(std::chrono::steady_clock::now()) {
        if (observer_)
            observer_->stageStarted(stage_);
    }
    ~StageScope() {
        double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        report_.timings.push_back({stage_, secs, static_cast<double>(usage.ru_maxrss) / 1024.0});
        if (observer_)
            observer_->stageFinished(stage_, secs);
    }

private:
    Stage stage_;
    Observer* observer_;
    ExportReport& report_;
    std::chrono::steady_clock::time_point start_;
};

std::string graphText(const std::shared_ptr<torch::jit::Graph>& g) {
    std::ostringstream os;
    os << *g;
    return os.str();
}
} // namespace

struct Session::Impl {
    Observer* observer = nullptr;
    /// The model's file; empty for a module loaded from memory.
    std::filesystem::path modelPath;
    /// Its file name (or the name given with the bytes): exported_model.
    std::string modelName;
    std::optional<torch::jit::Module> module;
    std::optional<harden::PreparedModule> prepared;
    /// Weights rounded through Q4_0 for the current options (--weights-q4-0).
    load::CompressedWeights compressed;
    std::optional<ir::Graph> graph;
    /// The options `prepared`, `graph` and `translation` were made with, each
    /// set once its stage succeeded: an export with the same options reuses
    /// the first two (the studio prepares on open, then exports), a check
    /// under other names translates again.
    std::optional<ExportOptions> hardenedWith, tracedWith, translatedWith;
    /// Hardened with example inputs, as tracing needs.
    bool hardenedWithInputs() const { return hardenedWith && !hardenedWith->inputs.empty(); }
    std::vector<const torch::jit::Value*> jitValues; // per IR value id
    // forward()'s outputs as the trace computed them, and on which inputs.
    std::optional<translate::Translation> translation;
    /// The translation's manifest, or one read beside a checked archive.
    std::optional<CheckManifest> manifest;
    ExportReport report;
    /// The example inputs, made once per (specs, seed): values read from
    /// files are read once, random ones drawn once.
    struct Examples {
        std::vector<InputSpec> specs;
        uint64_t seed = 0;
        std::vector<at::Tensor> tensors;
    };
    std::optional<Examples> examples;
    /// The check's reference forward, started beside the write stage, and
    /// the inputs it ran on (the check uses it only for the same ones).
    struct PendingReference {
        std::vector<InputSpec> specs;
        uint64_t seed = 0;
        std::shared_future<check::ReferenceRun> run;
    };
    std::optional<PendingReference> reference;
    void startReference(const ExportOptions& options);

    /// Each stage gets its own copy: a forward() that writes into its input
    /// must not change what the next stage runs on.
    std::vector<at::Tensor> exampleInputs(const std::vector<InputSpec>& specs, uint64_t seed) {
        if (!examples || examples->specs != specs || examples->seed != seed)
            examples = Examples{specs, seed, load::makeExampleInputs(specs, seed)};
        std::vector<at::Tensor> copies;
        for (const auto& t : examples->tensors)
            copies.push_back(t.clone());
        return copies;
    }

    /// The model the stages export for the given specs: the loaded one, or
    /// a copy with the non-tensor arguments' values bound as constants and
    /// the state forward() keeps in attributes made explicit inputs and
    /// outputs; made once per (specs, seed).
    struct Exported {
        std::vector<InputSpec> specs;
        uint64_t seed = 0;
        std::optional<harden::BoundArguments> arguments;
        std::optional<harden::ExplicitState> state;
    };
    std::optional<Exported> exported;
    const Exported& exportedFor(const ExportOptions& options) {
        if (exported && exported->specs == options.inputs && exported->seed == options.seed)
            return *exported;
        Exported e{options.inputs, options.seed, {}, {}};
        e.arguments = harden::bindNonTensorArguments(requireModule(), options.inputs);
        const auto& tensorSpecs = e.arguments ? e.arguments->tensorSpecs : options.inputs;
        if (!tensorSpecs.empty())
            e.state = harden::makeStateExplicit(e.arguments ? e.arguments->module : requireModule(),
                                                tensorSpecs,
                                                load::makeExampleInputs(tensorSpecs, options.seed));
        exported = std::move(e);
        return *exported;
    }
    const torch::jit::Module& exportedModule(const ExportOptions& options) {
        const Exported& e = exportedFor(options);
        return e.state ? e.state->module : e.arguments ? e.arguments->module : requireModule();
    }
    /// `options` for the exported module: the specs (and names) of the
    /// arguments it takes, and names for the state's outputs.
    ExportOptions exportedOptions(const ExportOptions& options) {
        const Exported& e = exportedFor(options);
        ExportOptions out = options;
        if (e.arguments) {
            out.inputs = e.arguments->tensorSpecs;
            if (options.inputNames.size() == options.inputs.size()) {
                out.inputNames.clear();
                for (size_t i = 0, k = 0; i < options.inputs.size(); ++i)
                    if (k < out.inputs.size() && options.inputs[i] == out.inputs[k]) {
                        out.inputNames.push_back(options.inputNames[i]);
                        ++k;
                    }
            }
        }
        if (e.state) {
            const size_t given = out.inputs.size();
            out.inputs = e.state->specs;
            if (!out.inputNames.empty() && out.inputNames.size() == given)
                out.inputNames.insert(out.inputNames.end(), e.state->names.begin(),
                                      e.state->names.end());
            if (out.outputNames.empty())
                for (size_t i = 0; i < e.state->modelOutputs; ++i)
                    out.outputNames.push_back(fmt::format("output_{}", i));
            if (out.outputNames.size() == e.state->modelOutputs)
                for (const auto& n : e.state->names)
                    out.outputNames.push_back(n + "_out");
        }
        return out;
    }

    void log(LogLevel level, const std::string& msg) {
        if (observer)
            observer->log(level, msg);
    }
    void warn(const std::string& msg) {
        report.warnings.push_back(msg);
        log(LogLevel::Warn, msg);
    }
    void checkCancel(Stage s) {
        if (observer && observer->cancelRequested())
            throw Error(s, ErrorCode::Cancelled, "export cancelled", "nothing was written");
    }
    // Polls for a cancel, then reports progress.
    void step(Stage s, double fraction, const std::string& status) {
        checkCancel(s);
        if (observer)
            observer->progress(s, fraction, status);
    }
    /// A module read from `path` (empty when it came from memory), called
    /// `name` in the report and the archive's properties.
    void adopt(torch::jit::Module m, const std::filesystem::path& path, const std::string& name) {
        module = std::move(m);
        exported.reset();
        modelPath = path;
        modelName = name;
        prepared.reset();
        graph.reset();
        hardenedWith.reset();
        tracedWith.reset();
        translatedWith.reset();
        translation.reset();
        manifest.reset();
        report.model = path.empty() ? name : path.string();
        log(LogLevel::Info, fmt::format("loaded {}", report.model));
    }
    const torch::jit::Module& requireModule() const {
        if (!module)
            throw Error(Stage::Load, ErrorCode::Internal, "no model loaded",
                        "call Session::load() first");
        return *module;
    }
};

Session::Session(Observer* observer) : d(std::make_unique<Impl>()) {
    d->observer = observer;
}
Session::~Session() = default;

void Session::load(const std::filesystem::path& model) {
    StageScope scope(Stage::Load, d->observer, d->report);
    util::checkPathText(model.native(), "model path");
    // A FIFO or a device would be read for ever (the studio hung on one).
    std::error_code ec;
    const auto status = std::filesystem::status(model, ec);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
        !std::filesystem::is_directory(status))
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("'{}' is not a TorchScript archive: it is not a regular file (a "
                                "device, FIFO or socket)",
                                model.string()),
                    "pass the .pt/.jit file written by torch.jit.save");
    d->checkCancel(Stage::Load);
    std::vector<std::string> notes;
    auto loaded = load::loadTorchScript(model, &notes);
    d->checkCancel(Stage::Load);
    d->adopt(std::move(loaded), model, model.filename().string());
    for (const auto& note : notes)
        d->warn(note);
}

void Session::load(std::istream& in, const std::string& name) {
    StageScope scope(Stage::Load, d->observer, d->report);
    d->checkCancel(Stage::Load);
    std::vector<std::string> notes;
    auto loaded = load::loadTorchScript(in, name, &notes);
    d->checkCancel(Stage::Load);
    d->adopt(std::move(loaded), {}, name);
    for (const auto& note : notes)
        d->warn(note);
}

std::string Session::torchScriptText() const {
    return graphText(d->requireModule().get_method("forward").graph());
}

std::vector<std::string> Session::forwardArgumentNames() const {
    return load::forwardArgumentNames(d->requireModule());
}

std::vector<ForwardArgument> Session::forwardSignature() const {
    std::vector<ForwardArgument> out;
    const auto& schema = d->requireModule().get_method("forward").function().getSchema();
    for (size_t i = 1; i < schema.arguments().size(); ++i) {
        const auto& arg = schema.arguments()[i];
        ForwardArgument a;
        a.name = arg.name();
        std::ostringstream type;
        type << *arg.type();
        a.type = type.str();
        if (auto t = arg.type()->cast<c10::TensorType>()) {
            a.isTensor = true;
            if (auto st = t->scalarType())
                a.dtype = jit::fromScalarType(*st);
            if (auto sizes = t->sizes().concrete_sizes())
                a.shape = *sizes;
        }
        out.push_back(std::move(a));
    }
    return out;
}

InputProposal Session::proposeInputs(const ProposalLimits& limits) {
    auto proposal = load::proposeInputs(d->requireModule(), limits, [this] {
        return d->observer && d->observer->cancelRequested();
    });
    d->log(LogLevel::Debug, fmt::format("proposed inputs ({} run(s) of forward()): {}",
                                        proposal.attempts.size(), proposal.flags()));
    for (const auto& a : proposal.attempts) {
        std::vector<std::string> flags;
        for (const auto& spec : a.specs)
            flags.push_back(spec.toString());
        d->log(LogLevel::Trace, fmt::format("  tried {} ({:.2f} s): {}", fmt::join(flags, " "),
                                            a.seconds, a.ran ? "ran" : a.error));
    }
    return proposal;
}

namespace {
// One spec per forward() argument; trailing arguments with defaults may be
// left out (hardening binds their defaults: harden/default_arguments.h).
void checkInputSpecs(const std::vector<InputSpec>& specs, const torch::jit::Module& model) {
    const std::vector<std::string> args = load::forwardArgumentNames(model);
    if (specs.size() == args.size() ||
        (specs.size() < args.size() && !harden::defaultedArguments(model, specs.size()).empty()))
        return;
    std::string expected;
    for (const auto& a : args)
        expected += fmt::format("{}--input {}:SHAPE:DTYPE", expected.empty() ? "" : " ", a);
    throw Error(Stage::Trace, ErrorCode::Usage,
                fmt::format("forward() takes {} tensor argument(s) ({}) but {} --input spec(s) "
                            "were given",
                            args.size(), fmt::join(args, ", "), specs.size()),
                "give one spec per argument, in order: " + expected);
}

} // namespace

namespace {
// Polls for a cancel before every hardening pass and reports each one done.
class CancelBetweenPasses : public harden::PassObserver {
public:
    explicit CancelBetweenPasses(Observer* observer) : observer_(observer) {}
    void beforePass(const harden::PassInfo& pass, int, const torch::jit::Graph&) override {
        if (observer_ && observer_->cancelRequested())
            throw Error(Stage::Harden, ErrorCode::Cancelled, "export cancelled",
                        fmt::format("stopped before the hardening pass {}; nothing was written",
                                    pass.name));
    }
    void afterPass(const harden::PassInfo& pass, const harden::PassRecord&,
                   const torch::jit::Graph&) override {
        // The folding group repeats an unknown number of times: count passes
        // against the table and never claim to be done.
        ++done_;
        double total = static_cast<double>(harden::passTable().size());
        if (observer_)
            observer_->progress(Stage::Harden, std::min(0.95, done_ / total),
                                std::string(pass.name));
    }

private:
    Observer* observer_;
    int done_ = 0;
};
} // namespace

void Session::harden(const ExportOptions& options) {
    util::checkNameLengths(options); // every front end, the studio's form included
    // Until this hardening succeeds, nothing may be reused (it changes the
    // module's weights first with --weights-q4-0).
    d->hardenedWith.reset();
    d->tracedWith.reset();
    StageScope scope(Stage::Harden, d->observer, d->report);
    // The passes that specialise the graph run it on the same seeded inputs
    // as trace(), so the branches they keep are the ones the recording sees.
    std::vector<at::Tensor> examples;
    if (!options.inputs.empty())
        checkInputSpecs(options.inputs, d->requireModule());
    const auto& m = d->exportedModule(options);
    const ExportOptions exported = d->exportedOptions(options);
    if (!exported.inputs.empty())
        examples = d->exampleInputs(exported.inputs, options.seed);
    const auto& made = d->exportedFor(options);
    d->report.specialisedFor = made.arguments ? made.arguments->bound : std::vector<std::string>{};
    d->report.state.clear();
    if (made.state)
        for (size_t k = 0; k < made.state->paths.size() && k < made.state->names.size(); ++k) {
            CarriedState c;
            c.attribute = made.state->paths[k];
            c.input = made.state->names[k];
            c.output = made.state->names[k] + "_out";
            const size_t spec = made.state->specs.size() - made.state->paths.size() + k;
            if (spec < made.state->specs.size()) {
                c.shape = made.state->specs[spec].shape;
                c.dtype = made.state->specs[spec].dtype;
            }
            d->report.state.push_back(std::move(c));
        }
    if (made.arguments)
        for (const auto& value : made.arguments->bound)
            d->warn(fmt::format("the archive is specialised for {}: a forward() argument that "
                                "is not a tensor is a constant of the exported graph (export "
                                "again with another --input value for another one)",
                                value));
    if (made.state)
        for (const auto& line : made.state->said)
            d->warn(line);
    // The weights the archive will hold, before anything reads the model.
    load::restore(d->compressed);
    if (options.weightsQ4_0) {
        d->compressed = load::roundTripQ4_0Weights(*d->module);
        for (const auto& s : d->compressed.skipped)
            d->warn("--weights-q4-0: " + s + "; written unquantized (" +
                    (options.compute == DType::F16 ? "f16" : "f32") + ")");
        d->log(LogLevel::Info, fmt::format("--weights-q4-0: {} weight(s) rounded to Q4_0",
                                           d->compressed.names.size()));
    }
    CancelBetweenPasses poll(d->observer);
    harden::PassObserver* observers[] = {&poll};
    try {
        d->prepared = harden::hardenForExport(m, examples, options.harden, observers);
    } catch (const Error& e) {
        throw load::withModelRunHints(e, options.inputs, d->requireModule());
    }
    d->report.harden = d->prepared->diagnostics;
    for (const auto& w : d->prepared->warnings)
        d->warn(w);
    d->log(LogLevel::Info, harden::summarize(d->prepared->diagnostics));
    d->hardenedWith = options;
}

std::string Session::hardenedText() const {
    if (!d->prepared)
        throw Error(Stage::Harden, ErrorCode::Internal, "the model has not been hardened yet");
    return graphText(d->prepared->graph);
}

BisectReport Session::bisectHardening(const ExportOptions& options) {
    if (options.inputs.empty())
        throw Error(Stage::Harden, ErrorCode::Usage, "semantic bisect needs example inputs",
                    "give one --input per forward() argument");
    checkInputSpecs(options.inputs, d->requireModule());
    const ExportOptions exported = d->exportedOptions(options);
    return check::bisectHardening(
        d->exportedModule(options), d->exampleInputs(exported.inputs, options.seed), options.harden,
        check::Tolerance::parse(options.checkTolerance), options.outputNames);
}

const ir::Graph& Session::trace(const ExportOptions& options) {
    util::checkNameLengths(options); // every front end, the studio's form included
    if (!d->hardenedWithInputs())
        harden(options);
    d->tracedWith.reset();
    StageScope scope(Stage::Trace, d->observer, d->report);
    ir::TraceRequest request;
    request.prepared = &*d->prepared;
    // Shapes of inputs whose values come from files, for the dynamic axes.
    request.inputs = load::withFileShapes(d->exportedOptions(options).inputs);
    checkInputSpecs(request.inputs, d->exportedModule(options));
    d->step(Stage::Trace, 0, "running the hardened graph on the example inputs");
    request.example = d->exampleInputs(request.inputs, options.seed);
    request.dynamicAxes = options.dynamicAxes;
    request.inputNames = options.inputNames;
    request.naming = options.naming;
    request.probeInputs = [&](const std::vector<InputSpec>& specs) {
        return load::makeExampleInputs(specs, options.seed + 1);
    };
    request.step = [this](double f, const std::string& status) {
        d->step(Stage::Trace, f, status);
    };
    request.warn = [this](const std::string& w) { d->warn(w); };
    ir::TraceResult traced;
    try {
        traced = ir::runTrace(request);
    } catch (Error& e) {
        if (e.code() == ErrorCode::ModelRun)
            throw load::withModelRunHints(e, request.inputs, d->requireModule());
        throw;
    }
    d->graph = std::move(traced.graph);
    d->tracedWith = options;
    d->jitValues = std::move(traced.jitValues);
    d->report.graphNodes = static_cast<int>(d->graph->nodes.size());
    d->step(Stage::Trace, 1, "done");
    return *d->graph;
}

const ir::Graph& Session::graph() const {
    if (!d->graph)
        throw Error(Stage::Trace, ErrorCode::Internal, "the model has not been traced yet");
    return *d->graph;
}

void Session::translate(const ExportOptions& options) {
    util::checkNameLengths(options); // every front end, the studio's form included
    if (!d->graph)
        trace(options);
    StageScope scope(Stage::Translate, d->observer, d->report);
    target::PropertyContext props;
    props.torchVersion =
        fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
    props.modelFile = d->modelName;
    // The translator runs as one call: a cancel is honoured before and after it.
    d->step(Stage::Translate, 0, "translating the IR");
    d->report.frozenSizes = {};
    std::vector<translate::FrozenRead> frozen;
    std::optional<translate::Translation> made;
    try {
        made = translate::translateGraph(*d->graph, d->exportedOptions(options), props, &frozen);
    } catch (const Error&) {
        // A dynamic axis the translation could not follow: which values
        // kept their example size, for every front end to show.
        if (!frozen.empty())
            d->report.frozenSizes = translate::frozenSizeTable(*d->graph, frozen);
        throw;
    }
    translate::Translation& translation = *made;
    d->checkCancel(Stage::Translate);
    if (options.weightsQ4_0) {
        std::vector<std::string> refused;
        const size_t marked = nnef::markQ4_0Variables(translation.doc, d->compressed.storages,
                                                      translation.halfOrigins, &refused);
        for (const auto& why : refused)
            d->warn("--weights-q4-0: " + why + "; written unquantized");
        if (marked + refused.size() < d->compressed.names.size())
            d->warn(fmt::format("--weights-q4-0: {} of the {} rounded weights reach the archive "
                                "as they are and are written as Q4_0; the others were "
                                "transformed on the way (folded or reshaped) and are written "
                                "unquantized",
                                marked, d->compressed.names.size()));
    }
    d->translation = std::move(translation);
    d->translatedWith = options;
    std::vector<bool> fromTorch(d->jitValues.size());
    for (size_t i = 0; i < d->jitValues.size(); ++i)
        fromTorch[i] = d->jitValues[i] != nullptr;
    d->manifest = translate::checkManifest(*d->translation, *d->graph, fromTorch);
    for (const auto& w : d->translation->warnings)
        d->warn(w);
    auto& r = d->report;
    r.target = options.target.toString();
    r.torchOps = d->translation->torchOps;
    r.nnefOps = d->translation->nnefOps;
    r.inputs = d->translation->doc.inputs;
    r.outputs = d->translation->doc.outputs;
    r.extensions = d->translation->doc.extensions;
    r.variables.clear();
    for (const auto& v : d->translation->doc.variables) {
        VariableRecord rec;
        rec.identifier = v.identifier;
        rec.label = v.label;
        rec.dtype = std::string(dtypeName(v.data.dtype()));
        rec.shape = v.data.shape();
        rec.origin = v.origin;
        rec.from = v.from;
        r.variables.push_back(std::move(rec));
    }
    d->step(Stage::Translate, 1, "done");
}

std::string Session::nnefText() const {
    if (!d->translation)
        throw Error(Stage::Translate, ErrorCode::Internal, "the model has not been translated yet");
    return d->translation->text;
}

CheckManifest Session::checkManifest() const {
    if (!d->translation)
        throw Error(Stage::Translate, ErrorCode::Internal, "the model has not been translated yet");
    return *d->manifest;
}

Provenance Session::provenance() const {
    if (!d->translation)
        throw Error(Stage::Translate, ErrorCode::Internal, "the model has not been translated yet");
    return translate::buildProvenance(d->translation->doc, d->translation->text,
                                      d->translation->identifierValues, *d->graph);
}

Artifact Session::write(const std::filesystem::path& path, const ExportOptions& options) {
    PendingOutputs pending;
    Artifact artifact = write(path, options, pending);
    pending.publish();
    d->report.written = true;
    return artifact;
}

Artifact Session::write(const std::filesystem::path& path, const ExportOptions& options,
                        PendingOutputs& into, std::filesystem::path* temporary) {
    Artifact artifact = resolveArtifact(path, options.compressionLevel);
    if (!d->translation)
        translate(options);
    StageScope scope(Stage::Write, d->observer, d->report);
    if (!artifact.note.empty())
        d->log(LogLevel::Info, artifact.note);
    archive::WriteProgress hooks;
    hooks.progress = [this](double f, const std::string& file) {
        if (d->observer)
            d->observer->progress(Stage::Write, f, file);
    };
    hooks.cancelled = [this] { return d->observer && d->observer->cancelRequested(); };
    hooks.variableWritten = [this](size_t i, const archive::TensorStats& st) {
        if (i < d->report.variables.size()) {
            auto& v = d->report.variables[i];
            std::tie(v.min, v.max, v.mean) = std::tie(st.min, st.max, st.mean);
        }
    };
    PendingOutputs staged;
    d->report.written = false;
    d->report.bytesWritten = static_cast<int64_t>(archive::writeDocument(
        d->translation->doc, d->translation->text, artifact, hooks, &staged));
    d->report.artifact = artifact;
    if (temporary)
        *temporary = staged.temporaries().front();
    into.splice(staged);
    return artifact;
}

const CheckReport& Session::check(const std::filesystem::path& artifact,
                                  const ExportOptions& options) {
    return checkAt(artifact, artifact, options);
}

const CheckReport& Session::checkAt(const std::filesystem::path& artifact,
                                    const std::filesystem::path& shown,
                                    const ExportOptions& given) {
    util::checkPathText(artifact.native(), "archive path");
    // An archive exported under other names than the options give is checked
    // under its own: translated (again, when the session holds a translation
    // made under other names: the studio's after opening, or a second check),
    // since the check maps the archive's identifiers through the translation.
    std::string said;
    const std::optional<ExportOptions> named = check::namedAsArchive(artifact, given, &said);
    if (named)
        d->log(LogLevel::Info, said);
    const ExportOptions& options = named ? *named : given;
    if (d->translation && (d->translatedWith->inputNames != options.inputNames ||
                           d->translatedWith->outputNames != options.outputNames))
        translate(options);
    // An archive with its manifest beside it (a debug bundle's) is checked
    // without translating the model: the check needs the hardened graph only.
    if (!d->translation) {
        const auto beside = manifestBeside(artifact);
        if (std::filesystem::is_regular_file(beside)) {
            std::ifstream file(beside);
            std::stringstream text;
            text << file.rdbuf();
            d->manifest = CheckManifest::fromJson(text.str(), beside.string());
            d->log(LogLevel::Info,
                   fmt::format("checking with {} (no translation)", beside.string()));
            if (!d->hardenedWithInputs())
                harden(options);
        } else {
            translate(options);
        }
    }
    StageScope scope(Stage::Check, d->observer, d->report);
    check::CheckInputs in;
    in.model = &d->exportedModule(options);
    const ExportOptions exported = d->exportedOptions(options);
    in.prepared = &*d->prepared;
    in.manifest = &*d->manifest;
    if (d->translation)
        for (const auto& v : d->translation->doc.variables)
            in.exported.push_back({v.identifier, v.label, &v.data, v.origin, v.from});
    in.artifact = artifact;
    in.shownArtifact = shown;
    in.modelFile = d->modelPath;
    in.options = &exported;
    if (d->graph)
        for (const auto& s : d->graph->symbolSizes)
            if (s.probe > 0)
                in.secondSizes[s.name] = s.probe;
    if (d->graph)
        in.probes = d->graph->symbolProbes;
    in.exampleInputs = d->exampleInputs(exported.inputs, options.seed);
    if (d->reference && d->reference->specs == exported.inputs &&
        d->reference->seed == options.seed)
        in.reference = d->reference->run;
    d->reference.reset();
    in.reportJson = [this] { return d->report.toJson(); };
    in.log = [this](LogLevel l, const std::string& m) { d->log(l, m); };
    in.progress = [this](double f, const std::string& status) {
        if (d->observer)
            d->observer->progress(Stage::Check, f, status);
    };
    in.cancelled = [this] { return d->observer && d->observer->cancelRequested(); };
    in.frozen = &d->report.frozenSizes;
    d->report.frozenSizes = {};
    d->report.check = check::runCheck(in);
    const CheckReport& c = d->report.check;
    for (const auto& o : c.outputs)
        if (o.distribution.applied)
            d->log(o.ok ? LogLevel::Info : LogLevel::Warn,
                   fmt::format("check {}: {} - {}", o.name, o.ok ? "matches" : "DIFFERS", o.note));
        else
            d->log(o.ok ? LogLevel::Info : LogLevel::Warn,
                   fmt::format("check {}: {} (max abs error {:.3g}, max rel error {:.3g}, {} of {} "
                               "elements beyond {}){}",
                               o.name, o.ok ? "matches" : "DIFFERS", o.maxAbsError, o.maxRelError,
                               o.mismatches, o.elements, c.tolerance,
                               o.note.empty() ? "" : " - " + o.note));
    // Each with its stage once: a reader error is rendered with it already.
    for (const auto& p : c.structureProblems)
        d->log(LogLevel::Error, p.starts_with("[") ? p : "[check] " + p);
    if (c.diverged)
        d->log(LogLevel::Error,
               fmt::format("first diverging operation: {} = {}(...) at graph.nnef:{}, from {}: {}",
                           c.divergence.identifier, c.divergence.operation, c.divergence.nnefLine,
                           c.divergence.node.describe(), c.divergence.detail));
    d->log(LogLevel::Info, c.tract);
    if (!c.debugBundle.empty())
        d->log(LogLevel::Info, "debug bundle written to " + c.debugBundle);
    return c;
}

ExportReport Session::exportModel(const std::filesystem::path& output,
                                  const ExportOptions& options) {
    PendingOutputs pending;
    ExportReport report = exportModel(output, options, pending);
    if (d->observer && d->observer->cancelRequested())
        throw Error(Stage::Write, ErrorCode::Cancelled, "export cancelled", "nothing was written");
    pending.publish();
    return report;
}

ExportReport Session::exportModel(const std::filesystem::path& output, const ExportOptions& options,
                                  PendingOutputs& into) {
    // The whole request first: a bad option or path must not cost a
    // translation, and must never be found after something was written.
    validateExport(output, options, {d->modelPath});
    d->report.t2nVersion = std::string(version());
    d->report.check = {};
    // Stages already run with exactly these options are not run again (the
    // studio opens a model by preparing it, then exports it: mvit_v2_s
    // spent 20 s hardening and tracing twice). Any difference runs them all.
    if (!d->prepared || d->hardenedWith != options)
        harden(options);
    if (!d->graph || d->tracedWith != options)
        trace(options);
    translate(options);
    d->startReference(options);
    // Whatever ends the export, a forward still running is waited for here
    // (a std::async future's last owner waits), not left to a later call.
    struct Forget {
        std::optional<Impl::PendingReference>& reference;
        ~Forget() { reference.reset(); }
    } forget{d->reference};
    PendingOutputs staged;
    std::filesystem::path temporary;
    Artifact artifact = write(output, options, staged, &temporary);
    // The check reads the finished artifact under its temporary name; only
    // one that passed replaces what is at the destination.
    if (options.check && !checkAt(temporary, artifact.path, options).passed) {
        d->report.written = false;
        return d->report;
    }
    d->report.written = true;
    into.splice(staged);
    return d->report;
}

// The check's reference forward on a thread of its own, beside the write
// stage: writing ViT-B/16's 330 MB spends most of its 2-3 s waiting on the
// disk (the fsync before the rename), the forward then costs the export
// little, and the check only the interpreter's run and the comparisons. The
// model is only read meanwhile: the write stage streams the translation's
// tensors, and state forward() changes was made explicit (exportedModule).
void Session::Impl::startReference(const ExportOptions& options) {
    reference.reset();
    if (!options.check)
        return;
    const std::vector<InputSpec> specs = exportedOptions(options).inputs;
    const torch::jit::Module* model = &exportedModule(options);
    auto inputs = exampleInputs(specs, options.seed);
    auto run = std::async(std::launch::async, [model, inputs = std::move(inputs)] {
        // LibTorch's run of a graph recurses along a chain of operations
        // (8,000 chained adds crashed in it on a 1 MiB stack; 100,000 need
        // more than 8 MiB): the forward runs on a thread with a large stack,
        // which this one waits for (t2n/large_stack.h).
        check::ReferenceRun out;
        runOnLargeStack([&] {
            // A new thread starts with OpenMP's default team size: the one
            // the threading policy chose instead (t2n/runtime_info.h).
            at::init_num_threads();
            out = check::runReference(*model, inputs);
        });
        return out;
    });
    reference = PendingReference{specs, options.seed, run.share()};
}

std::vector<double> Session::forwardSeconds(const ExportOptions& options, int runs) {
    checkInputSpecs(options.inputs, d->requireModule());
    auto& bound = const_cast<torch::jit::Module&>(d->exportedModule(options));
    const auto inputs = d->exampleInputs(d->exportedOptions(options).inputs, options.seed);
    const std::vector<c10::IValue> args(inputs.begin(), inputs.end());
    torch::NoGradGuard noGrad;
    std::vector<double> out;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        try {
            bound.forward(args);
        } catch (const std::exception& e) {
            const std::string what = e.what();
            throw Error(Stage::Load, ErrorCode::ModelRun,
                        "the model failed on the example inputs: " +
                            what.substr(0, what.find('\n')));
        }
        out.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return out;
}

const ExportReport& Session::report() const {
    return d->report;
}

} // namespace t2n
