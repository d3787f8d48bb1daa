// What the studio knows about the open model: an immutable value built on the
// worker thread after each job and handed to the GUI thread whole, so that
// views never read an engine session that another thread is changing.
#pragma once

#include "t2n/bisect.h"
#include "t2n/ir.h"
#include "t2n/options.h"
#include "t2n/provenance.h"
#include "t2n/report.h"
#include "t2n/session.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace t2n::ui {

struct SessionState {
    QString modelPath;
    std::string torchScriptText;              ///< forward() as loaded
    std::vector<std::string> forwardArgNames; ///< forward()'s tensor arguments
    std::vector<ForwardArgument> forwardArgs; ///< with dtype and shape when recorded
    /// The inputs the engine proposed when the model was opened without any
    /// (Session::proposeInputs), or why it could not.
    std::optional<InputProposal> proposal;
    QString proposalError;
    ExportOptions options; ///< the options of the last job
    bool hardened = false, traced = false, translated = false, exported = false;
    std::string hardenedText;
    ir::Graph graph; ///< t2n's IR (after trace)
    std::string nnefText;
    Provenance provenance; ///< graph.nnef line <-> IR node <-> TorchScript node
    ExportReport report;
    std::optional<BisectReport> bisect; ///< the last semantic bisect, if one ran ///< harden
                                        ///< diagnostics, warnings, check results, ...
    QString artifactPath;
    bool checkOnly = false; ///< the last job checked an existing archive (no export)
};
using StatePtr = std::shared_ptr<const SessionState>;

/// What a failed job reports: the engine error rendered, with its parts.
struct JobError {
    QString stage;
    QString message;
    QString hint;
    std::vector<Diagnostic> details;
    bool cancelled = false;
    QString rendered;
    int code = 0; ///< t2n's exit code for it (t2n::ErrorCode; 10: an internal error)
};

} // namespace t2n::ui

Q_DECLARE_METATYPE(t2n::ui::StatePtr)
Q_DECLARE_METATYPE(t2n::ui::JobError)
Q_DECLARE_METATYPE(t2n::NodeRef)
