// The Model tab: the model side by side (TorchScript text or graph, the t2n
// IR graph with its search and colouring over the IR text, NNEF text or
// graph) under the strip that says what the studio did (InputsBar). It
// follows every selection: a node is selected, linked and scrolled to in
// each of its six views, and a failure is outlined on the graphs.
#pragma once

#include "studio/pane.h"

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace t2n::ui {

class CodeView;
class GraphView;
class InputsBar;

class ModelPane : public Pane {
    Q_OBJECT
public:
    ModelPane(PaneHost& host, QWidget* parent);

    QWidget* widget() const override { return page_; }
    void addViewActions(QMenu* view) override;
    void showState(const SessionState& state) override;
    void followNode(int irNode) override;
    void followValue(ir::ValueId input) override;
    void followFailure(const FailedNodes& nodes) override;
    void followFailureRow(const QString& graphKey) override;

    InputsBar* inputsBar() const { return inputsBar_; }
    GraphView* irGraph() const { return irGraph_; }
    GraphView* torchScriptGraph() const { return tsGraph_; }
    GraphView* nnefGraph() const { return nnefGraph_; }
    CodeView* torchScriptView() const { return torchText_; }
    CodeView* irTextView() const { return irText_; }
    CodeView* nnefView() const { return nnefText_; }
    /// 0: colour by op family, 1: by numeric error per op.
    void setColourBy(int mode);
    void setOnlyFailedShown(bool only);
    /// "3 of 12" after a search, "no match", or "".
    QString searchCountText() const;
    /// Next (+1) or previous (-1) search match, selected in every view.
    void stepSearch(int direction);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* buildGraphBox(QWidget* parent);
    void applyOverlay();
    void applyFailedFilter();

    QWidget* page_;
    InputsBar* inputsBar_;
    CodeView* torchText_;
    CodeView* irText_;
    CodeView* nnefText_;
    GraphView* irGraph_;
    GraphView* tsGraph_;
    GraphView* nnefGraph_;
    QTabWidget* tsTabs_; ///< the TorchScript pane: Text | Graph
    QLineEdit* search_;
    QLabel* searchCount_;
    QString lastSearch_;
    QComboBox* colourBy_;
    QCheckBox* onlyFailed_;
};

} // namespace t2n::ui
