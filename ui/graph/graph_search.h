#pragma once
// Search over a graph's nodes by name, op kind, module path or shape, and the
// list model of the matches (for a results list next to the view).
#include "graph/graph_data.h"

#include <QAbstractListModel>

#include <memory>

namespace t2n::ui {

enum class SearchField { Any, Name, Kind, ModulePath, Shape };

/// "layer1.0.conv1": the node's "module path" property, else its cluster path.
QString modulePathOf(const GraphNode& node);
/// Indices of the nodes whose `field` contains `text` (case-insensitive), in graph order.
QVector<int> findNodes(const GraphData& graph, const QString& text, SearchField field);

class SearchResultModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { NodeIdRole = Qt::UserRole + 1, KindRole, ModulePathRole };
    using QAbstractListModel::QAbstractListModel;

    void setResults(std::shared_ptr<const GraphData> graph, QVector<int> matches);
    void clear();
    QString nodeId(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    std::shared_ptr<const GraphData> graph_;
    QVector<int> matches_;
};

} // namespace t2n::ui
