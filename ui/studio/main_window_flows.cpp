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

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>

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
            this, tr("Export to"), model.dir().filePath(model.completeBaseName() + suffix));
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
    stage_->setText(ok ? tr("Ready") : tr("Stopped"));
    Q_EMIT form_->changed(); // re-enables Export
    if (!ok)
        return;
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
        tabs_->setCurrentIndex(ResultsTab);
        if (!errors_.isEmpty())
            setColourBy(ColourByError);
        // The first diverging op is selected in every view straight away.
        if (state_->report.check.diverged)
            selectNodeRef(state_->report.check.divergence.node,
                          QString::fromStdString(state_->report.check.divergence.identifier),
                          false);
        break;
    case SessionController::Job::Prepare:
        break;
    case SessionController::Job::Bisect:
        tabs_->setCurrentIndex(PassesTab);
        if (state_->bisect)
            stepper_->showBisect(*state_->bisect);
        break;
    }
}

void MainWindow::onJobFailed(int job, const JobError& error) {
    log_->appendPlainText(error.rendered);
    // Shown in the window, never in a modal dialog: a headless run (the
    // offscreen platform, --screenshot) has nobody to close one.
    if (static_cast<SessionController::Job>(job) == SessionController::Job::Open)
        stage_->setText(tr("Cannot open the model: %1").arg(error.message));
    results_->showError(error);
    tabs_->setCurrentIndex(ResultsTab);
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
    properties_->setRowCount(0);
}

} // namespace t2n::ui
