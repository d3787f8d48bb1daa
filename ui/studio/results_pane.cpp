// The Results tab: the verdict of the last export or check, its figures and
// where a size froze (ResultsPanel). A row that names a node (the diverging
// op, an error's node, a frozen size) is the failure-row selection.
#include "studio/pane_host.h"
#include "studio/results_panel.h"

namespace t2n::ui {

namespace {
class ResultsPane : public Pane {
public:
    ResultsPane(PaneHost& host, QWidget* parent) : Pane(host) {
        results_ = new ResultsPanel(parent);
        connect(results_, &ResultsPanel::nodeRequested, this,
                [this](const NodeRef& n, const QString& id) { this->host().selectNodeRef(n, id); });
        connect(results_, &ResultsPanel::supportedOperatorsRequested, &host,
                &PaneHost::supportedOperatorsRequested);
    }
    QWidget* widget() const override { return results_; }
    void showState(const SessionState& st) override {
        if (st.exported)
            results_->showState(st);
        results_->showFrozenSizes(st);
    }

private:
    ResultsPanel* results_;
};
} // namespace

void registerResultsPane(PaneRegistry& r) {
    r.add({QStringLiteral("results"), QObject::tr("&Results"), Place::Tab, Follow::State, 0,
           [](PaneHost& h, QWidget* parent) { return new ResultsPane(h, parent); }});
}

} // namespace t2n::ui
