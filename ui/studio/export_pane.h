// The Export tab: the export form, the Export button and, beside it, the
// running job's stage and progress with its Cancel. The window's flows read
// the form (open, recipes, export); the pane keeps the button and the
// progress in step with the controller.
#pragma once

#include "studio/pane.h"

class QProgressBar;
class QPushButton;

namespace t2n::ui {

class ExportForm;

class ExportPane : public Pane {
    Q_OBJECT
public:
    ExportPane(PaneHost& host, QWidget* parent);

    QWidget* widget() const override { return page_; }
    ExportForm* form() const { return form_; }

Q_SIGNALS:
    /// Export can run now (a valid form, a model, no job running), or not.
    void exportAvailable(bool available);

private:
    void updateButton();
    void onJobStarted();

    QWidget* page_;
    ExportForm* form_;
    QPushButton* exportButton_;
    QProgressBar* progress_;
    QPushButton* cancel_;
};

} // namespace t2n::ui
