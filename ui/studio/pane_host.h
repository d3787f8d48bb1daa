// What the panes share: the state the views show, the selection, and the
// requests a pane makes of the window. A selection made in one view goes
// through here to every pane that follows it (in registry order), so that no
// view knows another. The window runs the flows behind the requests (open,
// export, re-run); a pane only asks.
#pragma once

#include "session/failed_nodes.h"
#include "session/selection_index.h"
#include "session/session_state.h"
#include "session/value_overlay.h"
#include "studio/pane.h"

#include <QHash>
#include <QObject>

#include <vector>

namespace t2n::ui {

class SessionController;

class PaneHost : public QObject {
    Q_OBJECT
public:
    explicit PaneHost(SessionController* controller, QObject* parent = nullptr);

    SessionController* controller() const { return controller_; }
    /// Panes are told what their `follows` asks for; the host owns them.
    void addPane(const QString& id, Pane* pane, Follows follows);
    Pane* pane(const QString& id) const;

    /// The state the views show (null before the first one).
    const StatePtr& state() const { return state_; }
    /// Which line of each text shows which IR node (session/selection_index.h).
    const SelectionIndex& index() const { return index_; }
    /// The IR listing the index was built from ("" before a trace).
    const QString& irText() const { return irText_; }
    /// Per IR graph node, the check's worst value error.
    const QHash<QString, NodeError>& nodeErrors() const { return errors_; }
    int selectedIrNode() const { return selected_; }
    const FailedNodes& failedNodes() const { return failed_; }

    // Selections: each reaches the panes that follow it.
    void showState(const StatePtr& state);
    /// Selects IR node `id` in every view (ignored when the state has no such node).
    void selectIrNode(int id);
    /// The IR node a graph's node key ("ir:N", "ts:N", "nnef:LINE") stands
    /// for, selected everywhere; false when it stands for none.
    bool selectGraphNode(const QString& key);
    /// A failure row's node (its NNEF identifier when known, else matched by
    /// kind and source line, else a graph input), with the Model tab when `showModel`.
    void selectNodeRef(const NodeRef& node, const QString& nnefIdentifier, bool showModel = true);
    void showPassStep(const PassStepSelection& step);
    void markFailed(const FailedNodes& nodes);
    /// Asks the running job to stop; `cancelling` tells the views.
    void requestCancel();

Q_SIGNALS:
    /// Bring pane `id` forward (a tab made current).
    void paneRequested(const QString& id);
    void statusMessage(const QString& text);
    void logMessage(const QString& text);
    void cancelling();
    // Flows the window runs for a pane.
    void exportRequested();
    void rerunRequested();
    void rewriteLimitRequested(int limit);
    void passSkipRequested(const QString& pass, bool skip);
    void bisectRequested();
    void supportedOperatorsRequested();

private:
    struct Placed {
        QString id;
        Pane* pane;
        Follows follows;
    };
    template <typename F> void each(Follow what, F&& call) {
        for (const Placed& p : panes_)
            if (p.follows.testFlag(what))
                call(p.pane);
    }

    SessionController* controller_;
    std::vector<Placed> panes_;
    StatePtr state_;
    SelectionIndex index_;
    QString irText_;
    QHash<QString, NodeError> errors_;
    int selected_ = -1;
    FailedNodes failed_;
};

} // namespace t2n::ui
