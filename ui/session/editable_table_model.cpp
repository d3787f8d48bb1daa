#include "session/editable_table_model.h"

#include <QColor>

namespace t2n::ui {

EditableTableModel::EditableTableModel(QStringList headers, QObject* parent)
    : QAbstractTableModel(parent), headers_(std::move(headers)) {}

int EditableTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int EditableTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(headers_.size());
}

QString EditableTableModel::cell(int row, int column) const {
    if (row < 0 || row >= rows_.size() || column < 0 || column >= rows_[row].size())
        return {};
    return rows_[row][column];
}

QString EditableTableModel::errorAt(int row, int column) const {
    if (row < 0 || row >= rows_.size())
        return {};
    return validate(row, column, rows_[row]);
}

QStringList EditableTableModel::errors() const {
    QStringList out;
    for (int r = 0; r < rows_.size(); ++r)
        for (int c = 0; c < headers_.size(); ++c)
            if (QString e = errorAt(r, c); !e.isEmpty())
                out << tr("%1, %2: %3").arg(rowLabel(r), headers_[c], e);
    return out;
}

QString EditableTableModel::rowLabel(int row) const {
    return tr("row %1").arg(row + 1);
}

QVariant EditableTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return cell(index.row(), index.column());
    case Qt::ToolTipRole:
    case ErrorRole: {
        QString e = errorAt(index.row(), index.column());
        return e.isEmpty() ? QVariant() : QVariant(e);
    }
    case Qt::BackgroundRole:
        if (!errorAt(index.row(), index.column()).isEmpty())
            return QColor(255, 205, 205);
        return {};
    }
    return {};
}

bool EditableTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || role != Qt::EditRole)
        return false;
    QStringList& row = rows_[index.row()];
    while (row.size() < headers_.size())
        row << QString();
    row[index.column()] = value.toString().trimmed();
    // Other cells of the row (and rows naming the same tensor) may change validity.
    Q_EMIT dataChanged(this->index(0, 0), this->index(rowCount() - 1, columnCount() - 1));
    revalidate();
    return true;
}

Qt::ItemFlags EditableTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

QVariant EditableTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    if (o == Qt::Vertical)
        return section + 1;
    return section < headers_.size() ? QVariant(headers_[section]) : QVariant();
}

bool EditableTableModel::removeRows(int row, int count, const QModelIndex& parent) {
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rows_.size())
        return false;
    beginRemoveRows(parent, row, row + count - 1);
    rows_.remove(row, count);
    endRemoveRows();
    revalidate();
    return true;
}

void EditableTableModel::appendRow(const QStringList& cells) {
    beginInsertRows({}, static_cast<int>(rows_.size()), static_cast<int>(rows_.size()));
    QStringList row = cells;
    while (row.size() < headers_.size())
        row << QString();
    rows_.push_back(row);
    endInsertRows();
    revalidate();
}

void EditableTableModel::setRows(const QVector<QStringList>& rows) {
    beginResetModel();
    rows_ = rows;
    for (auto& r : rows_)
        while (r.size() < headers_.size())
            r << QString();
    endResetModel();
    revalidate();
}

void EditableTableModel::revalidate() {
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
                           {Qt::BackgroundRole, Qt::ToolTipRole, ErrorRole});
    const bool valid = isValid();
    if (valid != lastValid_) {
        lastValid_ = valid;
        Q_EMIT validityChanged(valid);
    }
}

} // namespace t2n::ui
