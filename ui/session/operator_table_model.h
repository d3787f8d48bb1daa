// The operators t2n translates, as the studio's Help > Supported operators
// shows them: the same registry rows as `t2n ops` (t2n/coverage.h), with a
// filter that matches a kind, a family or a note, and for an operator t2n
// does not translate, the nearest ones it does.
#pragma once

#include "t2n/coverage.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <vector>

namespace t2n::ui {

/// kind | family | Khronos | since tract | notes
class OperatorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit OperatorTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    /// The row of `kind` ("aten::conv2d"), or -1.
    int rowOf(const QString& kind) const;

private:
    std::vector<SupportedOp> ops_;
};

/// Rows whose kind, family or notes contain every word of the filter text.
class OperatorFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit OperatorFilterModel(QObject* parent = nullptr);
    void setText(const QString& text);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QStringList words_;
};

/// "aten::erfinv is not translated; nearest supported: aten::erf, aten::erfc"
/// (or "no supported operator has a near name").
QString nearestOperatorsText(const QString& kind);

} // namespace t2n::ui
