#include "studio/save_report_action.h"

#include "session/html_report_source.h"

#include "t2n/error.h"

#include <QAction>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>

namespace t2n::ui {

QAction* addSaveReportAction(QMenu* menu, SessionController* controller, QWidget* window) {
    auto* source = new HtmlReportSource(controller);
    QAction* action = menu->addAction(QObject::tr("Save &report (HTML)…"));
    action->setObjectName(QStringLiteral("saveReportAction"));
    action->setToolTip(QObject::tr("One self-contained HTML file with the failure, where sizes "
                                   "froze, the graph, the recipe and the versions: attach it to "
                                   "a bug report; File > Open reopens its recipe"));
    QObject::connect(menu, &QMenu::aboutToShow, action,
                     [action, source] { action->setEnabled(source->canSave()); });
    QObject::connect(action, &QAction::triggered, window, [window, source] {
        const QString path = QFileDialog::getSaveFileName(
            window, QObject::tr("Save a one-file report"), QStringLiteral("t2n-report.html"),
            QObject::tr("HTML reports (*.html)"));
        if (path.isEmpty())
            return;
        try {
            source->save(path);
        } catch (const Error& e) {
            QMessageBox::warning(window, QObject::tr("Cannot save the report"),
                                 QString::fromStdString(e.render()));
        }
    });
    return action;
}

} // namespace t2n::ui
