// MainWindow's synced selection: which lines of the TorchScript, IR and NNEF
// texts show which IR node (session/selection_index.h), and selecting one
// node in all views at once.
#include "graph/graph_view.h"
#include "session/failed_nodes.h"
#include "session/graph_adapters.h"
#include "session/nnef_graph.h"
#include "session/remark_index.h"
#include "session/report_models.h"
#include "studio/export_form.h"
#include "studio/main_window.h"
#include "text/code_view.h"

#include <QComboBox>
#include <QLabel>
#include <QTableWidget>

namespace t2n::ui {

namespace {
// "f32 2x6x3" for a tensor; "int", "int[]" for the sizes a frozen-size row
// names (the IR's own words: a dtype would say f32 of an int).
QString typeText(const ir::Value& v) {
    if (v.kind != ir::ValueKind::Tensor)
        return QString::fromLatin1(ir::valueKindName(v.kind).data(),
                                   static_cast<int>(ir::valueKindName(v.kind).size()));
    return QStringLiteral("%1 %2").arg(QString::fromLatin1(dtypeName(v.dtype).data()),
                                       shapeText(v.shape));
}
} // namespace

void MainWindow::indexLines() {
    // The engine says where each node is printed: no text is read here.
    const SessionState& st = *state_;
    std::vector<int> irNodeLines;
    irText_->setCode(st.traced ? QString::fromStdString(st.graph.print(&irNodeLines)) : QString(),
                     Language::Plain);
    index_ = SelectionIndex(st.graph, irNodeLines,
                            st.hardened ? finalSnapshot(st.report.harden) : nullptr, st.provenance);
}

void MainWindow::selectIrNode(int id) {
    if (!state_ || id < 0 || id >= static_cast<int>(state_->graph.nodes.size()))
        return;
    selectedIrNode_ = id;
    irGraph_->selectNode(irNodeKey(id));
    if (const auto torchNode = state_->graph.node(id).torchNode; torchNode >= 0)
        tsGraph_->selectNode(QStringLiteral("ts:%1").arg(torchNode));
    const std::vector<int> nnefLines = index_.nnefLinesOf(id);
    if (!nnefLines.empty())
        nnefGraph_->selectNode(nnefNodeKey(nnefLines.front()));
    auto link = [](CodeView* view, const std::vector<int>& lines) {
        QList<LineRange> ranges;
        for (int l : lines)
            if (l > 0)
                ranges.push_back({l, l});
        view->setLinkedLines(ranges);
        if (!ranges.isEmpty())
            view->scrollToLine(ranges.first().first);
    };
    link(irText_, {index_.irLineOf(id)});
    link(torchText_, {index_.torchLineOf(id)});
    link(nnefText_, nnefLines);
    showProperties(id);
}

void MainWindow::setColourBy(ColourBy mode) {
    colourBy_->setCurrentIndex(mode); // a change re-applies the overlay through the signal
}

void MainWindow::applyOverlay() {
    const bool byError = colourBy_->currentIndex() == ColourByError;
    irGraph_->setNodeOverlay(byError ? errorOverlay(errors_) : QHash<QString, QColor>{});
    if (byError && errors_.isEmpty())
        stage_->setText(tr("No per-op errors yet: export or validate with \"compare every "
                           "value\" on"));
}

namespace {
void fillTable(QTableWidget* table, const std::vector<std::pair<QString, QString>>& rows) {
    table->setRowCount(static_cast<int>(rows.size()));
    for (size_t r = 0; r < rows.size(); ++r) {
        table->setItem(static_cast<int>(r), 0, new QTableWidgetItem(rows[r].first));
        table->setItem(static_cast<int>(r), 1, new QTableWidgetItem(rows[r].second));
    }
    table->resizeRowsToContents();
}
} // namespace

void MainWindow::showSummary() {
    const SessionState& st = *state_;
    std::vector<std::pair<QString, QString>> rows;
    if (st.modelPath.isEmpty()) {
        fillTable(properties_, rows);
        return;
    }
    rows.emplace_back(tr("model"), st.modelPath);
    // The inputs of the state the views show (not the form's, which may be
    // edited since): before the first prepare, the proposal's or the names.
    QStringList inputs;
    const std::vector<InputSpec> shown = !st.options.inputs.empty() ? st.options.inputs
                                         : st.proposal              ? st.proposal->specs()
                                                                    : std::vector<InputSpec>{};
    for (const auto& in : shown)
        inputs << QString::fromStdString(in.toString());
    if (inputs.isEmpty())
        for (const auto& a : st.forwardArgNames)
            inputs << QString::fromStdString(a);
    rows.emplace_back(tr("inputs"), inputs.join(QLatin1Char('\n')));
    if (st.hardened) {
        size_t changes = 0;
        for (const auto& p : st.report.harden.passes)
            changes += p.events.size();
        rows.emplace_back(
            tr("hardening"),
            tr("%1 passes, %2 node changes").arg(st.report.harden.passes.size()).arg(changes));
    }
    if (st.traced)
        rows.emplace_back(
            tr("t2n IR"),
            tr("%1 nodes, %2 values").arg(st.graph.nodes.size()).arg(st.graph.values.size()));
    if (st.translated) {
        const auto ops = st.provenance.lines.size(); // one per statement of the graph body
        rows.emplace_back(tr("NNEF"),
                          tr("%1 operations, target %2")
                              .arg(ops)
                              .arg(QString::fromStdString(st.options.target.toString())));
    }
    if (st.exported) {
        const CheckReport& c = st.report.check;
        rows.emplace_back(tr("archive"), st.artifactPath);
        rows.emplace_back(tr("check"),
                          !c.ran     ? tr("not run")
                          : c.passed ? tr("passed at %1").arg(QString::fromStdString(c.tolerance))
                                     : tr("FAILED"));
    }
    rows.emplace_back(QString(), tr("Select a node to see its properties."));
    fillTable(properties_, rows);
}

void MainWindow::showProperties(int id) {
    const ir::Graph& g = state_->graph;
    const ir::Node& n = g.node(id);
    std::vector<std::pair<QString, QString>> rows;
    if (const QString why = failed_.reasons.value(irNodeKey(id)); !why.isEmpty())
        rows.emplace_back(tr("failure"), why);
    rows.emplace_back(tr("kind"), QString::fromStdString(n.kind));
    rows.emplace_back(tr("module path"), QString::fromStdString(n.where.modulePath));
    if (n.where.sourceLine > 0)
        rows.emplace_back(tr("source"), QStringLiteral("%1:%2")
                                            .arg(QString::fromStdString(n.where.sourceFile))
                                            .arg(n.where.sourceLine));
    if (!n.where.sourceText.empty())
        rows.emplace_back(tr("statement"), QString::fromStdString(n.where.sourceText));
    for (ir::ValueId o : n.outputs) {
        const ir::Value& v = g.value(o);
        rows.emplace_back(
            tr("output %%1").arg(QString::fromStdString(v.debugName)),
            QStringLiteral("%1 (NNEF: %2)").arg(typeText(v), QString::fromStdString(v.name)));
    }
    for (ir::ValueId i : n.inputs) {
        const ir::Value& v = g.value(i);
        rows.emplace_back(tr("input %%1").arg(QString::fromStdString(v.debugName)), typeText(v));
    }
    QStringList nnefOps;
    const QStringList nnefLines = QString::fromStdString(state_->nnefText).split(QLatin1Char('\n'));
    for (int l : index_.nnefLinesOf(id))
        nnefOps << nnefLines.value(l - 1).trimmed();
    if (auto it = errors_.constFind(irNodeKey(id)); it != errors_.constEnd())
        rows.emplace_back(tr("numeric error"), describeError(*it));
    rows.emplace_back(tr("NNEF"), nnefOps.isEmpty() ? tr("(folded or not translated)")
                                                    : nnefOps.join(QLatin1Char('\n')));
    // The TorchScript node's story through the hardening chain.
    if (n.torchNode >= 0) {
        QStringList story;
        for (const auto& h : harden::nodeHistory(state_->report.harden, n.torchNode)) {
            const QString pass = h.round > 0 ? QStringLiteral("%1 (round %2)")
                                                   .arg(QString::fromStdString(h.pass))
                                                   .arg(h.round)
                                             : QString::fromStdString(h.pass);
            const auto event = harden::nodeEventName(h.what);
            const QString what =
                h.isRemark
                    ? tr("remark")
                    : QString::fromLatin1(event.data(), static_cast<qsizetype>(event.size()));
            story << (h.text.empty() ? QStringLiteral("%1 by %2").arg(what, pass)
                                     : QStringLiteral("%1 by %2: %3")
                                           .arg(what, pass, QString::fromStdString(h.text)));
        }
        rows.emplace_back(tr("history"), story.isEmpty() ? tr("unchanged by the hardening passes")
                                                         : story.join(QLatin1Char('\n')));
    }
    fillTable(properties_, rows);
}

void MainWindow::selectNodeRef(const NodeRef& node, const QString& nnefIdentifier, bool showModel) {
    if (showModel)
        tabs_->setCurrentIndex(ModelTab);
    // The NNEF identifier is exact; the node reference is matched by kind and
    // source line (or value name) when there is no identifier.
    if (!nnefIdentifier.isEmpty()) {
        const ProvenanceLine* pl = state_->provenance.defining(nnefIdentifier.toStdString());
        if (pl && pl->irNode >= 0) {
            selectIrNode(pl->irNode);
            irGraph_->setHighlightSet(QStringLiteral("diverging"), {irNodeKey(pl->irNode)},
                                      QColor(0xd0, 0x00, 0x20));
            return;
        }
    }
    if (const int id = irNodeFor(state_->graph, node); id >= 0) {
        selectIrNode(id);
        irGraph_->setHighlightSet(QStringLiteral("diverging"), {irNodeKey(id)},
                                  QColor(0xd0, 0x00, 0x20));
        return;
    }
    // A graph input (an archive that kept the example's size of one): its
    // box on the IR and TorchScript graphs, which both draw inputs.
    for (ir::ValueId in : state_->graph.inputs) {
        const ir::Value& v = state_->graph.value(in);
        if (node.valueName.empty() || v.debugName != node.valueName)
            continue;
        const QString key = QStringLiteral("input:%1")
                                .arg(QString::fromStdString(v.name.empty() ? v.debugName : v.name));
        irGraph_->selectNode(key);
        irGraph_->setHighlightSet(QStringLiteral("diverging"), {key}, QColor(0xd0, 0x00, 0x20));
        tsGraph_->selectNode(QStringLiteral("input:%1").arg(QString::fromStdString(v.debugName)));
    }
}

} // namespace t2n::ui
