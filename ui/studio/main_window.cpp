#include "studio/main_window.h"

#include "graph/graph_view.h"
#include "session/session_controller.h"
#include "session/ui_version.h"
#include "studio/export_form.h"
#include "studio/inputs_bar.h"
#include "studio/pass_stepper.h"
#include "studio/results_panel.h"
#include "studio/save_report_action.h"
#include "text/code_view.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <utility>

namespace t2n::ui {

namespace {
QWidget* titled(const QString& title, QWidget* content, QWidget* parent) {
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), box);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return box;
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), controller_(new SessionController(this)) {
    setWindowTitle(studioTitle());
    setWindowIcon(QIcon(QStringLiteral(":/t2n/icons/org.t2n.studio.svg")));
    setAcceptDrops(true);
    resize(1400, 900);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("mainTabs"));
    auto* modelPage = new QWidget(tabs_);
    auto* modelLayout = new QVBoxLayout(modelPage);
    modelLayout->setContentsMargins(0, 0, 0, 0);
    modelLayout->setSpacing(2);
    inputsBar_ = new InputsBar(modelPage);
    modelLayout->addWidget(inputsBar_);
    modelLayout->addWidget(buildModelTab(), 1);
    tabs_->addTab(modelPage, tr("Model"));
    stepper_ = new PassStepper(tabs_);
    tabs_->addTab(stepper_, tr("Passes"));
    tabs_->addTab(buildExportTab(), tr("Export"));
    results_ = new ResultsPanel(tabs_);
    tabs_->addTab(results_, tr("Results"));
    setCentralWidget(tabs_);

    properties_ = new QTableWidget(0, 2, this);
    properties_->setObjectName(QStringLiteral("propertiesPanel"));
    properties_->setHorizontalHeaderLabels({tr("Property"), tr("Value")});
    properties_->horizontalHeader()->setStretchLastSection(true);
    properties_->verticalHeader()->setVisible(false);
    properties_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* propDock = new QDockWidget(tr("Properties"), this);
    propDock->setObjectName(QStringLiteral("propertiesDock"));
    propDock->setWidget(properties_);
    addDockWidget(Qt::RightDockWidgetArea, propDock);

    log_ = new QPlainTextEdit(this);
    log_->setObjectName(QStringLiteral("logView"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    auto* logDock = new QDockWidget(tr("Log"), this);
    logDock->setObjectName(QStringLiteral("logDock"));
    logDock->setWidget(log_);
    addDockWidget(Qt::BottomDockWidgetArea, logDock);
    // The views get the room: the properties a column, the log a few lines.
    resizeDocks({propDock}, {340}, Qt::Horizontal);
    resizeDocks({logDock}, {110}, Qt::Vertical);

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
        exportProgress_->setValue(0);
        exportProgress_->setFormat(tr("starting…"));
        exportProgress_->show();
        exportCancel_->show();
        exportCancel_->setEnabled(true);
        exportButton_->setEnabled(false);
        exportAction_->setEnabled(false);
    });
    connect(controller_, &SessionController::stageStarted, this, [this](const QString& s) {
        stage_->setText(tr("Running: %1").arg(s));
        if (exportCancel_->isEnabled()) {
            exportProgress_->setValue(0);
            exportProgress_->setFormat(tr("%1…").arg(s));
        }
    });
    connect(controller_, &SessionController::progress, this,
            [this](const QString& s, double f, const QString& status) {
                progress_->setValue(static_cast<int>(f * 100.0));
                if (exportCancel_->isEnabled()) {
                    exportProgress_->setValue(static_cast<int>(f * 100.0));
                    exportProgress_->setFormat(status.isEmpty() ? tr("%1 %p%").arg(s)
                                                                : tr("%1: %2").arg(s, status));
                }
                stage_->setText(status.isEmpty() ? tr("Running: %1").arg(s)
                                                 : tr("Running: %1 — %2").arg(s, status));
            });
    connect(controller_, &SessionController::logLine, this,
            [this](int, const QString& m) { log_->appendPlainText(m); });
    connect(form_, &ExportForm::changed, this, [this] {
        const bool ok = form_->valid() && state_ && !state_->modelPath.isEmpty();
        exportButton_->setEnabled(ok && !controller_->busy());
        exportAction_->setEnabled(exportButton_->isEnabled());
    });
    connect(stepper_, &PassStepper::rerunRequested, this, &MainWindow::prepareIfReady);
    // The rewrite limit is a view of the chain, not an export option: it goes
    // into this prepare only, and a new model or export runs the whole chain.
    connect(stepper_, &PassStepper::rewriteLimitRequested, this, [this](int limit) {
        if (!form_->valid() || !state_ || state_->modelPath.isEmpty())
            return;
        ExportOptions o = form_->options();
        o.harden.rewriteLimit = limit < 0 ? std::nullopt : std::optional<int64_t>(limit);
        controller_->prepare(o);
    });
    connect(stepper_, &PassStepper::bisectRequested, this, [this] { runBisect(form_->options()); });
    connect(stepper_, &PassStepper::skipRequested, this, [this](const QString& name, bool skip) {
        ExportOptions o = form_->options();
        if (skip)
            o.harden.skip.insert(name.toStdString());
        else
            o.harden.skip.erase(name.toStdString());
        form_->setOptions(o);
        prepareIfReady();
    });
    // From the pass graph, the other views are the Model tab's.
    connect(stepper_->graphView(), &GraphView::showInOtherViewsRequested, this,
            [this](const QString& key) {
                if (selectGraphNode(key))
                    tabs_->setCurrentIndex(ModelTab);
            });
    // A node followed through the passes: Properties tells its history.
    connect(stepper_, &PassStepper::pinnedNodeShown, this, [this] {
        const auto rows = stepper_->pinnedProperties();
        properties_->setRowCount(int(rows.size()));
        for (int r = 0; r < rows.size(); ++r) {
            properties_->setItem(r, 0, new QTableWidgetItem(rows[r].first));
            properties_->setItem(r, 1, new QTableWidgetItem(rows[r].second));
        }
        properties_->resizeRowsToContents();
    });
    connect(results_, &ResultsPanel::nodeRequested, this,
            [this](const NodeRef& n, const QString& id) { selectNodeRef(n, id); });
    connect(results_, &ResultsPanel::supportedOperatorsRequested, this,
            &MainWindow::showSupportedOperators);
    // Jobs run in request order: an export asked for while the model is
    // still being prepared waits for it.
    connect(inputsBar_, &InputsBar::exportRequested, this, [this] {
        if (form_->valid() && state_ && !state_->modelPath.isEmpty())
            exportTo(QString());
        else
            tabs_->setCurrentIndex(ExportTab);
    });
    connect(inputsBar_, &InputsBar::openRequested, this, &MainWindow::askForModel);
    connect(inputsBar_, &InputsBar::changeInputsRequested, this, [this] {
        tabs_->setCurrentIndex(ExportTab);
        form_->focusFirstShape();
    });
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

QWidget* MainWindow::buildModelTab() {
    auto* split = new QSplitter(Qt::Horizontal, this);
    // The TorchScript and NNEF panes show their text or their laid-out graph.
    auto textOrGraph = [split](CodeView* text, GraphView* graph) {
        auto* tabs = new QTabWidget(split);
        tabs->setDocumentMode(true);
        tabs->addTab(text, tr("Text"));
        tabs->addTab(graph, tr("Graph"));
        return tabs;
    };
    torchText_ = new CodeView(split);
    torchText_->setObjectName(QStringLiteral("torchScriptText"));
    tsGraph_ = new GraphView(split);
    tsGraph_->setObjectName(QStringLiteral("torchScriptGraph"));
    tsTabs_ = textOrGraph(torchText_, tsGraph_);
    split->addWidget(titled(tr("TorchScript (hardened)"), tsTabs_, split));

    auto* middle = new QSplitter(Qt::Vertical, split);
    auto* graphBox = new QWidget(middle);
    auto* graphLayout = new QVBoxLayout(graphBox);
    graphLayout->setContentsMargins(0, 0, 0, 0);
    search_ = new QLineEdit(graphBox);
    search_->setObjectName(QStringLiteral("graphSearch"));
    search_->setPlaceholderText(tr("Search nodes by name, op kind, module path or shape"));
    search_->setClearButtonEnabled(true);
    auto* graphBar = new QHBoxLayout;
    graphBar->addWidget(search_, 1);
    colourBy_ = new QComboBox(graphBox);
    colourBy_->setObjectName(QStringLiteral("colourBy"));
    colourBy_->addItem(tr("Colour: op family"));
    colourBy_->addItem(tr("Colour: numeric error per op"));
    // In a small window the search field keeps room to type; the choice shrinks.
    search_->setMinimumWidth(100);
    colourBy_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    colourBy_->setMinimumContentsLength(14);
    colourBy_->setToolTip(tr("Numeric error: each op's worst value against TorchScript, fed "
                             "TorchScript's operands (green exact, yellow ~1e-5 relative, "
                             "orange ~1e-3, red out of tolerance). Needs an export or validation "
                             "with \"compare every value\"."));
    graphBar->addWidget(colourBy_);
    onlyFailed_ = new QCheckBox(tr("Only what failed"), graphBox);
    onlyFailed_->setObjectName(QStringLiteral("onlyFailed"));
    onlyFailed_->setToolTip(tr("Fade every node but those the last failure is about "
                               "(outlined red), here and on the TorchScript graph"));
    onlyFailed_->setEnabled(false);
    graphBar->addWidget(onlyFailed_);
    connect(onlyFailed_, &QCheckBox::toggled, this, &MainWindow::applyFailedFilter);
    graphLayout->addLayout(graphBar);
    connect(colourBy_, &QComboBox::currentIndexChanged, this, &MainWindow::applyOverlay);
    irGraph_ = new GraphView(graphBox);
    irGraph_->setObjectName(QStringLiteral("irGraph"));
    graphLayout->addWidget(irGraph_, 1);
    middle->addWidget(titled(tr("t2n IR graph"), graphBox, middle));
    irText_ = new CodeView(middle);
    irText_->setObjectName(QStringLiteral("irText"));
    middle->addWidget(titled(tr("t2n IR"), irText_, middle));
    middle->setStretchFactor(0, 3);
    split->addWidget(middle);

    nnefText_ = new CodeView(split);
    nnefText_->setObjectName(QStringLiteral("nnefText"));
    nnefGraph_ = new GraphView(split);
    nnefGraph_->setObjectName(QStringLiteral("nnefGraph"));
    split->addWidget(titled(tr("NNEF (graph.nnef)"), textOrGraph(nnefText_, nnefGraph_), split));
    split->setStretchFactor(1, 2);

    searchCount_ = new QLabel(graphBox);
    searchCount_->setObjectName(QStringLiteral("searchCount"));
    graphBar->insertWidget(1, searchCount_);
    // Enter: the next match (the first for a new text), Shift+Enter the previous.
    connect(search_, &QLineEdit::returnPressed, this, [this] { stepSearch(1); });
    search_->installEventFilter(this);
    for (GraphView* graph : {irGraph_, tsGraph_, nnefGraph_}) {
        connect(graph, &GraphView::nodeSelected, this, &MainWindow::selectGraphNode);
        connect(graph, &GraphView::showInOtherViewsRequested, this, &MainWindow::selectGraphNode);
    }
    connect(irText_, &CodeView::lineClicked, this, [this](int line) {
        if (const int node = index_.irNodeAtIrLine(line); node >= 0)
            selectIrNode(node);
    });
    connect(nnefText_, &CodeView::lineClicked, this, [this](int line) {
        const int node = index_.irNodeAtNnefLine(line);
        if (node >= 0)
            selectIrNode(node);
    });
    return split;
}

bool MainWindow::selectGraphNode(const QString& key) {
    int node = -1;
    if (key.startsWith(QStringLiteral("ir:"))) {
        node = key.mid(3).toInt();
    } else if (key.startsWith(QStringLiteral("nnef:"))) {
        node = index_.irNodeAtNnefLine(key.mid(5).toInt());
    } else if (key.startsWith(QStringLiteral("ts:")) && state_) {
        const int64_t torchNode = key.mid(3).toLongLong();
        for (const auto& n : state_->graph.nodes)
            if (n.torchNode == torchNode) {
                node = n.id;
                break;
            }
        if (node < 0)
            stage_->setText(tr("This TorchScript node has no IR node (folded or plumbing)"));
    }
    if (node < 0)
        return false;
    selectIrNode(node);
    return true;
}

QWidget* MainWindow::buildExportTab() {
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    auto* scroll = new QScrollArea(page);
    scroll->setWidgetResizable(true);
    form_ = new ExportForm(scroll);
    form_->setObjectName(QStringLiteral("exportForm"));
    scroll->setWidget(form_);
    layout->addWidget(scroll, 1);
    exportButton_ = new QPushButton(tr("Export and validate"), page);
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    exportButton_->setEnabled(false);
    exportButton_->setMinimumHeight(36);
    connect(exportButton_, &QPushButton::clicked, this, [this] { exportTo(QString()); });
    // The running job's stage and progress where the user just clicked.
    auto* row = new QHBoxLayout;
    row->addWidget(exportButton_, 1);
    exportProgress_ = new QProgressBar(page);
    exportProgress_->setObjectName(QStringLiteral("exportProgress"));
    exportProgress_->setRange(0, 100);
    exportProgress_->setTextVisible(true);
    exportProgress_->setMinimumWidth(320);
    exportProgress_->hide();
    exportCancel_ = new QPushButton(tr("Cancel"), page);
    exportCancel_->setObjectName(QStringLiteral("exportCancel"));
    exportCancel_->hide();
    row->addWidget(exportProgress_, 1);
    row->addWidget(exportCancel_);
    layout->addLayout(row);
    connect(exportCancel_, &QPushButton::clicked, this, &MainWindow::requestCancel);
    return page;
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
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Check an NNEF archive against the open model"), QString(),
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
        openRecipe(t2n::loadRecipe(path.toStdString()));
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
    if (!irGraph_->exportImage(path, GraphView::ExportArea::WholeGraph, &error))
        stage_->setText(tr("Could not save %1: %2").arg(path, error));
}

} // namespace t2n::ui
