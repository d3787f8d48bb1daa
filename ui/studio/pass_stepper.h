// The hardening chain, stepped like Compiler Explorer's opt pipeline: the
// pass list (counts, time, remarks; no-op passes hideable; arrow keys step),
// and for the chosen pass its graph under a scrubber (stable layout, pinned
// node, added / removed / modified marks and a table of them) and its text
// diff. Skipping passes or switching freeze off goes through the export
// form and a re-run, so that the stepper always shows what the engine did.
#pragma once

#include "graph/graph_data.h"
#include "graph/step_layouts.h"

#include "t2n/bisect.h"
#include "t2n/harden.h"

#include <QWidget>

class QCheckBox;
class QSlider;
class QPushButton;
class QLabel;
class QListWidget;
class QTableView;

namespace t2n::ui {

class DiffView;
class GraphView;
class NodeChangeModel;
class PassFilterModel;
class PassListModel;
class PassScrubber;

class PassStepper : public QWidget {
    Q_OBJECT
public:
    explicit PassStepper(QWidget* parent = nullptr);

    void setDiagnostics(const harden::HardenDiagnostics& d);
    PassListModel* model() const { return model_; }
    PassFilterModel* filter() const { return filter_; }
    DiffView* diffView() const { return diff_; }
    GraphView* graphView() const { return graph_; }
    QTableView* passTable() const { return table_; }

    /// Row of the source model shown (0: the graph as loaded), or -1.
    int currentRow() const;
    /// Shows the pass at source-model row `row` (selects it in the list).
    void showRow(int row);
    /// Steps to the next or previous visible pass.
    void step(int delta);
    /// The first pass that changed something, as a source-model row (or -1).
    int firstChangingRow() const;
    /// Shows a semantic bisect: names the first pass that changed the numbers
    /// and selects it. Returns its source-model row (-1: no pass did).
    int showBisect(const BisectReport& report);
    /// The bisect verdict shown (empty before one ran).
    QString bisectVerdict() const;
    /// The rewrite slider: how many rewrites the shown chain made, of how many
    /// the unlimited chain makes (-1 before any chain ran).
    QSlider* rewriteSlider() const { return rewrites_; }
    int fullRewrites() const { return fullRewrites_; }
    /// Moves the slider to `limit` (clamped) and asks for the chain stopped
    /// after that many rewrites, as releasing the slider does.
    void requestRewriteLimit(int limit);
    /// What the graph view marked for the pass shown (by stable node id).
    const GraphDiff& lastGraphStep() const { return lastStep_; }
    PassScrubber* scrubber() const { return scrubber_; }
    NodeChangeModel* changeModel() const { return changes_; }
    QTableView* changeTable() const { return changeTable_; }
    StepLayouts& layouts() { return layouts_; }
    /// The node followed from pass to pass (selected in the graph or the
    /// change table), or "".
    QString pinnedNode() const { return pinned_; }
    void pinNode(const QString& id);
    /// What Properties shows for the pinned node: what it is, what the pass
    /// shown did to it, and its history across the passes.
    QList<QPair<QString, QString>> pinnedProperties();

Q_SIGNALS:
    /// The shown pass changed: the graph view can mark what it did.
    void passShown(int row);
    /// Run the chain again (with the export form's passes and freeze setting).
    void rerunRequested();
    /// Run the semantic bisect.
    void bisectRequested();
    /// Run the chain again stopped after `limit` rewrites (-1: no limit):
    /// LLVM's DEBUG_COUNTER / tract's patch number, one rewrite at a time.
    void rewriteLimitRequested(int limit);
    /// Run the chain again without the pass `name` (or with it, when `skip` is false).
    void skipRequested(const QString& name, bool skip);
    /// The pinned node changed, or the pass shown did (pinnedProperties()).
    void pinnedNodeShown(const QString& id);

private:
    void onCurrentChanged();
    void showGraphStep(int row);
    void onGraphLaidOut();
    void applyPinAndFilter();
    void updateScrubber();
    void setHideNoOp(bool hide);
    QString stepFigures(int row) const;
    const harden::GraphSnapshot* snapshotAt(int row) const;

    PassListModel* model_;
    PassFilterModel* filter_;
    QTableView* table_;
    QCheckBox* hideNoOp_;
    QPushButton* skip_;
    QSlider* rewrites_;
    QLabel* rewritesLabel_;
    int fullRewrites_ = -1;
    QLabel* header_;
    QLabel* bisect_;
    QListWidget* remarks_;
    DiffView* diff_;
    GraphView* graph_;
    PassScrubber* scrubber_;
    NodeChangeModel* changes_;
    QTableView* changeTable_;
    StepLayouts layouts_;
    int graphRow_ = -1;  ///< the row whose snapshot the graph shows
    int layoutRow_ = -1; ///< the row the graph view's Graphviz layout is of
    GraphDiff lastStep_;
    QString pinned_;
    QString storyOf_; ///< the node whose history story_ is (it spans every pass)
    QStringList story_;
};

} // namespace t2n::ui
