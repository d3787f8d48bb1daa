#include "session/frozen_sizes_model.h"

#include <QBrush>
#include <QColor>

namespace t2n::ui {

FrozenSizesModel::FrozenSizesModel(QObject* parent) : QAbstractTableModel(parent) {}

void FrozenSizesModel::setTable(const FrozenSizes& table) {
    beginResetModel();
    table_ = table;
    cells_.clear();
    for (const auto& f : table_.values)
        cells_.push_back(table_.cells(f));
    endResetModel();
}

NodeRef FrozenSizesModel::nodeOf(int row) const {
    const FrozenSize& f = table_.values.at(static_cast<size_t>(row));
    NodeRef ref = f.node;
    if (!f.value.empty())
        ref.valueName = f.value; // the value itself, whichever output of its node it is
    return ref;
}

QString FrozenSizesModel::identifierOf(int row) const {
    return QString::fromStdString(table_.values.at(static_cast<size_t>(row)).identifier);
}

int FrozenSizesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(cells_.size());
}

int FrozenSizesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(table_.columns().size());
}

QVariant FrozenSizesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const auto& row = cells_.at(static_cast<size_t>(index.row()));
    const auto column = static_cast<size_t>(index.column());
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return column < row.size() ? QString::fromStdString(row[column]) : QString();
    // The archive's column is what went wrong.
    if (role == Qt::ForegroundRole && index.column() == FrozenSizes::ArchiveColumn)
        return QBrush(QColor(0xb0, 0x00, 0x20));
    return {};
}

QVariant FrozenSizesModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const auto columns = table_.columns();
    return section < static_cast<int>(columns.size())
               ? QString::fromStdString(columns[static_cast<size_t>(section)])
               : QVariant();
}

} // namespace t2n::ui
