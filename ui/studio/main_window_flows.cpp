// MainWindow's flows: open, prepare, export, and how each job's outcome
// reaches the views.
#include "graph/graph_view.h"
#include "session/export_form_models.h"
#include "session/graph_adapters.h"
#include "session/nnef_graph.h"
#include "session/remark_index.h"
#include "session/session_controller.h"
#include "studio/export_form.h"
#include "studio/inputs_bar.h"
#include "studio/main_window.h"
#include "studio/pane_host.h"
#include "studio/pass_stepper.h"
#include "studio/results_panel.h"
#include "text/code_view.h"

#include "t2n/recipe.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>

#include <filesystem>
#include <utility>

namespace t2n::ui {

void MainWindow::openModel(const QString& model, const std::vector<InputSpec>& inputs,
                           const QString& inputsFrom) {
    pendingInputs_ = inputs;
    pendingInputsFrom_ = inputsFrom;
    Q_EMIT host_->logMessage(tr("Opening %1").arg(model));
    // Without inputs, the engine proposes them while the model opens.
    controller_->open(model, inputs.empty());
}

namespace {
QString settingsKey(const QString& model) {
    return QStringLiteral("modelInputs/") +
           QString::fromLatin1(model.toUtf8().toBase64(QByteArray::Base64UrlEncoding));
}

QString specsText(const std::vector<InputSpec>& specs) {
    QStringList out;
    for (const auto& s : specs)
        out << QString::fromStdString(s.toString());
    return out.join(QStringLiteral(", "));
}
} // namespace

std::vector<InputSpec> MainWindow::rememberedInputs(const QString& model) {
    std::vector<InputSpec> out;
    try {
        for (const QString& s : QSettings().value(settingsKey(model)).toStringList())
            out.push_back(InputSpec::parse(s.toStdString()));
    } catch (const Error&) {
        return {}; // written by another version: proposed again
    }
    return out;
}

void MainWindow::rememberInputs() {
    if (!state_ || state_->modelPath.isEmpty() || state_->options.inputs.empty())
        return;
    QStringList specs;
    for (const auto& s : state_->options.inputs)
        specs << QString::fromStdString(s.toString());
    QSettings().setValue(settingsKey(state_->modelPath), specs);
}

void MainWindow::fillOpenedInputs() {
    const SessionState& st = *state_;
    std::vector<InputSpec> inputs = std::exchange(pendingInputs_, {});
    const QString from = std::exchange(pendingInputsFrom_, QString());
    QString note;
    bool proposed = false;
    if (!inputs.empty()) {
        note = from.isEmpty() ? QString() : tr("Inputs from %1: %2.").arg(from, specsText(inputs));
    } else if (st.proposal) {
        inputs = st.proposal->specs();
        proposed = true;
        QStringList lines;
        for (const auto& i : st.proposal->inputs)
            lines << tr("%1 %2 (%3): %4")
                         .arg(QString::fromStdString(i.spec.name),
                              i.spec.shape.empty() ? tr("scalar")
                                                   : QString::fromStdString(i.spec.toString())
                                                         .section(QLatin1Char(':'), 1, 1),
                              QString::fromLatin1(dtypeName(i.spec.dtype).data()),
                              QString::fromStdString(i.reason));
        for (const auto& d : st.proposal->defaulted)
            lines << tr("%1: left to its default").arg(QString::fromStdString(d));
        note = tr("Proposed by t2n and confirmed by running the model once; change them if "
                  "your data has other sizes.\n") +
               lines.join(QLatin1Char('\n'));
    } else {
        // What the signature records (traced models keep shapes); the user
        // fills in the rest. A number forward() takes (Silero VAD's `sr:
        // int`) is a typed row whose value the user gives.
        QStringList scalars;
        for (const auto& a : st.forwardArgs) {
            InputSpec spec;
            spec.name = a.name;
            if (!a.isTensor) {
                const auto dtype = InputSpecsModel::scalarDType(QString::fromStdString(a.type));
                if (!dtype)
                    continue;
                spec.dtype = *dtype;
                inputs.push_back(spec);
                scalars << tr("%1 (%2)").arg(QString::fromStdString(a.name),
                                             QString::fromStdString(a.type));
                continue;
            }
            spec.shape = a.shape.value_or(std::vector<int64_t>{1});
            spec.dtype = a.dtype.value_or(DType::F32);
            inputs.push_back(spec);
        }
        note = tr("t2n could not find inputs this model accepts; enter each input's shape "
                  "(like 1x3x224x224) and type.");
        if (!scalars.isEmpty())
            note += QLatin1Char(' ') +
                    tr("%1: a number forward() takes besides its tensors; give its value in "
                       "the values column (the archive holds it as a constant).")
                        .arg(scalars.join(QStringLiteral(", ")));
        else
            note += QLatin1Char(' ') + st.proposalError.section(QLatin1Char('\n'), 0, 0);
    }
    QHash<QString, QString> scalarTypes;
    for (const auto& a : st.forwardArgs)
        if (!a.isTensor && InputSpecsModel::scalarDType(QString::fromStdString(a.type)))
            scalarTypes.insert(QString::fromStdString(a.name), QString::fromStdString(a.type));
    form_->inputsModel()->setScalarArguments(scalarTypes);
    form_->setInputs(inputs);
    form_->setInputsNote(note);
    QHash<QString, int> ranks;
    for (const auto& in : inputs)
        ranks.insert(QString::fromStdString(in.name), static_cast<int>(in.shape.size()));
    form_->setTensors(ranks);
    form_->focusFirstShape();
    const QString name = QFileInfo(st.modelPath).fileName();
    if (proposed) {
        inputsBar_->showMessage(
            InputsBar::Kind::Information,
            tr("%1 opened. t2n proposed its inputs and confirmed them by running the model: %2. "
               "Export writes the NNEF archive; the Export page says why each size was chosen.")
                .arg(name, specsText(inputs)),
            InputsBar::Actions::ExportOrChange);
    } else if (!st.proposal && !st.proposalError.isEmpty()) {
        inputsBar_->showMessage(InputsBar::Kind::Warning,
                                tr("%1 opened, but t2n could not find inputs it accepts. Enter "
                                   "them on the Export page.")
                                    .arg(name),
                                InputsBar::Actions::ExportOrChange);
    } else {
        inputsBar_->hide();
    }
    if (form_->valid()) {
        prepareIfReady();
        stage_->setText(tr("%1 opened: press Export to write the archive").arg(name));
    } else {
        showPane(QStringLiteral("export"));
        form_->focusFirstShape();
        stage_->setText(tr("Fill in the input shapes, then press Export"));
    }
}

void MainWindow::exportTo(const QString& requested) {
    if (!form_->valid()) {
        showPane(QStringLiteral("export"));
        return;
    }
    QString output = requested.isEmpty() ? form_->outputPath() : requested;
    if (output.isEmpty()) {
        const ExportOptions o = form_->options();
        const QString suffix = !o.compressionLevel        ? QStringLiteral(".nnef")
                               : *o.compressionLevel == 0 ? QStringLiteral(".nnef.tar")
                                                          : QStringLiteral(".nnef.tgz");
        // The folder of the last export (models often sit in a download or
        // source folder nobody wants archives in), else the home folder.
        const QString dir =
            QSettings().value(QStringLiteral("lastOutputDir"), QDir::homePath()).toString();
        output = QFileDialog::getSaveFileName(
            this, tr("Export to"),
            QDir(dir).filePath(QFileInfo(state_->modelPath).completeBaseName() + suffix));
        if (output.isEmpty())
            return;
    }
    lastOutput_ = output;
    form_->setOutputPath(output);
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

void MainWindow::offerExistingOutput(const ExportRecipe& r) {
    std::error_code ec;
    offeredCheck_ = !r.output.empty() && std::filesystem::exists(r.output, ec)
                        ? QString::fromStdString(r.output.string())
                        : QString();
    if (!offeredCheck_.isEmpty())
        Q_EMIT host_->logMessage(tr("The recipe's archive %1 exists: File > Validate an "
                                    "archive… checks it against the model (opening a recipe "
                                    "checks and writes nothing)")
                                     .arg(offeredCheck_));
}

ExportRecipe MainWindow::sharedRecipe(ExportRecipe r) {
    if (!r.options.debugBundle.empty())
        Q_EMIT host_->logMessage(tr("The recipe names the debug bundle %1: ignored; a bundle is "
                                    "written only where you ask (t2n-studio --debug-bundle)")
                                     .arg(QString::fromStdString(r.options.debugBundle)));
    r.options.debugBundle.clear();
    return r;
}

void MainWindow::loadRecipe(const QString& path) {
    const ExportRecipe r = sharedRecipe(t2n::loadRecipe(path.toStdString()));
    if (!r.ignoredTractBinary.empty()) // recipes name no program to run (issue 26)
        Q_EMIT host_->logMessage(tr("The recipe names the tract binary %1: ignored; start the "
                                    "studio with --tract-bin to use it")
                                     .arg(QString::fromStdString(r.ignoredTractBinary)));
    form_->setOptions(r.options);
    lastOutput_ = QString::fromStdString(r.output.string());
    form_->setOutputPath(lastOutput_);
    offerExistingOutput(r);
    const QString model = QString::fromStdString(r.model.string());
    if (!model.isEmpty() && (!state_ || state_->modelPath != model))
        openModel(model, r.options.inputs, tr("the recipe"));
    else
        prepareIfReady();
}

void MainWindow::openRecipe(const ExportRecipe& r) {
    form_->setOptions(r.options);
    lastOutput_ = QString::fromStdString(r.output.string());
    form_->setOutputPath(lastOutput_);
    offerExistingOutput(r);
    openModel(QString::fromStdString(r.model.string()), r.options.inputs, tr("the recipe"));
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
    cancel_->hide(); // the Export pane re-enables Export
    if (!ok)
        return; // onJobFailed said why in the status bar
    stage_->setText(tr("Ready"));
    switch (static_cast<SessionController::Job>(job)) {
    case SessionController::Job::Open:
        addRecent(state_->modelPath);
        fillOpenedInputs();
        break;
    case SessionController::Job::Export:
    case SessionController::Job::Check: {
        writeReport();
        rememberInputs();
        // The sizes cells of the dynamic axes show the rule the trace used.
        QHash<QString, DynamicAxesModel::InferredRule> rules;
        for (const auto& p : state_->graph.symbolProbes)
            if (!p.declared)
                rules.insert(QString::fromStdString(p.name),
                             {QString::fromStdString(p.rule), QString::fromStdString(p.why)});
        form_->axesModel()->setInferredRules(rules);
        if (state_->report.written && !state_->checkOnly)
            QSettings().setValue(QStringLiteral("lastOutputDir"),
                                 QFileInfo(state_->artifactPath).absolutePath());
        showPane(QStringLiteral("results"));
        if (!host_->nodeErrors().isEmpty())
            setColourBy(ColourByError);
        // The first diverging op (and every op out of tolerance) is marked,
        // and the first is selected in every view straight away.
        if (state_->report.check.ran && !state_->report.check.passed)
            markFailed(failedCheckNodes(*state_, host_->nodeErrors()), results_->verdictHeadline());
        break;
    }
    case SessionController::Job::Prepare:
        rememberInputs();
        break;
    case SessionController::Job::Bisect:
        showPane(QStringLiteral("passes"));
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
        Q_EMIT host_->logMessage(
            tr("Cannot write the report to %1: %2").arg(reportPath_, file.errorString()));
}

void MainWindow::onJobFailed(int job, const JobError& error) {
    Q_EMIT host_->logMessage(error.rendered);
    // Shown in the window, never in a modal dialog: a headless run (the
    // offscreen platform, --screenshot) has nobody to close one.
    if (static_cast<SessionController::Job>(job) == SessionController::Job::Open) {
        // The open model (if any) and every view stay as they were: only
        // this strip and the status bar speak of the file that failed.
        pendingInputs_.clear();
        const QString kept =
            state_ && !state_->modelPath.isEmpty()
                ? tr(" %1 is still open.").arg(QFileInfo(state_->modelPath).fileName())
                : QString();
        inputsBar_->showMessage(
            InputsBar::Kind::Error,
            tr("Cannot open the model: %1%2%3")
                .arg(error.message,
                     error.hint.isEmpty() ? QString()
                                          : QStringLiteral(" (") + error.hint + QStringLiteral(")"),
                     kept),
            InputsBar::Actions::Open);
        stage_->setText(tr("Cannot open the model: %1").arg(error.message));
        showPane(QStringLiteral("model"));
        return;
    }
    if (error.cancelled) {
        // The views keep the last completed job (the controller kept its state).
        stage_->setText(tr("Stopped: nothing was written; the views show the last completed run"));
        return;
    }
    results_->showError(error);
    showPane(QStringLiteral("results"));
    markFailed(ui::failedNodes(*state_, error.details), error.message);
}

void MainWindow::markFailed(const FailedNodes& nodes, const QString& reason) {
    host_->markFailed(nodes);
    const int count = static_cast<int>(std::max(nodes.ir.size(), nodes.torchScript.size()));
    stage_->setText(count == 0 ? reason
                               : tr("%1 — %n node(s) outlined red; \"Only what failed\" fades "
                                    "the rest",
                                    nullptr, count)
                                     .arg(reason));
}

void MainWindow::onState(const StatePtr& state) {
    state_ = state;
    const SessionState& st = *state;
    setWindowTitle(st.modelPath.isEmpty()
                       ? windowTitle()
                       : QStringLiteral("%1 — t2n studio").arg(QFileInfo(st.modelPath).fileName()));
    host_->showState(state); // every pane that follows the state, in registry order
    // A new state has not failed (yet): a failure that follows marks its nodes.
    markFailed({}, stage_->text());
}

} // namespace t2n::ui
