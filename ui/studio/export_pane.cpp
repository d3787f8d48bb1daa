#include "studio/export_pane.h"

#include "session/session_controller.h"
#include "studio/export_form.h"
#include "studio/pane_host.h"

#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace t2n::ui {

ExportPane::ExportPane(PaneHost& host, QWidget* parent) : Pane(host) {
    page_ = new QWidget(parent);
    auto* layout = new QVBoxLayout(page_);
    auto* scroll = new QScrollArea(page_);
    scroll->setWidgetResizable(true);
    form_ = new ExportForm(scroll);
    form_->setObjectName(QStringLiteral("exportForm"));
    scroll->setWidget(form_);
    layout->addWidget(scroll, 1);
    exportButton_ = new QPushButton(tr("Export and validate"), page_);
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    exportButton_->setEnabled(false);
    exportButton_->setMinimumHeight(36);
    connect(exportButton_, &QPushButton::clicked, &host, &PaneHost::exportRequested);
    // The running job's stage and progress where the user just clicked.
    auto* row = new QHBoxLayout;
    row->addWidget(exportButton_, 1);
    progress_ = new QProgressBar(page_);
    progress_->setObjectName(QStringLiteral("exportProgress"));
    progress_->setRange(0, 100);
    progress_->setTextVisible(true);
    progress_->setMinimumWidth(320);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), page_);
    cancel_->setObjectName(QStringLiteral("exportCancel"));
    cancel_->hide();
    row->addWidget(progress_, 1);
    row->addWidget(cancel_);
    layout->addLayout(row);
    connect(cancel_, &QPushButton::clicked, &host, &PaneHost::requestCancel);

    SessionController* c = host.controller();
    connect(form_, &ExportForm::changed, this, &ExportPane::updateButton);
    connect(c, &SessionController::jobStarted, this, &ExportPane::onJobStarted);
    connect(c, &SessionController::stageStarted, this, [this](const QString& s) {
        if (cancel_->isEnabled()) {
            progress_->setValue(0);
            progress_->setFormat(tr("%1…").arg(s));
        }
    });
    connect(c, &SessionController::progress, this,
            [this](const QString& s, double f, const QString& status) {
                if (!cancel_->isEnabled())
                    return; // "cancelling…" stays
                progress_->setValue(static_cast<int>(f * 100.0));
                progress_->setFormat(status.isEmpty() ? tr("%1 %p%").arg(s)
                                                      : tr("%1: %2").arg(s, status));
            });
    connect(c, &SessionController::jobFinished, this, [this] {
        progress_->hide();
        cancel_->hide();
        Q_EMIT form_->changed(); // re-enables Export
    });
    // The engine stops at its next poll (between passes, nodes, tensors):
    // until then the button says it heard.
    connect(&host, &PaneHost::cancelling, this, [this] {
        cancel_->setEnabled(false);
        progress_->setFormat(tr("cancelling… (stops at the next step; nothing is written)"));
    });
}

void ExportPane::onJobStarted() {
    progress_->setValue(0);
    progress_->setFormat(tr("starting…"));
    progress_->show();
    cancel_->show();
    cancel_->setEnabled(true);
    exportButton_->setEnabled(false);
    Q_EMIT exportAvailable(false);
}

void ExportPane::updateButton() {
    const StatePtr& st = host().state();
    const bool ok = form_->valid() && st && !st->modelPath.isEmpty();
    exportButton_->setEnabled(ok && !host().controller()->busy());
    Q_EMIT exportAvailable(exportButton_->isEnabled());
}

void registerExportPane(PaneRegistry& r) {
    r.add({QStringLiteral("export"),
           QObject::tr("&Export"),
           Place::Tab,
           {},
           0,
           [](PaneHost& h, QWidget* parent) { return new ExportPane(h, parent); }});
}

} // namespace t2n::ui
