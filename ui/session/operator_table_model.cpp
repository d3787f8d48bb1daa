#include "session/operator_table_model.h"
#include "session/qt_text.h"

namespace t2n::ui {

OperatorTableModel::OperatorTableModel(QObject* parent)
    : QAbstractTableModel(parent), ops_(supportedOperators()) {}

int OperatorTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(ops_.size());
}

int OperatorTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 5;
}

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const SupportedOp& op = ops_[static_cast<size_t>(index.row())];
    switch (index.column()) {
    case 0:
        return qs(op.kind);
    case 1:
        return qs(op.family);
    case 2:
        return qs(op.khronos);
    case 3:
        return op.sinceTract.empty() ? tr("any") : qs(op.sinceTract);
    case 4:
        return qs(op.note);
    }
    return {};
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case 0:
        return tr("TorchScript operator");
    case 1:
        return tr("family");
    case 2:
        return tr("Khronos NNEF");
    case 3:
        return tr("since tract");
    case 4:
        return tr("notes");
    }
    return {};
}

int OperatorTableModel::rowOf(const QString& kind) const {
    for (size_t i = 0; i < ops_.size(); ++i)
        if (qs(ops_[i].kind) == kind)
            return static_cast<int>(i);
    return -1;
}

OperatorFilterModel::OperatorFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void OperatorFilterModel::setText(const QString& text) {
    words_ = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
}

bool OperatorFilterModel::filterAcceptsRow(int row, const QModelIndex& parent) const {
    QString haystack;
    for (int c : {0, 1, 4})
        haystack += sourceModel()->index(row, c, parent).data().toString() + QLatin1Char(' ');
    for (const QString& w : words_)
        if (!haystack.contains(w, Qt::CaseInsensitive))
            return false;
    return true;
}

QString nearestOperatorsText(const QString& kind) {
    QStringList near;
    for (const auto& k : nearestSupportedOperators(kind.toStdString()))
        near << qs(k);
    return near.isEmpty()
               ? QObject::tr("%1 is not translated; no supported operator has a near name")
                     .arg(kind)
               : QObject::tr("%1 is not translated; nearest supported: %2")
                     .arg(kind, near.join(QStringLiteral(", ")));
}

} // namespace t2n::ui
