// The outcome of an export, for engineers and non-programmers alike: a green
// or red verdict with one sentence of what to try, the per-output figures,
// the first diverging operation as a link into every view, the errors with
// their nodes, and the archive's variables.
#pragma once

#include "session/session_state.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class QTableView;

namespace t2n::ui {

class FrozenSizesView;
class OutputComparisonModel;
class VariablesModel;

class ResultsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPanel(QWidget* parent = nullptr);

    void showState(const SessionState& state);
    void showError(const JobError& error);
    void clear();
    /// Where sizes froze in `state`'s last run, failed or not (kept by
    /// clear(): a failed job's state comes before its error).
    void showFrozenSizes(const SessionState& state);
    FrozenSizesView* frozenSizes() const { return frozen_; }

    /// The one-sentence verdict currently shown (for tests and screenshots).
    QString verdict() const;
    /// Its headline alone, as plain text ("Not valid: ...").
    QString verdictHeadline() const { return headline_; }

Q_SIGNALS:
    /// The user asked to see a node (the diverging op, or an error's node).
    void nodeRequested(const t2n::NodeRef& node, const QString& nnefIdentifier);
    /// The user asked for the table of supported operators.
    void supportedOperatorsRequested();

private:
    void setVerdict(bool ok, const QString& headline, const QString& advice);
    void applyVerdictColors();

    enum class Verdict { None, Valid, NotValid };
    Verdict verdictKind_ = Verdict::None;

    QLabel* banner_;
    QLabel* divergence_;
    QLabel* interface_; ///< state carried, arguments fixed (hidden when neither)
    QListWidget* problems_;
    FrozenSizesView* frozen_;
    QTableView* outputsView_;
    QTableView* variablesView_;
    OutputComparisonModel* outputs_;
    VariablesModel* variables_;
    NodeRef divergenceNode_;
    QString divergenceIdentifier_;
    std::vector<Diagnostic> problemNodes_;
    QString headline_;
    QWidget* figures_; ///< the outputs and variables tables
    QPushButton* openFolder_;
    QPushButton* copyPath_;
    QPushButton* operators_;
    QString artifactPath_;
};

} // namespace t2n::ui
