#include "t2n/session.h"

#include "archive/write_document.h"
#include "check/check_stage.h"
#include "harden/graph_runner.h"
#include "harden/harden.h"
#include "ir/ir_builder.h"
#include "ir/naming.h"
#include "load/module_loader.h"
#include "translate/translator.h"

#include <torch/version.h>

#include <chrono>
#include <fmt/format.h>
#include <optional>
#include <sstream>

namespace t2n {

std::string_view version() {
    return T2N_VERSION;
}

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
        report_.timings.push_back({stage_, secs});
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
    std::filesystem::path modelPath;
    std::optional<torch::jit::Module> module;
    std::optional<harden::PreparedModule> prepared;
    bool hardenedWithInputs = false;
    std::optional<ir::Graph> graph;
    std::vector<const torch::jit::Value*> jitValues; // per IR value id
    std::optional<translate::Translation> translation;
    ExportReport report;

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
    d->module = load::loadTorchScript(model);
    d->modelPath = model;
    d->prepared.reset();
    d->graph.reset();
    d->translation.reset();
    d->report.model = model.string();
    d->log(LogLevel::Info, fmt::format("loaded {}", model.string()));
}

std::string Session::torchScriptText() const {
    return graphText(d->requireModule().get_method("forward").graph());
}

std::vector<std::string> Session::forwardArgumentNames() const {
    return load::forwardArgumentNames(d->requireModule());
}

namespace {
void checkInputSpecs(const std::vector<InputSpec>& specs, const std::vector<std::string>& args) {
    if (specs.size() == args.size())
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

// Example inputs with every dynamic axis grown by `delta` (the probe run).
std::vector<InputSpec> probeSpecs(std::vector<InputSpec> specs,
                                  const std::vector<std::map<int, std::string>>& symbols,
                                  int64_t delta) {
    for (size_t i = 0; i < specs.size() && i < symbols.size(); ++i)
        for (auto& [axis, sym] : symbols[i])
            specs[i].shape[static_cast<size_t>(axis)] += delta;
    return specs;
}
} // namespace

void Session::harden(const ExportOptions& options) {
    StageScope scope(Stage::Harden, d->observer, d->report);
    const auto& m = d->requireModule();
    // The passes that specialise the graph run it on the same seeded inputs
    // as trace(), so the branches they keep are the ones the recording sees.
    std::vector<at::Tensor> examples;
    if (!options.inputs.empty()) {
        checkInputSpecs(options.inputs, forwardArgumentNames());
        examples = load::makeExampleInputs(options.inputs, options.seed);
    }
    d->prepared = harden::hardenForExport(m, examples, options.harden);
    d->hardenedWithInputs = !examples.empty();
    d->report.harden = d->prepared->diagnostics;
    for (const auto& w : d->prepared->warnings)
        d->warn(w);
    d->log(LogLevel::Info, harden::summarize(d->prepared->diagnostics));
}

std::string Session::hardenedText() const {
    if (!d->prepared)
        throw Error(Stage::Harden, ErrorCode::Internal, "the model has not been hardened yet");
    return graphText(d->prepared->graph);
}

const ir::Graph& Session::trace(const ExportOptions& options) {
    if (!d->prepared || !d->hardenedWithInputs)
        harden(options);
    StageScope scope(Stage::Trace, d->observer, d->report);
    checkInputSpecs(options.inputs, forwardArgumentNames());
    // Which input axes are dynamic, by input position.
    std::vector<std::map<int, std::string>> symbols(options.inputs.size());
    for (const auto& dyn : options.dynamicAxes)
        for (size_t i = 0; i < options.inputs.size(); ++i)
            if (options.inputs[i].name == dyn.tensor ||
                (i < options.inputNames.size() && options.inputNames[i] == dyn.tensor)) {
                int rank = static_cast<int>(options.inputs[i].shape.size());
                int axis = dyn.axis < 0 ? dyn.axis + rank : dyn.axis;
                if (axis >= 0 && axis < rank)
                    symbols[i][axis] = dyn.symbol;
            }
    const auto& m = d->prepared->module;
    std::vector<std::string> torchWarnings;
    harden::RunOptions run;
    run.warnings = &torchWarnings;
    auto main = harden::runGraph(&m, *d->prepared->graph,
                                 load::makeExampleInputs(options.inputs, options.seed), run);
    for (const auto& w : torchWarnings)
        d->warn("PyTorch: " + w);
    d->checkCancel(Stage::Trace);
    std::optional<harden::Recorded> probe;
    bool dynamic = false;
    for (const auto& s : symbols)
        dynamic = dynamic || !s.empty();
    if (dynamic) {
        for (int64_t delta : {1, 2}) {
            try {
                auto specs = probeSpecs(options.inputs, symbols, delta);
                probe = harden::runGraph(&m, *d->prepared->graph,
                                         load::makeExampleInputs(specs, options.seed + 1));
                break;
            } catch (const Error& e) {
                if (delta == 2)
                    d->warn(fmt::format("the model does not run with the dynamic axes grown by 1 "
                                        "or 2 ({}); which values depend on them is unknown",
                                        e.message()));
            }
        }
    }
    ir::TraceInputs in;
    in.prepared = &*d->prepared;
    in.main = &main;
    in.probe = probe ? &*probe : nullptr;
    in.inputSymbols = symbols;
    auto traced = ir::buildGraph(in);
    d->graph = std::move(traced.graph);
    d->jitValues = std::move(traced.jitValues);
    ir::applyNaming(*d->graph, options.naming);
    d->report.graphNodes = static_cast<int>(d->graph->nodes.size());
    return *d->graph;
}

const ir::Graph& Session::graph() const {
    if (!d->graph)
        throw Error(Stage::Trace, ErrorCode::Internal, "the model has not been traced yet");
    return *d->graph;
}

void Session::translate(const ExportOptions& options) {
    if (!d->graph)
        trace(options);
    StageScope scope(Stage::Translate, d->observer, d->report);
    target::PropertyContext props;
    props.torchVersion =
        fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
    props.modelFile = d->modelPath.filename().string();
    d->translation = translate::translateGraph(*d->graph, options, props);
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
    for (const auto& v : d->translation->doc.variables)
        r.variables.push_back(VariableRecord{v.identifier, v.label,
                                             std::string(dtypeName(v.data.dtype())), v.data.shape(),
                                             v.origin, v.from});
}

std::string Session::nnefText() const {
    if (!d->translation)
        throw Error(Stage::Translate, ErrorCode::Internal, "the model has not been translated yet");
    return d->translation->text;
}

Artifact Session::write(const std::filesystem::path& path, const ExportOptions& options) {
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
    d->report.bytesWritten = static_cast<int64_t>(
        archive::writeDocument(d->translation->doc, d->translation->text, artifact, hooks));
    d->report.artifact = artifact;
    return artifact;
}

const CheckReport& Session::check(const std::filesystem::path& artifact,
                                  const ExportOptions& options) {
    if (!d->translation)
        translate(options);
    StageScope scope(Stage::Check, d->observer, d->report);
    check::CheckInputs in;
    in.model = &d->requireModule();
    in.prepared = &*d->prepared;
    in.graph = &*d->graph;
    in.jitValues = &d->jitValues;
    in.translation = &*d->translation;
    in.artifact = artifact;
    in.options = &options;
    in.reportJson = [this] { return d->report.toJson(); };
    in.log = [this](LogLevel l, const std::string& m) { d->log(l, m); };
    d->report.check = check::runCheck(in);
    const CheckReport& c = d->report.check;
    for (const auto& o : c.outputs)
        d->log(o.ok ? LogLevel::Info : LogLevel::Warn,
               fmt::format("check {}: {} (max abs error {:.3g}, max rel error {:.3g}, {} of {} "
                           "elements beyond {}){}",
                           o.name, o.ok ? "matches" : "DIFFERS", o.maxAbsError, o.maxRelError,
                           o.mismatches, o.elements, c.tolerance,
                           o.note.empty() ? "" : " - " + o.note));
    for (const auto& p : c.structureProblems)
        d->log(LogLevel::Error, "check: " + p);
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
    // Check the destination first: a bad path should not cost a translation.
    resolveArtifact(output, options.compressionLevel);
    d->report.t2nVersion = std::string(version());
    harden(options);
    trace(options);
    translate(options);
    Artifact artifact = write(output, options);
    if (options.check)
        check(artifact.path, options);
    return d->report;
}

const ExportReport& Session::report() const {
    return d->report;
}

} // namespace t2n
