// The Passes tab: the hardening chain stepped pass by pass (PassStepper).
// Its requests (re-run, skip a pass, stop after N rewrites, bisect) go to the
// window through the host, and the node it pins is the pass-step selection
// that Properties follows.
#include "graph/graph_view.h"
#include "session/pass_list_model.h"
#include "studio/pane_host.h"
#include "studio/pass_stepper.h"

#include <QAction>
#include <QMenu>

namespace t2n::ui {

namespace {
class PassesPane : public Pane {
public:
    PassesPane(PaneHost& host, QWidget* parent) : Pane(host) {
        stepper_ = new PassStepper(parent);
        connect(stepper_, &PassStepper::rerunRequested, &host, &PaneHost::rerunRequested);
        connect(stepper_, &PassStepper::rewriteLimitRequested, &host,
                &PaneHost::rewriteLimitRequested);
        connect(stepper_, &PassStepper::bisectRequested, &host, &PaneHost::bisectRequested);
        connect(stepper_, &PassStepper::skipRequested, &host, &PaneHost::passSkipRequested);
        // From the pass graph, the other views are the Model tab's.
        connect(stepper_->graphView(), &GraphView::showInOtherViewsRequested, this,
                [this](const QString& key) {
                    if (this->host().selectGraphNode(key))
                        Q_EMIT this->host().paneRequested(QStringLiteral("model"));
                });
        connect(stepper_, &PassStepper::pinnedNodeShown, this, [this](const QString& id) {
            this->host().showPassStep({stepper_->currentRow(), id, stepper_->pinnedProperties()});
        });
    }
    QWidget* widget() const override { return stepper_; }
    QAbstractItemModel* model() const override { return stepper_->model(); }
    void showState(const SessionState& st) override {
        if (st.hardened)
            stepper_->setDiagnostics(st.report.harden);
    }
    void addViewActions(QMenu* view) override {
        QAction* next = view->addAction(tr("&Next pass"), this, [this] { step(1); });
        next->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
        QAction* prev = view->addAction(tr("&Previous pass"), this, [this] { step(-1); });
        prev->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    }

private:
    void step(int delta) {
        Q_EMIT host().paneRequested(QStringLiteral("passes"));
        stepper_->step(delta);
    }

    PassStepper* stepper_;
};
} // namespace

void registerPassesPane(PaneRegistry& r) {
    r.add({QStringLiteral("passes"), QObject::tr("P&asses"), Place::Tab, Follow::State, 0,
           [](PaneHost& h, QWidget* parent) { return new PassesPane(h, parent); }});
}

} // namespace t2n::ui
