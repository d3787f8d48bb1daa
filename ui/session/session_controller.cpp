#include "session/session_controller.h"
#include "session/qt_text.h"

#include "t2n/error.h"
#include "t2n/large_stack.h"
#include "t2n/session.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>

#include <algorithm>
#include <filesystem>
#include <string>

namespace t2n::ui {

/// Forwards the engine's reports as the controller's signals (emitting from
/// the worker thread is safe: receivers on the GUI thread get them queued).
class ForwardingObserver : public Observer {
public:
    ForwardingObserver(SessionController* c, std::shared_ptr<std::atomic<bool>> cancel)
        : c_(c), cancel_(std::move(cancel)) {}
    void stageStarted(Stage s) override { Q_EMIT c_->stageStarted(qs(stageName(s))); }
    void progress(Stage s, double fraction, const std::string& status) override {
        Q_EMIT c_->progress(qs(stageName(s)), fraction, QString::fromStdString(status));
    }
    void log(LogLevel level, const std::string& message) override {
        Q_EMIT c_->logLine(static_cast<int>(level), QString::fromStdString(message));
    }
    bool cancelRequested() override { return cancel_->load(); }

private:
    SessionController* c_;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

namespace {
/// After a job that ran every stage: what each stage left, for the views.
void captureStages(Session& s, SessionState& st) {
    st.hardened = st.traced = st.translated = st.exported = true;
    st.hardenedText = s.hardenedText();
    st.graph = s.graph();
    st.nnefText = s.nnefText();
    st.provenance = s.provenance();
}

/// The model's own facts (path, text, signature, proposal) without any stage.
SessionState modelOnly(const SessionState& st) {
    SessionState out;
    out.modelPath = st.modelPath;
    out.torchScriptText = st.torchScriptText;
    out.forwardArgNames = st.forwardArgNames;
    out.forwardArgs = st.forwardArgs;
    out.proposal = st.proposal;
    out.proposalError = st.proposalError;
    return out;
}
} // namespace

SessionState stateAfterFailure(const Session& s, const SessionState& before,
                               const ExportOptions& options, Stage failedAt) {
    SessionState st = modelOnly(before);
    st.options = options;
    st.report = s.report();
    // Stages run in order: those before the one that failed ran in this job
    // (a check beside a debug bundle's manifest does not translate: its
    // stage then has nothing to show).
    try {
        if (failedAt > Stage::Harden) {
            st.hardenedText = s.hardenedText();
            st.hardened = true;
        }
        if (failedAt > Stage::Trace) {
            st.graph = s.graph();
            st.traced = true;
        }
        if (failedAt > Stage::Translate) {
            st.nnefText = s.nnefText();
            st.provenance = s.provenance();
            st.translated = true;
        }
    } catch (const Error&) {
    }
    return st;
}

/// Lives on the worker thread and owns the engine session there.
class SessionWorker : public QObject {
public:
    explicit SessionWorker(SessionController* c) : c_(c) {}
    void run(SessionController::Job job, const SessionController::Work& work, StatePtr current,
             std::shared_ptr<std::atomic<bool>> cancel) {
        auto next = std::make_shared<SessionState>(*current);
        std::optional<JobError> error;
        Stage failedAt = Stage::Load;
        if (!observer_) // the session keeps a pointer to it: one for the worker's life
            observer_ = std::make_unique<ForwardingObserver>(c_, cancel);
        // A model is opened in a session of its own, which replaces the
        // current one only once it loaded: a failed open leaves the open
        // model, its session and every view as they were.
        const bool opening = job == SessionController::Job::Open;
        std::unique_ptr<Session> fresh;
        if (opening || !session_)
            fresh = std::make_unique<Session>(observer_.get());
        std::unique_ptr<Session>& used = fresh ? fresh : session_;
        try {
            work(used, *next);
        } catch (const Error& e) {
            failedAt = e.stage();
            JobError je;
            je.stage = qs(stageName(e.stage()));
            je.message = QString::fromStdString(e.message());
            je.hint = QString::fromStdString(e.hint());
            je.details = e.details();
            je.cancelled = e.code() == ErrorCode::Cancelled;
            je.code = static_cast<int>(e.code());
            je.rendered = QString::fromStdString(e.render());
            error = std::move(je);
        } catch (const std::exception& e) {
            JobError je;
            je.message = QString::fromUtf8(e.what());
            je.rendered = je.message;
            je.code = static_cast<int>(ErrorCode::Internal);
            error = std::move(je);
        }
        if (fresh && !(opening && error))
            session_ = std::move(fresh);
        StatePtr result;
        if (error && (opening || error->cancelled || job == SessionController::Job::Bisect)) {
            // Nothing the user sees changes: the last completed job's state stays.
            result = current;
        } else if (error) {
            // A failed prepare, export or check shows what its own stages got
            // to, all of them with this job's options (the IR of a model that
            // fails to translate is what the error points into).
            result = std::make_shared<SessionState>(
                stateAfterFailure(*session_, *current, next->options, failedAt));
        } else {
            result = std::move(next);
        }
        QMetaObject::invokeMethod(
            c_, [c = c_, job, result, error] { c->finish(job, result, error); },
            Qt::QueuedConnection);
    }

private:
    SessionController* c_;
    std::unique_ptr<ForwardingObserver> observer_; // declared first: outlives session_
    std::unique_ptr<Session> session_;
};

SessionController::SessionController(QObject* parent)
    : QObject(parent), state_(std::make_shared<SessionState>()),
      cancel_(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<StatePtr>();
    qRegisterMetaType<JobError>();
    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("t2n-session"));
    // The engine's work recurses one frame per operation in LibTorch's graph
    // passes and runs (8,000 chained adds need more than 1 MiB): the studio's
    // worker gets the stack the CLI's runOnLargeStack gives (address space
    // reserved, only touched pages become memory).
    thread_->setStackSize(static_cast<uint>(t2n::kLargeStackBytes));
    worker_ = new SessionWorker(this);
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_->start();
}

SessionController::~SessionController() {
    cancel();
    thread_->quit();
    thread_->wait();
}

void SessionController::post(Job job, Work work) {
    ++pending_;
    Q_EMIT jobStarted(job);
    cancel_->store(false);
    StatePtr current = state_;
    auto cancel = cancel_;
    QMetaObject::invokeMethod(
        worker_,
        [w = worker_, job, work = std::move(work), current, cancel] {
            w->run(job, work, current, cancel);
        },
        Qt::QueuedConnection);
}

void SessionController::finish(Job job, StatePtr next, std::optional<JobError> error) {
    --pending_;
    if (next != state_) {
        state_ = std::move(next);
        Q_EMIT stateChanged(state_);
    }
    if (error)
        Q_EMIT jobFailed(job, *error);
    Q_EMIT jobFinished(job, !error);
}

void SessionController::cancel() {
    cancel_->store(true);
}

bool SessionController::waitIdle(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (pending_ > 0 && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return pending_ == 0;
}

void SessionController::open(const QString& model, bool proposeInputs) {
    post(Job::Open, [model, proposeInputs](std::unique_ptr<Session>& s, SessionState& st) {
        s->load(model.toStdString());
        st = SessionState{};
        st.modelPath = model;
        st.torchScriptText = s->torchScriptText();
        st.forwardArgNames = s->forwardArgumentNames();
        st.forwardArgs = s->forwardSignature();
        if (!proposeInputs)
            return;
        try {
            st.proposal = s->proposeInputs();
        } catch (const Error& e) {
            if (e.code() == ErrorCode::Cancelled)
                throw;
            // The model opened; the user enters the inputs the proposal could not find.
            st.proposalError = QString::fromStdString(e.render());
        }
    });
}

void SessionController::prepare(const ExportOptions& options) {
    post(Job::Prepare, [options](std::unique_ptr<Session>& s, SessionState& st) {
        st.options = options;
        st.hardened = st.traced = st.translated = st.exported = false;
        s->harden(options);
        st.hardened = true;
        st.hardenedText = s->hardenedText();
        st.report = s->report();
        st.graph = s->trace(options);
        st.traced = true;
        s->translate(options);
        st.translated = true;
        st.nnefText = s->nnefText();
        st.provenance = s->provenance();
        st.report = s->report();
    });
}

void SessionController::exportModel(const QString& output, const ExportOptions& options) {
    post(Job::Export, [output, options](std::unique_ptr<Session>& s, SessionState& st) {
        st.options = options;
        st.report = s->exportModel(output.toStdString(), options);
        captureStages(*s, st);
        st.artifactPath = QString::fromStdString(st.report.artifact.path.string());
        st.checkOnly = false;
    });
}

namespace {
// The NNEF views show the archive that was checked, as the check itself read
// it (CheckReport::graphText). After a hand edit, or for a debug bundle
// written by another t2n, its graph.nnef is not what the translation writes
// now: the diverging line the check names is then only found in the
// archive's text. Line links survive an edit that keeps every line in place;
// otherwise they are dropped rather than left pointing wrong. True when the
// archive's text replaced the translation's.
bool showCheckedGraph(const CheckReport& check, SessionState& st) {
    // Empty: the archive could not be read (the check says why).
    if (check.graphText.empty() || check.graphText == st.nnefText)
        return false;
    const auto lines = [](const std::string& t) { return std::count(t.begin(), t.end(), '\n'); };
    if (lines(check.graphText) != lines(st.nnefText))
        st.provenance = Provenance{};
    st.nnefText = check.graphText;
    return true;
}
} // namespace

void SessionController::checkArchive(const QString& archive, const ExportOptions& options) {
    post(Job::Check, [this, archive, options](std::unique_ptr<Session>& s, SessionState& st) {
        st.options = options;
        const CheckReport& report = s->check(archive.toStdString(), options);
        st.report = s->report();
        st.report.check = report;
        captureStages(*s, st);
        if (showCheckedGraph(report, st))
            Q_EMIT logLine(static_cast<int>(LogLevel::Warn),
                           tr("The NNEF views show graph.nnef as found in %1: it differs from "
                              "what t2n writes for this model and these options.")
                               .arg(archive));
        st.artifactPath = archive;
        st.checkOnly = true;
    });
}

void SessionController::bisect(const ExportOptions& options) {
    post(Job::Bisect, [options](std::unique_ptr<Session>& s, SessionState& st) {
        st.bisect = s->bisectHardening(options);
    });
}

} // namespace t2n::ui
