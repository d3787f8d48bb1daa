// One model on its way to NNEF. The command line, the studio and embedding
// programs all drive the engine through this class; each stage can be run
// (and inspected) on its own, and exportModel() runs them all.
#pragma once

#include "t2n/bisect.h"
#include "t2n/check_manifest.h"
#include "t2n/coverage.h"
#include "t2n/error.h"
#include "t2n/input_proposal.h"
#include "t2n/ir.h"
#include "t2n/options.h"
#include "t2n/outputs.h"
#include "t2n/provenance.h"
#include "t2n/report.h"
#include "t2n/version.h"

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

namespace t2n {

/// One argument of forward(), for pre-filling input specs.
struct ForwardArgument {
    std::string name;
    std::string type; ///< as TorchScript prints it: "Tensor", "Float(1, 3, 8, 8)", "int"
    bool isTensor = false;
    std::optional<DType> dtype;                ///< when the type records it
    std::optional<std::vector<int64_t>> shape; ///< when the type records every size
};

/// Receives what the engine has to say. The engine never prints.
class Observer {
public:
    virtual ~Observer() = default;
    virtual void stageStarted(Stage) {}
    virtual void stageFinished(Stage, double /*seconds*/) {}
    /// Fraction in [0, 1] of the current stage, with a short status text.
    virtual void progress(Stage, double /*fraction*/, const std::string& /*status*/) {}
    virtual void log(LogLevel, const std::string& /*message*/) {}
    /// Polled between units of work; returning true stops the export cleanly.
    virtual bool cancelRequested() { return false; }
};

class Session {
public:
    explicit Session(Observer* observer = nullptr);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Stage load: read a TorchScript archive (torch.jit.save output).
    void load(const std::filesystem::path& model);
    /// Stage load from memory: the bytes torch.jit.save wrote (the Python
    /// module saves to a buffer, never to a temporary file), read from `in`.
    /// `name` stands for the model file in messages, the report and the
    /// archive's exported_model property.
    void load(std::istream& in, const std::string& name);
    /// TorchScript graph of forward() as loaded.
    std::string torchScriptText() const;
    /// Names of forward()'s tensor arguments, as TorchScript recorded them.
    std::vector<std::string> forwardArgumentNames() const;
    /// forward()'s arguments after self, with what their TorchScript types
    /// say (traced models often carry dtype and shape; scripted ones do not).
    std::vector<ForwardArgument> forwardSignature() const;
    /// Inputs for forward() read from the graph and confirmed by running the
    /// model (t2n/input_proposal.h); the model's state is left as it was.
    /// Throws t2n::Error (Load, Usage) listing every attempt when no candidate
    /// runs, or when an argument cannot be given as a tensor.
    InputProposal proposeInputs(const ProposalLimits& limits = {});

    /// Stage harden: the JIT-only hardening chain (seed 001) with
    /// options.harden; the passes that run the graph use the example inputs
    /// of options.inputs. Records per pass are in report().harden.
    void harden(const ExportOptions& options);
    std::string hardenedText() const;
    /// Semantic bisect: hardens again with options.harden, runs the example
    /// inputs (options.inputs, required) after every pass and compares the
    /// outputs with the unhardened module's at options.checkTolerance. Does
    /// not change the session's hardened graph or report.
    BisectReport bisectHardening(const ExportOptions& options);

    /// Stage trace: build the IR by running the hardened graph on example inputs.
    const ir::Graph& trace(const ExportOptions& options);
    const ir::Graph& graph() const;

    /// Stage translate: IR to an NNEF document for the target. Throws one
    /// Error listing every unsupported operator of the model.
    void translate(const ExportOptions& options);
    /// graph.nnef text of the translated document.
    std::string nnefText() const;
    /// Per operation line of nnefText(): identifiers, op, IR node, stable
    /// TorchScript node id (see t2n/provenance.h). After translate().
    Provenance provenance() const;
    /// What the check needs of the translation (t2n/check_manifest.h). After translate().
    CheckManifest checkManifest() const;

    /// Stage write: the artifact, written under a temporary name and renamed last.
    Artifact write(const std::filesystem::path& path, const ExportOptions& options);
    /// Stage write, the artifact left under its temporary name in `into`
    /// (returned in `temporary`): it is in place once `into` publishes.
    Artifact write(const std::filesystem::path& path, const ExportOptions& options,
                   PendingOutputs& into, std::filesystem::path* temporary = nullptr);

    /// Stage check: reads `artifact` back, checks its structure, runs it with
    /// the reference interpreter and compares every output with the
    /// TorchScript model's at options.checkTolerance (finding the first
    /// diverging operation on a mismatch), then runs the tract CLI when one is
    /// found. Translates first if needed (for the identifier <-> node map),
    /// unless a manifest lies beside the artifact (manifestBeside(artifact),
    /// as in a debug bundle): then it hardens only.
    const CheckReport& check(const std::filesystem::path& artifact, const ExportOptions& options);

    /// check(), reading `artifact` but naming it `shown` in what it reports
    /// (the export checks its artifact under the temporary name).
    const CheckReport& checkAt(const std::filesystem::path& artifact,
                               const std::filesystem::path& shown, const ExportOptions& options);

    /// All stages, the check included unless options.check is off, under
    /// the write protocol of t2n/outputs.h: the request is validated first
    /// (validateExport), the check runs on the finished artifact under its
    /// temporary name, and only an artifact that passed it (or with the
    /// check off) is put in place. An artifact that fails the check is not
    /// written (report().written is false, report().check says why; the
    /// debug bundle, when asked for, holds it); a failure or cancel throws,
    /// and the destination is left as it was.
    ExportReport exportModel(const std::filesystem::path& output, const ExportOptions& options);
    /// The same, the artifact left in `into` instead of put in place, so
    /// that a front end can add its own results (a report, a recipe) and
    /// publish them together.
    ExportReport exportModel(const std::filesystem::path& output, const ExportOptions& options,
                             PendingOutputs& into);

    /// Wall time of each of `runs` calls of the loaded module's forward() on the
    /// example inputs of options.inputs (LibTorch alone: the benchmark's
    /// reference for the check). Throws t2n::Error (Load, ModelRun) on failure.
    std::vector<double> forwardSeconds(const ExportOptions& options, int runs);

    /// Report of everything done so far in this session.
    const ExportReport& report() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// The options alone, before any work: the tolerance, dynamic axes given
/// twice with different symbols (InvalidOption), input sizes that overflow
/// or exceed the memory (Usage), negative hardening limits. Throws t2n::Error.
void validateOptions(const ExportOptions& options);

/// Everything about an export that can be checked without the model:
/// validateOptions(), the artifact's path (suffix, directory, an existing
/// folder that is not an artifact) and the debug bundle's, none of them one
/// of `protect` (the model, a recipe) or an input values file. Returns the
/// artifact that will be written. Throws t2n::Error; exportModel() runs it first.
Artifact validateExport(const std::filesystem::path& output, const ExportOptions& options,
                        const std::vector<std::filesystem::path>& protect = {});

/// What a check of an existing artifact can refuse before any work:
/// validateOptions() and the debug bundle's destination (not one of `protect`).
void validateCheck(const ExportOptions& options,
                   const std::vector<std::filesystem::path>& protect = {});

} // namespace t2n
