// The engine session of the studio, on a worker thread. Every job (open,
// prepare, export) runs there, one at a time in request order; the GUI thread
// gets progress, log lines and, when a job ends, a fresh SessionState or a
// JobError. cancel() stops the running job at the engine's next poll.
#pragma once

#include "session/session_state.h"

#include "t2n/options.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace t2n {
class Session;
}

namespace t2n::ui {

class SessionWorker;

class SessionController : public QObject {
    Q_OBJECT
public:
    enum class Job { Open, Prepare, Export, Check, Bisect };
    Q_ENUM(Job)

    explicit SessionController(QObject* parent = nullptr);
    ~SessionController() override;

    /// The newest state (never null; empty before the first model).
    StatePtr state() const { return state_; }
    bool busy() const { return pending_ > 0; }

    /// Loads `model` into a fresh engine session, which replaces the current
    /// one when it loaded (a failed open changes nothing). With
    /// `proposeInputs`, the engine also proposes the model's inputs
    /// (SessionState::proposal, or proposalError when it found none).
    void open(const QString& model, bool proposeInputs = false);
    /// Harden, trace and translate with `options`: texts and IR for the views.
    void prepare(const ExportOptions& options);
    /// All stages to `output`, the check included unless options.check is off.
    void exportModel(const QString& output, const ExportOptions& options);
    /// Checks an existing archive against the open model (t2n check).
    void checkArchive(const QString& archive, const ExportOptions& options);
    /// Semantic bisect of the hardening chain: the first pass that changed the numbers.
    void bisect(const ExportOptions& options);
    /// Asks the running job to stop (it ends with JobError::cancelled).
    void cancel();

    /// Blocks (running the event loop) until no job is pending; for tests and
    /// the screenshot mode. False on timeout.
    bool waitIdle(int timeoutMs = 120000);

Q_SIGNALS:
    void jobStarted(t2n::ui::SessionController::Job job);
    void stageStarted(const QString& stage);
    /// fraction in [0, 1] of the current stage
    void progress(const QString& stage, double fraction, const QString& status);
    void logLine(int level, const QString& message);
    void stateChanged(t2n::ui::StatePtr state);
    void jobFinished(t2n::ui::SessionController::Job job, bool ok);
    void jobFailed(t2n::ui::SessionController::Job job, const t2n::ui::JobError& error);

private:
    friend class SessionWorker;
    using Work = std::function<void(std::unique_ptr<Session>&, SessionState&)>;
    void post(Job job, Work work);
    void finish(Job job, StatePtr next, std::optional<JobError> error);

    QThread* thread_ = nullptr;
    SessionWorker* worker_ = nullptr;
    StatePtr state_;
    int pending_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

/// The state after a failed prepare, export or check: the model of `before`,
/// `options`, and the stages of `s` that ran before `failedAt` (which ran in
/// the failed job, with `options`): never one stage from an earlier job
/// beside one from this one.
SessionState stateAfterFailure(const Session& s, const SessionState& before,
                               const ExportOptions& options, Stage failedAt);

} // namespace t2n::ui
