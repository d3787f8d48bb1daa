#include "session/node_change_model.h"

#include "graph/graph_colors.h"
#include "text/highlight_style.h"

#include <QGuiApplication>

namespace t2n::ui {

QString nodeChangeName(NodeChange c) {
    switch (c) {
    case NodeChange::Added:
        return NodeChangeModel::tr("added");
    case NodeChange::Removed:
        return NodeChangeModel::tr("removed");
    case NodeChange::Modified:
        return NodeChangeModel::tr("modified");
    }
    return {};
}

namespace {
QHash<QString, QStringList> sourcesByNode(const GraphData& g) {
    QHash<QString, QStringList> sources;
    for (const GraphEdge& e : g.edges)
        sources[e.to] << e.from;
    for (QStringList& s : sources)
        s.sort();
    return sources;
}
} // namespace

StepGraphs::StepGraphs(const GraphData& previous, const GraphData& next)
    : previous_(previous), next_(next), previousIndex_(previous.indexById()),
      nextIndex_(next.indexById()), previousSources_(sourcesByNode(previous)),
      nextSources_(sourcesByNode(next)) {}

const GraphNode* StepGraphs::before(const QString& id) const {
    const int i = previousIndex_.value(id, -1);
    return i < 0 ? nullptr : &previous_.nodes[i];
}

const GraphNode* StepGraphs::after(const QString& id) const {
    const int i = nextIndex_.value(id, -1);
    return i < 0 ? nullptr : &next_.nodes[i];
}

QStringList StepGraphs::changes(const QString& id) const {
    const GraphNode* was = before(id);
    const GraphNode* is = after(id);
    if (!was || !is)
        return {};
    QStringList aspects = changedFacets(*was, *is);
    if (previousSources_.value(id) != nextSources_.value(id))
        aspects << QStringLiteral("inputs");
    return aspects;
}

QString StepGraphs::sourcesText(const QStringList& ids, const GraphData& g,
                                const QHash<QString, int>& index) const {
    QStringList names;
    for (const QString& id : ids) {
        const int i = index.value(id, -1);
        const QString label = i < 0 ? QString() : g.nodes[i].label.section(QLatin1Char('\n'), 0, 0);
        names << (label.isEmpty() || label == id ? id : QStringLiteral("%1 (%2)").arg(label, id));
    }
    return names.isEmpty() ? QStringLiteral("\u2205") : names.join(QStringLiteral(", "));
}

QString StepGraphs::describe(const QString& id, const QStringList& aspects) const {
    const GraphNode* was = before(id);
    const GraphNode* is = after(id);
    if (!was || !is)
        return {};
    auto shown = [](const QString& v) { return v.isEmpty() ? QStringLiteral("\u2205") : v; };
    QStringList parts;
    for (const QString& a : aspects) {
        if (a == QLatin1String("inputs")) {
            // Only the sources that changed: a node keeps most of its inputs.
            QStringList gone = previousSources_.value(id);
            QStringList came = nextSources_.value(id);
            for (const QString& kept : previousSources_.value(id))
                if (came.removeOne(kept))
                    gone.removeOne(kept);
            parts << QStringLiteral("inputs: %1 \u2192 %2")
                         .arg(sourcesText(gone, previous_, previousIndex_),
                              sourcesText(came, next_, nextIndex_));
            continue;
        }
        parts << QStringLiteral("%1: %2 \u2192 %3")
                     .arg(a, shown(was->facets.value(a)), shown(is->facets.value(a)));
    }
    return parts.join(QStringLiteral("; "));
}

NodeChangeModel::NodeChangeModel(QObject* parent) : QAbstractTableModel(parent) {}

void NodeChangeModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

void NodeChangeModel::setStep(std::shared_ptr<const GraphData> previous,
                              std::shared_ptr<const GraphData> next, const GraphDiff& diff) {
    beginResetModel();
    rows_.clear();
    auto nodeText = [](const GraphNode& n) { return QStringLiteral("%1  (%2)").arg(n.kind, n.id); };
    if (next) {
        const GraphData none;
        const StepGraphs step(previous ? *previous : none, *next);
        for (const GraphNode& n : next->nodes) {
            if (diff.added.contains(n.id))
                rows_.push_back({NodeChange::Added, n.id, nodeText(n),
                                 n.properties.value(QStringLiteral("text")).toString()});
            else if (const auto it = diff.modified.constFind(n.id); it != diff.modified.cend())
                rows_.push_back(
                    {NodeChange::Modified, n.id, nodeText(n), step.describe(n.id, *it)});
        }
    }
    if (previous)
        for (const GraphNode& n : previous->nodes)
            if (diff.removed.contains(n.id))
                rows_.push_back({NodeChange::Removed, n.id, nodeText(n),
                                 n.properties.value(QStringLiteral("text")).toString()});
    endResetModel();
}

int NodeChangeModel::rowOf(const QString& id) const {
    for (int r = 0; r < rows_.size(); ++r)
        if (rows_[r].id == id)
            return r;
    return -1;
}

int NodeChangeModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int NodeChangeModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeChangeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size())
        return {};
    const Row& r = rows_[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == Change ? nodeChangeName(r.change)
               : index.column() == Node ? r.node
                                        : r.details;
    case Qt::ToolTipRole:
        return index.column() == Details ? r.details : QVariant();
    case Qt::ForegroundRole:
        if (index.column() != Change)
            return {};
        // The graph's marks, so that the table reads as the graph's legend.
        return diffMarkColor(r.change == NodeChange::Added     ? DiffMark::Added
                             : r.change == NodeChange::Removed ? DiffMark::Removed
                                                               : DiffMark::Modified,
                             isDarkPalette(QGuiApplication::palette()));
    case NodeIdRole:
        return r.id;
    case ChangeRole:
        return int(r.change);
    }
    return {};
}

QVariant NodeChangeModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Change:
        return tr("Change");
    case Node:
        return tr("Node");
    case Details:
        return tr("What changed");
    }
    return {};
}

} // namespace t2n::ui
