// What one pass did, node by node, in three states (Model Explorer marks
// added and removed only): added, removed, and modified with what changed
// on the node itself ("shape: 1, 3 -> 1, 6", "inputs"). The pass scrubber's
// change table shows it; a node's history across passes reuses its wording.
#pragma once

#include "graph/graph_data.h"

#include <QAbstractTableModel>

#include <memory>

namespace t2n::ui {

enum class NodeChange { Added, Removed, Modified };
QString nodeChangeName(NodeChange c);

/// Two consecutive snapshots, indexed to say what changed on a node.
class StepGraphs {
public:
    StepGraphs(const GraphData& previous, const GraphData& next);
    const GraphNode* before(const QString& id) const;
    const GraphNode* after(const QString& id) const;
    /// The aspects of node `id` (in both) that changed: facets, and "inputs"
    /// when the nodes feeding it did.
    QStringList changes(const QString& id) const;
    /// "kind: aten::relu_ -> aten::relu; inputs: relu_ (ts:3) -> relu (ts:6)".
    QString describe(const QString& id, const QStringList& aspects) const;

private:
    QString sourcesText(const QStringList& ids, const GraphData& g,
                        const QHash<QString, int>& index) const;

    const GraphData& previous_;
    const GraphData& next_;
    QHash<QString, int> previousIndex_;
    QHash<QString, int> nextIndex_;
    QHash<QString, QStringList> previousSources_; ///< node id -> ids feeding it, sorted
    QHash<QString, QStringList> nextSources_;
};

class NodeChangeModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Change, Node, Details, ColumnCount };
    enum Role { NodeIdRole = Qt::UserRole + 1, ChangeRole };

    explicit NodeChangeModel(QObject* parent = nullptr);
    /// The step from `previous` to `next` (`diff` is diffGraphs of the two):
    /// modified and added nodes in `next`'s order, then the removed ones.
    void setStep(std::shared_ptr<const GraphData> previous, std::shared_ptr<const GraphData> next,
                 const GraphDiff& diff);
    void clear();
    /// Row of node `id`, or -1.
    int rowOf(const QString& id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        NodeChange change;
        QString id;
        QString node;
        QString details;
    };
    QVector<Row> rows_;
};

} // namespace t2n::ui
