#include "studio/main_window.h"

#include "graph/graph_view.h"
#include "session/session_controller.h"
#include "session/ui_version.h"
#include "studio/export_form.h"
#include "studio/export_pane.h"
#include "studio/inputs_bar.h"
#include "studio/model_pane.h"
#include "studio/pane_host.h"
#include "studio/pass_stepper.h"
#include "studio/results_panel.h"
#include "studio/save_report_action.h"
#include "text/code_view.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include <utility>

namespace t2n::ui {

MainWindow::MainWindow(QWidget* parent) : MainWindow(studioPanes(), parent) {}

MainWindow::MainWindow(const PaneRegistry& panes, QWidget* parent)
    : QMainWindow(parent), controller_(new SessionController(this)),
      host_(new PaneHost(controller_, this)) {
    setWindowTitle(studioTitle());
    setWindowIcon(QIcon(QStringLiteral(":/t2n/icons/org.t2n.studio.svg")));
    setAcceptDrops(true);
    resize(1400, 900);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("mainTabs"));
    installPanes(panes);
    setCentralWidget(tabs_);

    stage_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(240);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->hide();
    statusBar()->addWidget(stage_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    connect(cancel_, &QPushButton::clicked, this, &MainWindow::requestCancel);

    buildMenus();

    connect(controller_, &SessionController::stateChanged, this, &MainWindow::onState);
    connect(
        controller_, &SessionController::jobFinished, this,
        [this](SessionController::Job job, bool ok) { onJobFinished(static_cast<int>(job), ok); });
    connect(controller_, &SessionController::jobFailed, this,
            [this](SessionController::Job job, const JobError& e) {
                onJobFailed(static_cast<int>(job), e);
            });
    connect(controller_, &SessionController::jobStarted, this, [this] {
        progress_->setValue(0);
        progress_->show();
        cancel_->show();
        cancel_->setEnabled(true);
    });
    connect(controller_, &SessionController::stageStarted, this,
            [this](const QString& s) { stage_->setText(tr("Running: %1").arg(s)); });
    connect(controller_, &SessionController::progress, this,
            [this](const QString& s, double f, const QString& status) {
                progress_->setValue(static_cast<int>(f * 100.0));
                stage_->setText(status.isEmpty() ? tr("Running: %1").arg(s)
                                                 : tr("Running: %1 — %2").arg(s, status));
            });
    connectHost();
    rebuildRecentMenu();
    // The first screen says how to begin; the empty panes say what they will show.
    inputsBar_->showMessage(InputsBar::Kind::Information,
                            tr("Open a TorchScript model (a .pt file saved with torch.jit.save) "
                               "to begin, or drop it on this window. t2n works out its inputs "
                               "and shows every step of its way to an NNEF archive."),
                            InputsBar::Actions::Open);
    onState(controller_->state());
}

MainWindow::~MainWindow() = default;

void MainWindow::installPanes(const PaneRegistry& registry) {
    for (const PaneEntry& e : registry.entries()) {
        Pane* pane = e.create(*host_, e.place == Place::Tab ? static_cast<QWidget*>(tabs_) : this);
        host_->addPane(e.id, pane, e.follows);
        const QString title = QString(e.title).remove(QLatin1Char('&'));
        QWidget* frame = pane->widget();
        if (e.place == Place::Tab) {
            tabs_->addTab(frame, title);
        } else {
            auto* dock = new QDockWidget(title, this);
            dock->setObjectName(e.id + QStringLiteral("Dock"));
            dock->setWidget(pane->widget());
            const Qt::DockWidgetArea area = e.place == Place::LeftDock ? Qt::LeftDockWidgetArea
                                            : e.place == Place::RightDock
                                                ? Qt::RightDockWidgetArea
                                                : Qt::BottomDockWidgetArea;
            addDockWidget(area, dock);
            // The views get the room: a side dock a column, a bottom one a few lines.
            if (e.dockSize > 0)
                resizeDocks({dock}, {e.dockSize},
                            e.place == Place::BottomDock ? Qt::Vertical : Qt::Horizontal);
            frame = dock;
        }
        panes_.push_back({e.id, e.title, e.place, pane, frame});
    }
    // The panes the flows below use.
    ModelPane* model = modelPane();
    inputsBar_ = model->inputsBar();
    stepper_ = qobject_cast<PassStepper*>(pane(QStringLiteral("passes"))->widget());
    exportPane_ = dynamic_cast<ExportPane*>(pane(QStringLiteral("export")));
    form_ = exportPane_->form();
    results_ = qobject_cast<ResultsPanel*>(pane(QStringLiteral("results"))->widget());
}

void MainWindow::connectHost() {
    connect(host_, &PaneHost::paneRequested, this, &MainWindow::showPane);
    connect(host_, &PaneHost::statusMessage, stage_, &QLabel::setText);
    connect(host_, &PaneHost::cancelling, this, [this] {
        cancel_->setEnabled(false);
        stage_->setText(tr("Cancelling… nothing will be written"));
    });
    connect(host_, &PaneHost::exportRequested, this, [this] { exportTo(QString()); });
    connect(exportPane_, &ExportPane::exportAvailable, exportAction_, &QAction::setEnabled);
    connect(host_, &PaneHost::supportedOperatorsRequested, this,
            &MainWindow::showSupportedOperators);
    connect(host_, &PaneHost::rerunRequested, this, &MainWindow::prepareIfReady);
    // The rewrite limit is a view of the chain, not an export option: it goes
    // into this prepare only, and a new model or export runs the whole chain.
    connect(host_, &PaneHost::rewriteLimitRequested, this, [this](int limit) {
        if (!form_->valid() || !state_ || state_->modelPath.isEmpty())
            return;
        ExportOptions o = form_->options();
        o.harden.rewriteLimit = limit < 0 ? std::nullopt : std::optional<int64_t>(limit);
        controller_->prepare(o);
    });
    connect(host_, &PaneHost::bisectRequested, this, [this] { runBisect(form_->options()); });
    connect(host_, &PaneHost::passSkipRequested, this, [this](const QString& name, bool skip) {
        ExportOptions o = form_->options();
        if (skip)
            o.harden.skip.insert(name.toStdString());
        else
            o.harden.skip.erase(name.toStdString());
        form_->setOptions(o);
        prepareIfReady();
    });
    // Jobs run in request order: an export asked for while the model is
    // still being prepared waits for it.
    connect(inputsBar_, &InputsBar::exportRequested, this, [this] {
        if (form_->valid() && state_ && !state_->modelPath.isEmpty())
            exportTo(QString());
        else
            showPane(QStringLiteral("export"));
    });
    connect(inputsBar_, &InputsBar::openRequested, this, &MainWindow::askForModel);
    connect(inputsBar_, &InputsBar::changeInputsRequested, this, [this] {
        showPane(QStringLiteral("export"));
        form_->focusFirstShape();
    });
}

Pane* MainWindow::pane(const QString& id) const {
    return host_->pane(id);
}

ModelPane* MainWindow::modelPane() const {
    return dynamic_cast<ModelPane*>(pane(QStringLiteral("model")));
}

void MainWindow::showPane(const QString& id) {
    for (const Placed& p : panes_) {
        if (p.id != id)
            continue;
        if (p.place == Place::Tab) {
            tabs_->setCurrentWidget(p.frame);
        } else {
            p.frame->show();
            p.frame->raise();
        }
    }
}

GraphView* MainWindow::irGraph() const {
    return modelPane()->irGraph();
}
GraphView* MainWindow::torchScriptGraph() const {
    return modelPane()->torchScriptGraph();
}
GraphView* MainWindow::nnefGraph() const {
    return modelPane()->nnefGraph();
}
CodeView* MainWindow::torchScriptView() const {
    return modelPane()->torchScriptView();
}
CodeView* MainWindow::irTextView() const {
    return modelPane()->irTextView();
}
CodeView* MainWindow::nnefView() const {
    return modelPane()->nnefView();
}
const QHash<QString, NodeError>& MainWindow::nodeErrors() const {
    return host_->nodeErrors();
}
int MainWindow::selectedIrNode() const {
    return host_->selectedIrNode();
}
const FailedNodes& MainWindow::failedNodes() const {
    return host_->failedNodes();
}
void MainWindow::selectIrNode(int id) {
    host_->selectIrNode(id);
}
bool MainWindow::selectGraphNode(const QString& key) {
    return host_->selectGraphNode(key);
}
void MainWindow::setColourBy(ColourBy mode) {
    modelPane()->setColourBy(mode);
}
void MainWindow::setOnlyFailedShown(bool only) {
    modelPane()->setOnlyFailedShown(only);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open model…"), this, &MainWindow::askForModel);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    exportAction_ =
        file->addAction(tr("&Export and validate…"), this, [this] { exportTo(QString()); });
    exportAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction_->setEnabled(false);
    file->addAction(tr("&Validate an archive…"), this, [this] {
        // The archive an opened recipe or bundle names is proposed, and
        // checked only once the user picks it.
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Check an NNEF archive against the open model"), offeredCheck_,
            tr("NNEF archives (*.nnef.tgz *.nnef.tar *.tgz *.tar);;All files (*)"));
        if (!path.isEmpty())
            checkArchive(path);
    });
    file->addAction(tr("&Load export recipe…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Load an export recipe"), QString(), tr("Export recipes (*.json *.html)"));
        if (path.isEmpty())
            return;
        try {
            loadRecipe(path);
        } catch (const Error& e) {
            QMessageBox::warning(this, tr("Cannot load the recipe"),
                                 QString::fromStdString(e.render()));
        }
    });
    file->addAction(tr("&Save export recipe…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save the export as a recipe"),
                                                          QStringLiteral("export-recipe.json"),
                                                          tr("Export recipes (*.json)"));
        if (path.isEmpty())
            return;
        try {
            saveRecipe(path);
            stage_->setText(tr("Saved %1: run it with  t2n export --recipe %1").arg(path));
        } catch (const Error& e) {
            QMessageBox::warning(this, tr("Cannot save the recipe"),
                                 QString::fromStdString(e.render()));
        }
    });
    file->addAction(tr("Save graph &image…"), this, &MainWindow::saveGraphImage);
    addSaveReportAction(file, controller_, this);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    buildEditMenu();
    QAction* find = buildViewMenu();

    buildHelpMenu();

    auto* tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->addAction(open);
    tools->addAction(exportAction_);
    if (find)
        tools->addAction(find);
}

void MainWindow::askForModel() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a TorchScript model"), QString(),
        tr("TorchScript models (*.pt *.pth *.jit *.torchscript);;Recipes and reports "
           "(*.json *.html);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::openFile(const QString& path) {
    if (!path.endsWith(QLatin1String(".json")) && !path.endsWith(QLatin1String(".html"))) {
        openModel(path);
        return;
    }
    try { // a recipe, or the HTML report of File > Save report holding one
        openRecipe(sharedRecipe(t2n::loadRecipe(path.toStdString())));
    } catch (const Error& e) {
        QMessageBox::warning(this, tr("Cannot open"), QString::fromStdString(e.render()));
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        openFile(urls.first().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    controller_->cancel();
    QSettings settings;
    settings.setValue(QStringLiteral("windowGeometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    event->accept();
}

void MainWindow::restoreLayout() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("windowGeometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    // Saved on another screen or at another scale factor: never larger than
    // this screen, never off it (the Log and the status bar stay in sight).
    // The frame is known once shown: fitted again then.
    fitToScreen();
    fitOnShow_ = true;
}

void MainWindow::fitToScreen() {
    QScreen* s = screen();
    if (!s)
        return;
    const QRect fitted = clampedToScreen(frameGeometry(), s->availableGeometry());
    if (fitted == frameGeometry())
        return;
    const QSize frame = frameGeometry().size() - geometry().size();
    resize(fitted.size() - frame);
    move(fitted.topLeft());
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (std::exchange(fitOnShow_, false))
        fitToScreen();
}

void MainWindow::addRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentModels")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 10)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentModels"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentModels")).toStringList();
    for (const QString& path : recent)
        recentMenu_->addAction(path, this, [this, path] {
            openModel(path, rememberedInputs(path), tr("your last session with this model"));
        });
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::saveGraphImage() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the graph as an image"),
                                                      QStringLiteral("graph.png"),
                                                      tr("PNG image (*.png);;SVG image (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!irGraph()->exportImage(path, GraphView::ExportArea::WholeGraph, &error))
        stage_->setText(tr("Could not save %1: %2").arg(path, error));
}

} // namespace t2n::ui
