// File > Save report: the one-file HTML report of the last run
// (session/html_report_source.h), asked for a file name and written; the
// window adds the action with one call.
#pragma once

class QAction;
class QMenu;
class QWidget;

namespace t2n::ui {

class SessionController;

/// Adds "Save report (HTML)…" to `menu`, writing the report of
/// `controller`'s last run; problems are shown in a message box on `window`.
QAction* addSaveReportAction(QMenu* menu, SessionController* controller, QWidget* window);

} // namespace t2n::ui
