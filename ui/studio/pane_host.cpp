#include "studio/pane_host.h"

#include "session/graph_adapters.h"
#include "session/session_controller.h"

namespace t2n::ui {

// The host owns its panes: they go before the widgets they point at.
Pane::Pane(PaneHost& host) : QObject(&host), host_(host) {}

PaneHost::PaneHost(SessionController* controller, QObject* parent)
    : QObject(parent), controller_(controller) {}

void PaneHost::addPane(const QString& id, Pane* pane, Follows follows) {
    panes_.push_back({id, pane, follows});
}

Pane* PaneHost::pane(const QString& id) const {
    for (const Placed& p : panes_)
        if (p.id == id)
            return p.pane;
    return nullptr;
}

void PaneHost::showState(const StatePtr& state) {
    state_ = state;
    const SessionState& st = *state;
    // The engine says where each node is printed: no text is read here.
    std::vector<int> irNodeLines;
    irText_ = st.traced ? QString::fromStdString(st.graph.print(&irNodeLines)) : QString();
    index_ = SelectionIndex(st.graph, irNodeLines,
                            st.hardened ? finalSnapshot(st.report.harden) : nullptr, st.provenance);
    errors_ = ui::nodeErrors(st.report.check, st.provenance);
    selected_ = -1;
    each(Follow::State, [&](Pane* p) { p->showState(st); });
}

void PaneHost::selectIrNode(int id) {
    if (!state_ || id < 0 || id >= static_cast<int>(state_->graph.nodes.size()))
        return;
    selected_ = id;
    each(Follow::Node, [&](Pane* p) { p->followNode(id); });
}

bool PaneHost::selectGraphNode(const QString& key) {
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
            Q_EMIT statusMessage(tr("This TorchScript node has no IR node (folded or plumbing)"));
    }
    if (node < 0)
        return false;
    selectIrNode(node);
    return true;
}

void PaneHost::selectNodeRef(const NodeRef& node, const QString& nnefIdentifier, bool showModel) {
    if (showModel)
        Q_EMIT paneRequested(QStringLiteral("model"));
    auto chooseNode = [this](int id) {
        selectIrNode(id);
        each(Follow::Failure, [&](Pane* p) { p->followFailureRow(irNodeKey(id)); });
    };
    // The NNEF identifier is exact; the node reference is matched by kind and
    // source line (or value name) when there is no identifier.
    if (!nnefIdentifier.isEmpty()) {
        const ProvenanceLine* pl = state_->provenance.defining(nnefIdentifier.toStdString());
        if (pl && pl->irNode >= 0) {
            chooseNode(pl->irNode);
            return;
        }
    }
    if (const int id = irNodeFor(state_->graph, node); id >= 0) {
        chooseNode(id);
        return;
    }
    // A graph input (an archive that kept the example's size of one): its
    // box on the graphs that draw inputs.
    for (ir::ValueId in : state_->graph.inputs) {
        const ir::Value& v = state_->graph.value(in);
        if (node.valueName.empty() || v.debugName != node.valueName)
            continue;
        const QString key = QStringLiteral("input:%1")
                                .arg(QString::fromStdString(v.name.empty() ? v.debugName : v.name));
        each(Follow::Value, [&](Pane* p) { p->followValue(in); });
        each(Follow::Failure, [&](Pane* p) { p->followFailureRow(key); });
    }
}

void PaneHost::showPassStep(const PassStepSelection& step) {
    each(Follow::PassStep, [&](Pane* p) { p->followPassStep(step); });
}

void PaneHost::markFailed(const FailedNodes& nodes) {
    failed_ = nodes;
    each(Follow::Failure, [&](Pane* p) { p->followFailure(nodes); });
    // The first failed node is the selection (its reason heads Properties).
    if (!nodes.irNodes.isEmpty())
        selectIrNode(nodes.irNodes.first());
}

void PaneHost::requestCancel() {
    controller_->cancel();
    Q_EMIT cancelling();
}

} // namespace t2n::ui
