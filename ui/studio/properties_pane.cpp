// The Properties dock: the model's summary when nothing is selected, the
// selected IR node (what it is, where it came from, its NNEF, its numeric
// error, its story through the hardening chain), or the node pinned in the
// pass stepper with what the pass shown did to it.
#include "session/graph_adapters.h"
#include "session/report_models.h"
#include "studio/pane_host.h"

#include <QHeaderView>
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

using Rows = QList<QPair<QString, QString>>;

class PropertiesPane : public Pane {
public:
    PropertiesPane(PaneHost& host, QWidget* parent) : Pane(host) {
        table_ = new QTableWidget(0, 2, parent);
        table_->setObjectName(QStringLiteral("propertiesPanel"));
        table_->setHorizontalHeaderLabels({tr("Property"), tr("Value")});
        table_->horizontalHeader()->setStretchLastSection(true);
        table_->verticalHeader()->setVisible(false);
        table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    }
    QWidget* widget() const override { return table_; }
    QAbstractItemModel* model() const override { return table_->model(); }
    void showState(const SessionState& state) override { fill(summary(state)); }
    void followNode(int irNode) override { fill(nodeRows(irNode)); }
    // A node followed through the passes: its history.
    void followPassStep(const PassStepSelection& step) override { fill(step.properties); }

private:
    void fill(const Rows& rows) {
        table_->setRowCount(static_cast<int>(rows.size()));
        for (int r = 0; r < rows.size(); ++r) {
            table_->setItem(r, 0, new QTableWidgetItem(rows[r].first));
            table_->setItem(r, 1, new QTableWidgetItem(rows[r].second));
        }
        table_->resizeRowsToContents();
    }
    Rows summary(const SessionState& st) const;
    Rows nodeRows(int id) const;
    QStringList history(int64_t torchNode) const;

    QTableWidget* table_;
};

Rows PropertiesPane::summary(const SessionState& st) const {
    Rows rows;
    if (st.modelPath.isEmpty())
        return rows;
    rows.append({tr("model"), st.modelPath});
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
    rows.append({tr("inputs"), inputs.join(QLatin1Char('\n'))});
    if (st.hardened) {
        size_t changes = 0;
        for (const auto& p : st.report.harden.passes)
            changes += p.events.size();
        rows.append(
            {tr("hardening"),
             tr("%1 passes, %2 node changes").arg(st.report.harden.passes.size()).arg(changes)});
    }
    if (st.hardened) {
        for (const auto& c : st.report.state)
            rows.append({tr("state"), carriedStateText(c)});
        if (const QString s = specialisedText(st.report.specialisedFor); !s.isEmpty())
            rows.append({tr("specialised for"), s});
    }
    if (st.traced)
        rows.append(
            {tr("t2n IR"),
             tr("%1 nodes, %2 values").arg(st.graph.nodes.size()).arg(st.graph.values.size())});
    if (st.translated) {
        const auto ops = st.provenance.lines.size(); // one per statement of the graph body
        rows.append({tr("NNEF"), tr("%1 operations, target %2")
                                     .arg(ops)
                                     .arg(QString::fromStdString(st.options.target.toString()))});
    }
    if (st.exported) {
        const CheckReport& c = st.report.check;
        rows.append({tr("archive"), st.artifactPath});
        rows.append({tr("check"), !c.ran ? tr("not run")
                                  : c.passed
                                      ? tr("passed at %1").arg(QString::fromStdString(c.tolerance))
                                      : tr("FAILED")});
    }
    rows.append({QString(), tr("Select a node to see its properties.")});
    return rows;
}

Rows PropertiesPane::nodeRows(int id) const {
    const SessionState& st = *host().state();
    const ir::Graph& g = st.graph;
    const ir::Node& n = g.node(id);
    Rows rows;
    if (const QString why = host().failedNodes().reasons.value(irNodeKey(id)); !why.isEmpty())
        rows.append({tr("failure"), why});
    rows.append({tr("kind"), QString::fromStdString(n.kind)});
    rows.append({tr("module path"), QString::fromStdString(n.where.modulePath)});
    if (n.where.sourceLine > 0)
        rows.append({tr("source"), QStringLiteral("%1:%2")
                                       .arg(QString::fromStdString(n.where.sourceFile))
                                       .arg(n.where.sourceLine)});
    if (!n.where.sourceText.empty())
        rows.append({tr("statement"), QString::fromStdString(n.where.sourceText)});
    for (ir::ValueId o : n.outputs) {
        const ir::Value& v = g.value(o);
        rows.append(
            {tr("output %%1").arg(QString::fromStdString(v.debugName)),
             QStringLiteral("%1 (NNEF: %2)").arg(typeText(v), QString::fromStdString(v.name))});
    }
    for (ir::ValueId i : n.inputs) {
        const ir::Value& v = g.value(i);
        rows.append({tr("input %%1").arg(QString::fromStdString(v.debugName)), typeText(v)});
    }
    QStringList nnefOps;
    const QStringList nnefLines = QString::fromStdString(st.nnefText).split(QLatin1Char('\n'));
    for (int l : host().index().nnefLinesOf(id))
        nnefOps << nnefLines.value(l - 1).trimmed();
    const auto& errors = host().nodeErrors();
    if (auto it = errors.constFind(irNodeKey(id)); it != errors.constEnd())
        rows.append({tr("numeric error"), describeError(*it)});
    rows.append({tr("NNEF"), nnefOps.isEmpty() ? tr("(folded or not translated)")
                                               : nnefOps.join(QLatin1Char('\n'))});
    if (n.torchNode >= 0) {
        const QStringList story = history(n.torchNode);
        rows.append({tr("history"), story.isEmpty() ? tr("unchanged by the hardening passes")
                                                    : story.join(QLatin1Char('\n'))});
    }
    return rows;
}

// The TorchScript node's story through the hardening chain.
QStringList PropertiesPane::history(int64_t torchNode) const {
    QStringList story;
    for (const auto& h : harden::nodeHistory(host().state()->report.harden, torchNode)) {
        const QString pass =
            h.round > 0
                ? QStringLiteral("%1 (round %2)").arg(QString::fromStdString(h.pass)).arg(h.round)
                : QString::fromStdString(h.pass);
        const auto event = harden::nodeEventName(h.what);
        const QString what =
            h.isRemark ? tr("remark")
                       : QString::fromLatin1(event.data(), static_cast<qsizetype>(event.size()));
        story << (h.text.empty() ? QStringLiteral("%1 by %2").arg(what, pass)
                                 : QStringLiteral("%1 by %2: %3")
                                       .arg(what, pass, QString::fromStdString(h.text)));
    }
    return story;
}
} // namespace

void registerPropertiesPane(PaneRegistry& r) {
    r.add({QStringLiteral("properties"), QObject::tr("Properties"), Place::RightDock,
           Follow::State | Follow::Node | Follow::PassStep, 340,
           [](PaneHost& h, QWidget* parent) { return new PropertiesPane(h, parent); }});
}

} // namespace t2n::ui
