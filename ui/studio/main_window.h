// t2n-studio's main window: the model side by side (TorchScript text, t2n IR
// graph and text, NNEF text), the pass stepper, the export form and the
// results, over one SessionController. The window only arranges views and
// forwards requests; every stage runs in the engine on the worker thread.
#pragma once

#include "session/failed_nodes.h"
#include "session/selection_index.h"
#include "session/session_state.h"
#include "session/value_overlay.h"

#include "t2n/recipe.h"

#include <QMainWindow>
#include <QSet>

#include <vector>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace t2n::ui {

class CodeView;
class ExportForm;
class InputsBar;
class GraphView;
class PassStepper;
class ResultsPanel;
class SessionController;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Tab { ModelTab, PassesTab, ExportTab, ResultsTab };

    explicit MainWindow(QWidget* parent = nullptr);
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
    /// Fills the form from a recipe and opens its model (unless open already). Throws t2n::Error.
    void loadRecipe(const QString& path);
    /// Opens `recipe` as given on the command line: its model, the form filled
    /// from its options, its output as the export path; when that output
    /// exists already (the archive of a failed check, a debug bundle's model),
    /// it is checked again once the model is prepared.
    void openRecipe(const ExportRecipe& recipe);
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
    /// The strip above the model's panes: proposed inputs, a failed open.
    InputsBar* inputsBar() const { return inputsBar_; }
    /// The inputs last used with `model` (remembered with its recent-files entry).
    static std::vector<InputSpec> rememberedInputs(const QString& model);
    ExportForm* exportForm() const { return form_; }
    PassStepper* passStepper() const { return stepper_; }
    ResultsPanel* results() const { return results_; }
    GraphView* irGraph() const { return irGraph_; }
    /// The hardened TorchScript graph and the written NNEF graph, laid out
    /// (the "Graph" tabs beside their texts).
    GraphView* torchScriptGraph() const { return tsGraph_; }
    GraphView* nnefGraph() const { return nnefGraph_; }
    CodeView* torchScriptView() const { return torchText_; }
    CodeView* irTextView() const { return irText_; }
    CodeView* nnefView() const { return nnefText_; }
    QTabWidget* tabs() const { return tabs_; }
    enum ColourBy { ColourByFamily, ColourByError };
    /// Switches the IR graph's fill between op families and per-op numeric error.
    void setColourBy(ColourBy mode);
    /// Per IR graph node, the check's worst value error (after a check that
    /// compared every value).
    const QHash<QString, NodeError>& nodeErrors() const { return errors_; }
    /// The IR node shown as selected everywhere (-1: none).
    int selectedIrNode() const { return selectedIrNode_; }
    /// The nodes the last failure is about (unsupported operators, the node a
    /// run or check stopped at, ops out of tolerance), marked on the graphs.
    const FailedNodes& failedNodes() const { return failed_; }
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
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildHelpMenu();
    void fitToScreen();
    /// File > Open model: a file dialog, then openFile().
    void askForModel();
    /// Edit > Undo / Redo of the export form's edits.
    void buildEditMenu();
    /// A model, or a recipe (.json) or HTML report (.html) whose recipe is opened.
    void openFile(const QString& path);
    /// The View menu (docks, minimap, tabs, search); returns its Find action.
    QAction* buildViewMenu();
    /// Next (+1) or previous (-1) search match, selected in every view, with "n of m".
    void stepSearch(int direction);

    void showSupportedOperators();
    /// After an open: the inputs (given, remembered or proposed) into the
    /// form, the note that says where they came from, and the next step.
    void fillOpenedInputs();
    void rememberInputs();
    QWidget* buildModelTab();
    QWidget* buildExportTab();
    void onState(const StatePtr& state);
    void onJobFinished(int job, bool ok);
    void onJobFailed(int job, const JobError& error);
    void prepareIfReady();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    /// Prints the IR text and builds index_ from the engine's node lines.
    void indexLines();
    void showProperties(int irNode);
    /// The model's summary in the properties dock (nothing selected).
    void showSummary();
    void selectNodeRef(const NodeRef& node, const QString& nnefIdentifier, bool showModel = true);
    void saveGraphImage();
    void writeReport();
    /// Marks `nodes` on both graphs, selects and centres the first one.
    void markFailed(const FailedNodes& nodes, const QString& reason);
    void applyFailedFilter();
    void applyOverlay();

    SessionController* controller_;
    QTabWidget* tabs_;
    CodeView* torchText_;
    CodeView* irText_;
    CodeView* nnefText_;
    GraphView* irGraph_;
    GraphView* tsGraph_;
    GraphView* nnefGraph_;
    QLineEdit* search_;
    QLabel* searchCount_ = nullptr;
    QString lastSearch_;
    QProgressBar* exportProgress_ = nullptr;
    QPushButton* exportCancel_ = nullptr;
    bool fitOnShow_ = false;
    QComboBox* colourBy_;
    QCheckBox* onlyFailed_;
    QTabWidget* tsTabs_; ///< the TorchScript pane: Text | Graph
    FailedNodes failed_;
    QHash<QString, NodeError> errors_;
    PassStepper* stepper_;
    ExportForm* form_;
    QPushButton* exportButton_;
    ResultsPanel* results_;
    QTableWidget* properties_;
    QPlainTextEdit* log_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QLabel* stage_;
    QMenu* recentMenu_ = nullptr;
    QAction* exportAction_ = nullptr;
    StatePtr state_;
    int selectedIrNode_ = -1;
    /// Per line of each text view, the IR node it shows; and back.
    SelectionIndex index_;
    InputsBar* inputsBar_ = nullptr;
    std::vector<InputSpec> pendingInputs_;
    QString pendingInputsFrom_;
    QString lastOutput_;
    QString pendingCheck_; ///< archive to check once the open model is prepared
    QString reportPath_;
};

} // namespace t2n::ui
