// The studio's one-file HTML report (File > Save report, and --report-html
// on the studio's command line): follows a SessionController, keeping the
// newest state and the error of the last failed job, and writes the same
// document as `t2n export --report-html` (report/report_html.h) for that run:
// its failure, where sizes froze, the IR graph, the recipe of the run (the
// options it ran with), the versions with the studio's Qt.
#pragma once

#include "session/session_controller.h"

#include <QObject>
#include <QString>

#include <optional>

namespace t2n::ui {

class HtmlReportSource : public QObject {
    Q_OBJECT
public:
    explicit HtmlReportSource(SessionController* controller);

    /// A model is open: there is a run to report.
    bool canSave() const;
    /// The document for the newest state (and the last failure, if the last
    /// job failed), to be saved as `fileName`.
    std::string render(const std::string& fileName = {}) const;
    /// Writes render() to `path` under the write protocol (t2n/outputs.h).
    /// Throws t2n::Error.
    void save(const QString& path) const;
    /// After each export or check (failed ones too), also writes the report
    /// to `path` (empty: never); a failure to write goes to the log.
    void writeAfterEachRun(const QString& path) { autoPath_ = path; }

private:
    void onFinished(SessionController::Job job, bool ok);

    SessionController* controller_;
    std::optional<JobError> error_; ///< the last job's, when it failed
    QString autoPath_;
};

} // namespace t2n::ui
