#include "session/html_report_source.h"

#include "report/report_html.h"
#include "report/runtime_json.h"
#include "session/ui_version.h"

#include "t2n/outputs.h"
#include "t2n/runtime_info.h"

#include <QFileInfo>

namespace t2n::ui {

namespace {

// The engine error a JobError was made from (session_controller.cpp keeps
// its parts): the report renders it as the command line would.
Error engineError(const JobError& je) {
    Stage stage = Stage::Report;
    for (Stage s : {Stage::Load, Stage::Harden, Stage::Trace, Stage::Translate, Stage::Write,
                    Stage::Check, Stage::Report})
        if (je.stage == QString::fromUtf8(stageName(s).data(), stageName(s).size()))
            stage = s;
    Error e(stage, static_cast<ErrorCode>(je.code), je.message.toStdString(),
            je.hint.toStdString());
    for (const auto& d : je.details)
        e.addDetail(d);
    return e;
}

} // namespace

HtmlReportSource::HtmlReportSource(SessionController* controller)
    : QObject(controller), controller_(controller) {
    connect(controller, &SessionController::jobStarted, this, [this] { error_.reset(); });
    connect(controller, &SessionController::jobFailed, this,
            [this](SessionController::Job, const JobError& e) { error_ = e; });
    connect(controller, &SessionController::jobFinished, this, &HtmlReportSource::onFinished);
}

bool HtmlReportSource::canSave() const {
    return !controller_->state()->modelPath.isEmpty();
}

std::string HtmlReportSource::render(const std::string& fileName) const {
    const SessionState& st = *controller_->state();
    report::HtmlReportInputs in;
    in.command = "t2n-studio";
    in.checkOnly = st.checkOnly;
    // Absolute: the report is reopened from wherever it was saved or sent.
    auto absolute = [](const QString& p) {
        return p.isEmpty() ? std::string() : QFileInfo(p).absoluteFilePath().toStdString();
    };
    in.recipe.model = absolute(st.modelPath);
    in.recipe.output = absolute(st.artifactPath);
    in.recipe.options = st.options;
    in.report = &st.report;
    in.graph = st.traced ? &st.graph : nullptr;
    std::optional<Error> error;
    if (error_ && !error_->cancelled)
        error = engineError(*error_);
    in.error = error ? &*error : nullptr;
    nlohmann::json versions = report::runtimeJson(runtimeInfo());
    versions["qt"] = qVersion();
    versions["studio"] = studioTitle().toStdString();
    in.versionsJson = versions.dump();
    in.fileName = fileName;
    return report::renderHtmlReport(in);
}

void HtmlReportSource::save(const QString& path) const {
    const std::filesystem::path to = path.toStdString();
    const SessionState& st = *controller_->state();
    // As for `t2n export --report-html`: never over a file the run reads or wrote.
    std::vector<std::filesystem::path> taken{st.modelPath.toStdString(),
                                             st.artifactPath.toStdString()};
    for (const auto& input : st.options.inputs)
        if (!input.valuesFile.empty())
            taken.emplace_back(input.valuesFile);
    checkTextDestination(to, Stage::Report, "HTML report", taken);
    PendingOutputs pending;
    pending.addText(to, render(to.filename().string()), Stage::Report, "HTML report");
    pending.publish();
}

void HtmlReportSource::onFinished(SessionController::Job job, bool ok) {
    const bool run = job == SessionController::Job::Export ||
                     job == SessionController::Job::Check ||
                     (!ok && job == SessionController::Job::Prepare);
    if (autoPath_.isEmpty() || !run || (error_ && error_->cancelled))
        return;
    try {
        save(autoPath_);
    } catch (const Error& e) {
        Q_EMIT controller_->logLine(static_cast<int>(LogLevel::Error),
                                    QString::fromStdString(e.render()));
    }
}

} // namespace t2n::ui
