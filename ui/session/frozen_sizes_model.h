// "Where a size froze" as a table for the studio: the values of a dynamic
// export that should have followed a symbol but kept their example size
// (t2n::FrozenSizes, filled by the translation or the check), with the
// columns every front end shows (FrozenSizes::columns). Each row knows the
// node it names, so that a click selects it on every graph.
#pragma once

#include "t2n/report.h"

#include <QAbstractTableModel>

namespace t2n::ui {

class FrozenSizesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit FrozenSizesModel(QObject* parent = nullptr);
    void setTable(const FrozenSizes& table);
    const FrozenSizes& table() const { return table_; }

    /// The row's value, for NodeRef lookups: its node with the value's name
    /// (the node's first output when the table names none).
    NodeRef nodeOf(int row) const;
    /// The NNEF identifier standing for the row's value ("" if none).
    QString identifierOf(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    FrozenSizes table_;
    std::vector<std::vector<std::string>> cells_;
};

} // namespace t2n::ui
