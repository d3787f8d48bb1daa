// t2n-studio's main window: the panes of a PaneRegistry (the model side by
// side, the pass stepper, the export form, the results, Properties, the log)
// placed as tabs and docks over one SessionController, with the menus, the
// status bar and the flows (open, export, recipes). The panes share the
// selection through a PaneHost; the window only places them and runs what
// they ask for. Every stage runs in the engine on the worker thread.
#pragma once

#include "session/failed_nodes.h"
#include "session/session_state.h"
#include "session/value_overlay.h"
#include "studio/pane.h"

#include "t2n/recipe.h"

#include <QMainWindow>

#include <vector>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace t2n::ui {

class CodeView;
class ExportForm;
class ExportPane;
class InputsBar;
class GraphView;
class ModelPane;
class PaneHost;
class PassStepper;
class ResultsPanel;
class SessionController;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// The tabs of studioPanes(), in its order.
    enum Tab { ModelTab, PassesTab, ExportTab, ResultsTab };

    /// The studio's panes (studioPanes()).
    explicit MainWindow(QWidget* parent = nullptr);
    /// The panes of `panes`, which must include the studio's own (the flows
    /// use the Model, Export, Passes and Results panes).
    explicit MainWindow(const PaneRegistry& panes, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens `model`; `inputs` fill the input table (`inputsFrom` says from
    /// where: "the recipe"), else the engine proposes them. A model that
    /// cannot be opened leaves the open one, and every view, as it was.
    void openModel(const QString& model, const std::vector<InputSpec>& inputs = {},
                   const QString& inputsFrom = {});
    /// Exports with the form's options to `output` (asks when empty).
    void exportTo(const QString& output);
    /// Checks an existing archive against the open model with the form's options.
    void checkArchive(const QString& archive);
    /// Runs the semantic bisect of the hardening chain with `options`.
    void runBisect(const ExportOptions& options);
    /// The model, the last export path and the form as a recipe file that
    /// `t2n export --recipe FILE` runs unchanged. Throws t2n::Error.
    void saveRecipe(const QString& path);
    /// Fills the form from a recipe file (or an HTML report's) and opens its
    /// model (unless open already); the file is shared data, so its debug
    /// bundle path is dropped (see sharedRecipe). Throws t2n::Error.
    void loadRecipe(const QString& path);
    /// Opens `recipe` as given on the command line: its model, the form filled
    /// from its options, its output as the export path. It only shows: when
    /// that output exists already (the archive of a failed check, a debug
    /// bundle's model), it is offered to File > Validate an archive…
    /// (offeredCheck()), never checked on open, so that a shared recipe,
    /// report or bundle never makes the studio write (a debug bundle) or
    /// replace anything by being opened.
    void openRecipe(const ExportRecipe& recipe);
    /// The archive the last opened recipe names, when it exists: the file
    /// that File > Validate an archive… proposes. Empty when none.
    QString offeredCheck() const { return offeredCheck_; }
    /// `recipe` as read from a file someone else may have written: without
    /// the debug bundle path (where a failed check would write a bundle with
    /// an executable run.sh), logged when there was one. A bundle is written
    /// where the user says (t2n-studio --debug-bundle), never where a file says.
    ExportRecipe sharedRecipe(ExportRecipe recipe);
    /// The window's size, docks and toolbars as the user left them (saved on
    /// close). Not called for screenshots and tests, which want the defaults.
    void restoreLayout();
    /// After each export or check, the JSON report is also written to `path`.
    void setReportPath(const QString& path) { reportPath_ = path; }
    /// `window` moved and shrunk to fit in `available` (a screen's free area).
    static QRect clampedToScreen(const QRect& window, const QRect& available);
    /// "3 of 12" after a search, "no match", or "".
    QString searchCountText() const;

    SessionController* controller() const { return controller_; }
    /// What the panes share: the selection, the state shown.
    PaneHost* paneHost() const { return host_; }
    /// The pane registered as `id` (null: none).
    Pane* pane(const QString& id) const;
    /// Makes pane `id` visible: its tab current, its dock shown and raised.
    void showPane(const QString& id);
    /// The strip above the model's panes: proposed inputs, a failed open.
    InputsBar* inputsBar() const { return inputsBar_; }
    /// The inputs last used with `model` (remembered with its recent-files entry).
    static std::vector<InputSpec> rememberedInputs(const QString& model);
    ExportForm* exportForm() const { return form_; }
    PassStepper* passStepper() const { return stepper_; }
    ResultsPanel* results() const { return results_; }
    GraphView* irGraph() const;
    /// The hardened TorchScript graph and the written NNEF graph, laid out
    /// (the "Graph" tabs beside their texts).
    GraphView* torchScriptGraph() const;
    GraphView* nnefGraph() const;
    CodeView* torchScriptView() const;
    CodeView* irTextView() const;
    CodeView* nnefView() const;
    QTabWidget* tabs() const { return tabs_; }
    enum ColourBy { ColourByFamily, ColourByError };
    /// Switches the IR graph's fill between op families and per-op numeric error.
    void setColourBy(ColourBy mode);
    /// Per IR graph node, the check's worst value error (after a check that
    /// compared every value).
    const QHash<QString, NodeError>& nodeErrors() const;
    /// The IR node shown as selected everywhere (-1: none).
    int selectedIrNode() const;
    /// The nodes the last failure is about (unsupported operators, the node a
    /// run or check stopped at, ops out of tolerance), marked on the graphs.
    const FailedNodes& failedNodes() const;
    /// Fades every node but the failed ones on the IR and TorchScript graphs.
    void setOnlyFailedShown(bool only);

public Q_SLOTS:
    /// Selects IR node `id` in every view (graph, IR text, NNEF text, properties).
    void selectIrNode(int id);
    /// Cancels the running job, with "cancelling" shown until it stops.
    void requestCancel();
    /// Selects in every view the IR node that a graph's node key ("ir:N",
    /// "ts:N", "nnef:LINE") stands for; false when it stands for none.
    bool selectGraphNode(const QString& key);

protected:
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    /// Creates the panes, as tabs and docks; the host tells each what it follows.
    void installPanes(const PaneRegistry& panes);
    /// The requests of the panes, to the flows below.
    void connectHost();
    ModelPane* modelPane() const;
    void buildMenus();
    void buildHelpMenu();
    void fitToScreen();
    /// Sets offeredCheck() to `recipe`'s output when it exists, and says so.
    void offerExistingOutput(const ExportRecipe& recipe);
    /// File > Open model: a file dialog, then openFile().
    void askForModel();
    /// Edit > Undo / Redo of the export form's edits.
    void buildEditMenu();
    /// A model, or a recipe (.json) or HTML report (.html) whose recipe is opened.
    void openFile(const QString& path);
    /// The View menu: the panes' own actions, a Ctrl+N per tab and a toggle
    /// per dock (all from the registry); returns the Find action, if any.
    QAction* buildViewMenu();

    void showSupportedOperators();
    /// After an open: the inputs (given, remembered or proposed) into the
    /// form, the note that says where they came from, and the next step.
    void fillOpenedInputs();
    void rememberInputs();
    void onState(const StatePtr& state);
    void onJobFinished(int job, bool ok);
    void onJobFailed(int job, const JobError& error);
    void prepareIfReady();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void saveGraphImage();
    void writeReport();
    /// Marks `nodes` in every view, selects the first one, says why.
    void markFailed(const FailedNodes& nodes, const QString& reason);

    struct Placed {
        QString id;
        QString title; ///< with its '&' mnemonic
        Place place;
        Pane* pane;
        QWidget* frame; ///< the widget in the tab, or the dock
    };

    SessionController* controller_;
    PaneHost* host_;
    std::vector<Placed> panes_;
    QTabWidget* tabs_;
    bool fitOnShow_ = false;
    // The panes the flows use.
    InputsBar* inputsBar_ = nullptr;
    PassStepper* stepper_ = nullptr;
    ExportPane* exportPane_ = nullptr;
    ExportForm* form_ = nullptr;
    ResultsPanel* results_ = nullptr;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QLabel* stage_;
    QMenu* recentMenu_ = nullptr;
    QAction* exportAction_ = nullptr;
    StatePtr state_;
    std::vector<InputSpec> pendingInputs_;
    QString pendingInputsFrom_;
    QString lastOutput_;
    QString offeredCheck_; ///< see offeredCheck()
    QString reportPath_;
};

} // namespace t2n::ui
