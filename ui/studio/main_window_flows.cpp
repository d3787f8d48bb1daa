// MainWindow's flows: open, prepare, export, and how each job's outcome
// reaches the views.
#include "graph/graph_view.h"
#include "session/export_form_models.h"
#include "session/graph_adapters.h"
#include "session/nnef_graph.h"
#include "session/remark_index.h"
#include "session/session_controller.h"
#include "studio/export_form.h"
#include "studio/main_window.h"
#include "studio/pass_stepper.h"
#include "studio/results_panel.h"
#include "text/code_view.h"

#include "t2n/recipe.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>

#include <filesystem>
#include <utility>

namespace t2n::ui {

void MainWindow::openModel(const QString& model, const std::vector<InputSpec>& inputs) {
    pendingInputs_ = inputs;
    log_->appendPlainText(tr("Opening %1").arg(model));
    controller_->open(model);
}

void MainWindow::exportTo(const QString& requested) {
    if (!form_->valid()) {
        tabs_->setCurrentIndex(ExportTab);
        return;
    }
    QString output = requested;
    if (output.isEmpty()) {
        const ExportOptions o = form_->options();
        const QString suffix = !o.compressionLevel        ? QStringLiteral(".nnef")
                               : *o.compressionLevel == 0 ? QStringLiteral(".nnef.tar")
                                                          : QStringLiteral(".nnef.tgz");
        const QFileInfo model(state_->modelPath);
        output = QFileDialog::getSaveFileName(
            this, tr("Export to"),
            lastOutput_.isEmpty() ? model.dir().filePath(model.completeBaseName() + suffix)
                                  : lastOutput_);
        if (output.isEmpty())
            return;
    }
    lastOutput_ = output;
    controller_->exportModel(output, form_->options());
}

void MainWindow::runBisect(const ExportOptions& options) {
    if (state_ && !state_->modelPath.isEmpty())
        controller_->bisect(options);
}

void MainWindow::saveRecipe(const QString& path) {
    ExportRecipe r;
    r.model = state_ ? state_->modelPath.toStdString() : std::string();
    r.output = lastOutput_.toStdString();
    r.options = form_->options();
    t2n::saveRecipe(path.toStdString(), r);
}

void MainWindow::loadRecipe(const QString& path) {
    const ExportRecipe r = t2n::loadRecipe(path.toStdString());
    form_->setOptions(r.options);
    lastOutput_ = QString::fromStdString(r.output.string());
    const QString model = QString::fromStdString(r.model.string());
    if (!model.isEmpty() && (!state_ || state_->modelPath != model))
        openModel(model, r.options.inputs);
    else
        prepareIfReady();
}

void MainWindow::openRecipe(const ExportRecipe& r) {
    form_->setOptions(r.options);
    lastOutput_ = QString::fromStdString(r.output.string());
    std::error_code ec;
    pendingCheck_ =
        !r.output.empty() && std::filesystem::exists(r.output, ec) ? lastOutput_ : QString();
    openModel(QString::fromStdString(r.model.string()), r.options.inputs);
}

void MainWindow::checkArchive(const QString& archive) {
    if (form_->valid() && state_ && !state_->modelPath.isEmpty())
        controller_->checkArchive(archive, form_->options());
}

void MainWindow::prepareIfReady() {
    if (form_->valid() && state_ && !state_->modelPath.isEmpty())
        controller_->prepare(form_->options());
}

void MainWindow::onJobFinished(int job, bool ok) {
    progress_->hide();
    cancel_->hide();
    Q_EMIT form_->changed(); // re-enables Export
    if (!ok)
        return; // onJobFailed said why in the status bar
    stage_->setText(tr("Ready"));
    switch (static_cast<SessionController::Job>(job)) {
    case SessionController::Job::Open: {
        addRecent(state_->modelPath);
        ExportOptions o = form_->options();
        o.inputs = pendingInputs_;
        // Without specs from the command line or a recipe, the model's own
        // signature fills what TorchScript recorded (traced models keep shapes).
        bool complete = !o.inputs.empty();
        if (o.inputs.empty()) {
            complete = !state_->forwardArgs.empty();
            for (const auto& a : state_->forwardArgs) {
                if (!a.isTensor)
                    continue;
                complete = complete && a.shape && a.dtype;
                InputSpec spec;
                spec.name = a.name;
                spec.shape = a.shape.value_or(std::vector<int64_t>{1});
                spec.dtype = a.dtype.value_or(DType::F32);
                o.inputs.push_back(spec);
            }
        }
        form_->setOptions(o);
        QHash<QString, int> ranks;
        for (const auto& in : o.inputs)
            ranks.insert(QString::fromStdString(in.name), static_cast<int>(in.shape.size()));
        form_->setTensors(ranks);
        if (!complete) {
            tabs_->setCurrentIndex(ExportTab);
            stage_->setText(tr("Fill in the input shapes, then press Export"));
        } else {
            prepareIfReady();
        }
        break;
    }
    case SessionController::Job::Export:
    case SessionController::Job::Check:
        writeReport();
        tabs_->setCurrentIndex(ResultsTab);
        if (!errors_.isEmpty())
            setColourBy(ColourByError);
        // The first diverging op (and every op out of tolerance) is marked,
        // and the first is selected in every view straight away.
        if (state_->report.check.ran && !state_->report.check.passed)
            markFailed(failedCheckNodes(*state_, errors_), results_->verdictHeadline());
        break;
    case SessionController::Job::Prepare:
        if (!pendingCheck_.isEmpty())
            checkArchive(std::exchange(pendingCheck_, QString()));
        break;
    case SessionController::Job::Bisect:
        tabs_->setCurrentIndex(PassesTab);
        if (state_->bisect)
            stepper_->showBisect(*state_->bisect);
        break;
    }
}

void MainWindow::writeReport() {
    if (reportPath_.isEmpty())
        return;
    QFile file(reportPath_);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(QByteArray::fromStdString(state_->report.toJson() + "\n")) < 0)
        log_->appendPlainText(
            tr("Cannot write the report to %1: %2").arg(reportPath_, file.errorString()));
}

void MainWindow::onJobFailed(int job, const JobError& error) {
    pendingCheck_.clear();
    log_->appendPlainText(error.rendered);
    // Shown in the window, never in a modal dialog: a headless run (the
    // offscreen platform, --screenshot) has nobody to close one.
    results_->showError(error);
    tabs_->setCurrentIndex(ResultsTab);
    if (static_cast<SessionController::Job>(job) == SessionController::Job::Open) {
        stage_->setText(tr("Cannot open the model: %1").arg(error.message));
        return;
    }
    if (error.cancelled)
        stage_->setText(tr("Stopped"));
    else
        markFailed(ui::failedNodes(*state_, error.details), error.message);
}

void MainWindow::markFailed(const FailedNodes& nodes, const QString& reason) {
    failed_ = nodes;
    const QColor red(0xd0, 0x00, 0x20);
    irGraph_->setHighlightSet(QStringLiteral("failed"),
                              QSet<QString>(nodes.ir.begin(), nodes.ir.end()), red);
    tsGraph_->setHighlightSet(QStringLiteral("failed"),
                              QSet<QString>(nodes.torchScript.begin(), nodes.torchScript.end()),
                              red);
    onlyFailed_->setEnabled(!nodes.isEmpty());
    applyFailedFilter();
    if (!nodes.torchScript.isEmpty())
        tsTabs_->setCurrentWidget(tsGraph_); // the marks are on its graph
    if (!nodes.irNodes.isEmpty())
        selectIrNode(nodes.irNodes.first());
    else if (!nodes.torchScript.isEmpty())
        tsGraph_->selectNode(nodes.torchScript.first());
    const int count = static_cast<int>(std::max(nodes.ir.size(), nodes.torchScript.size()));
    stage_->setText(count == 0 ? reason
                               : tr("%1 — %n node(s) outlined red; \"Only what failed\" fades "
                                    "the rest",
                                    nullptr, count)
                                     .arg(reason));
}

void MainWindow::setOnlyFailedShown(bool only) {
    onlyFailed_->setChecked(only);
    applyFailedFilter();
}

void MainWindow::applyFailedFilter() {
    const bool only = onlyFailed_->isChecked() && !failed_.isEmpty();
    irGraph_->setFocusSet(only ? QSet<QString>(failed_.ir.begin(), failed_.ir.end())
                               : QSet<QString>{});
    tsGraph_->setFocusSet(
        only ? QSet<QString>(failed_.torchScript.begin(), failed_.torchScript.end())
             : QSet<QString>{});
}

void MainWindow::onState(const StatePtr& state) {
    state_ = state;
    const SessionState& st = *state;
    setWindowTitle(st.modelPath.isEmpty()
                       ? windowTitle()
                       : QStringLiteral("%1 — t2n studio").arg(QFileInfo(st.modelPath).fileName()));
    torchText_->setCode(QString::fromStdString(st.hardened ? st.hardenedText : st.torchScriptText),
                        Language::TorchScriptIR);
    irText_->setCode(st.traced ? QString::fromStdString(st.graph.print()) : QString(),
                     Language::Plain);
    nnefText_->setCode(QString::fromStdString(st.nnefText), Language::Nnef);
    const harden::GraphSnapshot* hardened = st.hardened ? finalSnapshot(st.report.harden) : nullptr;
    tsGraph_->setGraph(hardened ? graphFromSnapshot(*hardened) : GraphData{});
    nnefGraph_->setGraph(st.translated ? graphFromNnef(st.nnefText, st.provenance, st.graph)
                                       : GraphData{});
    frozen_.clear();
    const auto remarks =
        st.hardened ? remarksByNode(st.report.harden) : QHash<harden::StableId, QStringList>{};
    if (st.hardened)
        torchText_->setLineNotes(remarkNotesForText(st.report.harden, remarks, st.hardenedText));
    if (st.traced) {
        GraphData irData = graphFromIr(st.graph);
        badgeRemarks(irData, st.graph, remarks);
        irGraph_->setGraph(irData);
        frozen_ = frozenFromExampleShape(st.report);
    } else {
        irGraph_->setGraph(GraphData{});
    }
    irGraph_->setHighlightSet(QStringLiteral("frozen"), frozen_, QColor(0xf0, 0x8c, 0x00));
    if (!frozen_.isEmpty())
        stage_->setText(tr("%n value(s) frozen at the example shape although they follow a "
                           "dynamic axis (outlined orange)",
                           nullptr, static_cast<int>(frozen_.size())));
    if (st.hardened)
        stepper_->setDiagnostics(st.report.harden);
    indexLines();
    errors_ = ui::nodeErrors(st.report.check, st.provenance);
    applyOverlay();
    if (st.exported)
        results_->showState(st);
    selectedIrNode_ = -1;
    showSummary();
    // A new state has not failed (yet): a failure that follows marks its nodes.
    markFailed({}, stage_->text());
}

} // namespace t2n::ui
