// The Log dock: the engine's log lines and what the window has to say about a
// job (a file opened, a report that could not be written, an error rendered).
#include "session/session_controller.h"
#include "studio/pane_host.h"

#include <QPlainTextEdit>

namespace t2n::ui {

namespace {
class LogPane : public Pane {
public:
    LogPane(PaneHost& host, QWidget* parent) : Pane(host) {
        log_ = new QPlainTextEdit(parent);
        log_->setObjectName(QStringLiteral("logView"));
        log_->setReadOnly(true);
        log_->setMaximumBlockCount(5000);
        connect(host.controller(), &SessionController::logLine, this,
                [this](int, const QString& m) { log_->appendPlainText(m); });
        connect(&host, &PaneHost::logMessage, log_, &QPlainTextEdit::appendPlainText);
    }
    QWidget* widget() const override { return log_; }

private:
    QPlainTextEdit* log_;
};
} // namespace

void registerLogPane(PaneRegistry& r) {
    // A few lines high: the views get the room.
    r.add({QStringLiteral("log"),
           QObject::tr("Log"),
           Place::BottomDock,
           {},
           110,
           [](PaneHost& h, QWidget* parent) { return new LogPane(h, parent); }});
}

} // namespace t2n::ui
