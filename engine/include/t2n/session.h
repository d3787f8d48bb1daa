// One model on its way to NNEF. The command line, the studio and embedding
// programs all drive the engine through this class; each stage can be run
// (and inspected) on its own, and exportModel() runs them all.
#pragma once

#include "t2n/bisect.h"
#include "t2n/error.h"
#include "t2n/ir.h"
#include "t2n/options.h"
#include "t2n/provenance.h"
#include "t2n/report.h"

#include <filesystem>
#include <functional>
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
    /// TorchScript graph of forward() as loaded.
    std::string torchScriptText() const;
    /// Names of forward()'s tensor arguments, as TorchScript recorded them.
    std::vector<std::string> forwardArgumentNames() const;
    /// forward()'s arguments after self, with what their TorchScript types
    /// say (traced models often carry dtype and shape; scripted ones do not).
    std::vector<ForwardArgument> forwardSignature() const;

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

    /// Stage write: the artifact, written under a temporary name and renamed last.
    Artifact write(const std::filesystem::path& path, const ExportOptions& options);

    /// Stage check: reads `artifact` back, checks its structure, runs it with
    /// the reference interpreter and compares every output with the
    /// TorchScript model's at options.checkTolerance (finding the first
    /// diverging operation on a mismatch), then runs the tract CLI when one is
    /// found. Translates first if needed (for the identifier <-> node map).
    const CheckReport& check(const std::filesystem::path& artifact, const ExportOptions& options);

    /// All stages, the check included unless options.check is off. Never
    /// leaves a partial artifact behind; an artifact that fails the check is
    /// kept (for inspection) and report().check says why.
    ExportReport exportModel(const std::filesystem::path& output, const ExportOptions& options);

    /// Report of everything done so far in this session.
    const ExportReport& report() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// The list of aten kinds the translator supports, with family and notes,
/// and what follows from the NNEF operations each lowering declares it may
/// emit.
struct SupportedOp {
    std::string kind;
    std::string family;
    std::string note;
    /// The declared operations: "" when the lowering declares none yet.
    std::vector<std::string> emits;
    /// Whether the kind exports for Khronos NNEF 1.0.5: "yes", or "no" with
    /// the operations that have no standard form ("no: tract_core_topk");
    /// "" when undeclared.
    std::string khronos;
    /// The oldest tract release that has every operation (and parameter) it
    /// may need beyond its fallbacks: "0.23.0"; "" for any version t2n targets.
    std::string sinceTract;
};
std::vector<SupportedOp> supportedOperators();

std::string_view version();

} // namespace t2n
