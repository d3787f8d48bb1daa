#include "session/pass_list_model.h"

#include <QBrush>
#include <QFont>
#include <QPalette>
#include <QStringList>

namespace t2n::ui {

PassListModel::PassListModel(QObject* parent) : QAbstractTableModel(parent) {
    for (const auto& p : harden::passDescriptions())
        summaries_.insert(QString::fromStdString(p.name), QString::fromStdString(p.summary));
}

void PassListModel::setDiagnostics(const harden::HardenDiagnostics& d) {
    beginResetModel();
    d_ = d;
    endResetModel();
}

int PassListModel::rowOfPass(const QString& name) const {
    const std::string n = name.toStdString();
    for (size_t i = 0; i < d_.passes.size(); ++i)
        if (d_.passes[i].name == n)
            return static_cast<int>(i) + 1;
    return -1;
}

int PassListModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || (d_.passes.empty() && d_.inputGraphText.empty()))
        return 0;
    return static_cast<int>(d_.passes.size()) + 1;
}

int PassListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const harden::PassRecord* PassListModel::record(int row) const {
    if (row < 1 || row > static_cast<int>(d_.passes.size()))
        return nullptr;
    return &d_.passes[static_cast<size_t>(row - 1)];
}

QString PassListModel::graphTextAt(int row) const {
    // A skipped pass (or one run without snapshots) leaves the graph as the
    // last snapshot before it had it.
    for (int r = row; r >= 1; --r)
        if (const auto* rec = record(r); rec && !rec->graphText.empty())
            return QString::fromStdString(rec->graphText);
    return QString::fromStdString(d_.inputGraphText);
}

QString passTitle(const harden::PassRecord& rec) {
    const QString name = QString::fromStdString(rec.name);
    return rec.round > 0 ? QStringLiteral("%1 (round %2)").arg(name).arg(rec.round) : name;
}

namespace {
QString countsText(const harden::PassRecord& rec) {
    QStringList parts;
    for (const auto& [name, n] : rec.counts)
        if (n != 0)
            parts << QStringLiteral("%1 %2").arg(n).arg(QString::fromStdString(name));
    return parts.join(QStringLiteral(", "));
}
} // namespace

QVariant PassListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const int row = index.row();
    const harden::PassRecord* rec = record(row);
    switch (role) {
    case Qt::DisplayRole:
        if (!rec) {
            if (index.column() == Name)
                return tr("graph as loaded");
            if (index.column() == Nodes)
                return QVariant::fromValue<qlonglong>(d_.nodesBefore);
            return {};
        }
        switch (index.column()) {
        case Name:
            return passTitle(*rec);
        case Changes:
            if (rec->skipped)
                return tr("skipped");
            return rec->total() == 0 ? QString() : countsText(*rec);
        case Nodes:
            return QVariant::fromValue<qlonglong>(rec->nodes);
        case Time:
            return QStringLiteral("%1 ms").arg(rec->seconds * 1000.0, 0, 'f', 1);
        case Remarks:
            return rec->remarks.empty() ? QVariant() : QVariant(int(rec->remarks.size()));
        }
        return {};
    case Qt::ToolTipRole: {
        if (!rec)
            return {};
        QStringList lines{summaries_.value(QString::fromStdString(rec->name))};
        for (const auto& r : rec->remarks)
            lines << QString::fromStdString(r);
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
    }
    case Qt::FontRole:
        if (rec && !rec->skipped && rec->total() > 0) {
            QFont f;
            f.setBold(true); // the passes that changed something stand out, as in CE
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (rec && (rec->skipped || rec->total() == 0))
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case GraphTextRole:
        return graphTextAt(row);
    case BeforeTextRole:
        return row == 0 ? QString::fromStdString(d_.inputGraphText) : graphTextAt(row - 1);
    case IsNoOpRole:
        return rec ? (rec->skipped || rec->total() == 0) : false;
    case RemarksRole: {
        QStringList lines;
        if (rec)
            for (const auto& r : rec->remarks)
                lines << QString::fromStdString(r);
        return lines;
    }
    case PassNameRole:
        return rec ? QString::fromStdString(rec->name) : QString();
    case RoundRole:
        return rec ? rec->round : 0;
    case SkippedRole:
        return rec ? rec->skipped : false;
    case DescriptionRole:
        return rec ? summaries_.value(QString::fromStdString(rec->name))
                   : tr("the TorchScript graph as torch.jit.load gives it, before any pass");
    case NodeDeltaRole:
        return rec ? QVariant::fromValue<qlonglong>(
                         rec->nodes - (row == 1 ? d_.nodesBefore : record(row - 1)->nodes))
                   : QVariant::fromValue<qlonglong>(0);
    }
    return {};
}

QVariant PassListModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Pass");
    case Changes:
        return tr("Changes");
    case Nodes:
        return tr("Nodes");
    case Time:
        return tr("Time");
    case Remarks:
        return tr("Remarks");
    }
    return {};
}

PassFilterModel::PassFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void PassFilterModel::setHideNoOp(bool hide) {
    if (hide == hideNoOp_)
        return;
    hideNoOp_ = hide;
    invalidateFilter();
}

bool PassFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (!hideNoOp_ || sourceRow == 0)
        return true;
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    return !idx.data(PassListModel::IsNoOpRole).toBool();
}

} // namespace t2n::ui
