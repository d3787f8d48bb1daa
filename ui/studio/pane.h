// A pane of the studio: one view (a main tab or a dock), the model it shows
// and the selections it follows. The window creates the panes of a
// PaneRegistry in its order, places them, lists them in the View menu (tabs
// get Ctrl+1..9, docks a toggle) and the PaneHost hands each selection to the
// panes whose entry follows it. A new view is one file: a Pane subclass and a
// register function called from the list in studio_panes.cpp. Registration is
// explicit, like the op and pass tables: linkers drop static-initialiser
// registrations from static libraries, and the one list is what a newcomer reads.
#pragma once

#include "t2n/ir.h"

#include <QFlags>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

#include <functional>
#include <vector>

class QAbstractItemModel;
class QMenu;
class QWidget;

namespace t2n::ui {

class PaneHost;
struct FailedNodes;
struct SessionState;

/// The selections a pane can follow (its entry's `follows`).
enum class Follow : unsigned {
    State = 1u << 0,    ///< every new SessionState (a job ended)
    Node = 1u << 1,     ///< the IR node selected in any view
    Value = 1u << 2,    ///< a graph input chosen from a failure row
    PassStep = 1u << 3, ///< the pass shown and the node pinned in the pass stepper
    Failure = 1u << 4,  ///< the nodes a failure is about, and the failure row chosen
};
using Follows = QFlags<Follow>;
Q_DECLARE_OPERATORS_FOR_FLAGS(Follows)

/// Where the window puts a pane.
enum class Place { Tab, LeftDock, RightDock, BottomDock };

/// The pass stepper's step: the row of the pass shown and the node followed
/// through the passes, with what Properties should say about it.
struct PassStepSelection {
    int row = -1;
    QString pinnedNode;
    QList<QPair<QString, QString>> properties;
};

class Pane : public QObject {
    Q_OBJECT
public:
    explicit Pane(PaneHost& host);

    /// The view placed in the tab or the dock.
    virtual QWidget* widget() const = 0;
    /// The item model the view shows, when it shows one.
    virtual QAbstractItemModel* model() const { return nullptr; }
    /// Actions of this pane in the View menu (search, stepping), in registry order.
    virtual void addViewActions(QMenu* /*view*/) {}

    // Reactions: called only for what the pane's entry follows.
    virtual void showState(const SessionState& /*state*/) {}
    virtual void followNode(int /*irNode*/) {}
    virtual void followValue(ir::ValueId /*input*/) {}
    virtual void followPassStep(const PassStepSelection& /*step*/) {}
    /// The nodes the last failure is about (empty: none any more).
    virtual void followFailure(const FailedNodes& /*nodes*/) {}
    /// One row of a failure (the diverging op, an error's node, a frozen size)
    /// was chosen: `graphKey` is its node on the IR graph.
    virtual void followFailureRow(const QString& /*graphKey*/) {}

protected:
    PaneHost& host() const { return host_; }

private:
    PaneHost& host_;
};

/// One row of the registry.
struct PaneEntry {
    QString id; ///< its handle for PaneHost::paneRequested; the dock's object name is id + "Dock"
    QString title; ///< the tab's or dock's title; '&' marks the View menu's mnemonic
    Place place = Place::Tab;
    Follows follows;
    /// A dock's first width (side docks) or height (bottom); 0: Qt's choice.
    int dockSize = 0;
    std::function<Pane*(PaneHost& host, QWidget* parent)> create;
};

class PaneRegistry {
public:
    void add(PaneEntry entry) { entries_.push_back(std::move(entry)); }
    const std::vector<PaneEntry>& entries() const { return entries_; }

private:
    std::vector<PaneEntry> entries_;
};

/// The studio's panes, tabs in tab order then docks: the one list (studio_panes.cpp).
PaneRegistry studioPanes();

} // namespace t2n::ui
