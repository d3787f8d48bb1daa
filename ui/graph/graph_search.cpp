#include "graph/graph_search.h"

namespace t2n::ui {

QString modulePathOf(const GraphNode& node) {
    const QString property = node.properties.value(QStringLiteral("module path")).toString();
    return property.isEmpty() ? node.clusterPath.join(QLatin1Char('.')) : property;
}

namespace {

QString shapeOf(const GraphNode& node) {
    const QVariant shape = node.properties.value(QStringLiteral("shape"));
    if (shape.canConvert<QStringList>() && shape.typeId() != QMetaType::QString)
        return shape.toStringList().join(QLatin1Char('x'));
    return shape.toString();
}

bool matches(const GraphNode& node, const QString& text, SearchField field) {
    auto has = [&text](const QString& value) { return value.contains(text, Qt::CaseInsensitive); };
    switch (field) {
    case SearchField::Name:
        return has(node.label) || has(node.id);
    case SearchField::Kind:
        return has(node.kind);
    case SearchField::ModulePath:
        return has(modulePathOf(node));
    case SearchField::Shape:
        return has(shapeOf(node));
    case SearchField::Any:
        break;
    }
    return has(node.label) || has(node.id) || has(node.kind) || has(modulePathOf(node)) ||
           has(shapeOf(node));
}

} // namespace

QVector<int> findNodes(const GraphData& graph, const QString& text, SearchField field) {
    QVector<int> found;
    if (text.trimmed().isEmpty())
        return found;
    const QString needle = text.trimmed();
    for (int i = 0; i < graph.nodes.size(); ++i)
        if (matches(graph.nodes[i], needle, field))
            found.append(i);
    return found;
}

void SearchResultModel::setResults(std::shared_ptr<const GraphData> graph, QVector<int> matches) {
    beginResetModel();
    graph_ = std::move(graph);
    matches_ = std::move(matches);
    endResetModel();
}

void SearchResultModel::clear() {
    setResults(nullptr, {});
}

QString SearchResultModel::nodeId(int row) const {
    return row >= 0 && row < matches_.size() ? graph_->nodes[matches_[row]].id : QString();
}

int SearchResultModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(matches_.size());
}

QVariant SearchResultModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const GraphNode& node = graph_->nodes[matches_[index.row()]];
    switch (role) {
    case Qt::DisplayRole:
        return QStringLiteral("%1  (%2)  %3").arg(node.label, node.kind, modulePathOf(node));
    case Qt::ToolTipRole:
        return node.properties.value(QStringLiteral("source line")).toString();
    case NodeIdRole:
        return node.id;
    case KindRole:
        return node.kind;
    case ModulePathRole:
        return modulePathOf(node);
    default:
        return {};
    }
}

QHash<int, QByteArray> SearchResultModel::roleNames() const {
    auto roles = QAbstractListModel::roleNames();
    roles.insert(NodeIdRole, "nodeId");
    roles.insert(KindRole, "kind");
    roles.insert(ModulePathRole, "modulePath");
    return roles;
}

} // namespace t2n::ui
