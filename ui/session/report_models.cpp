#include "session/report_models.h"

#include "text/highlight_style.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QStringList>

namespace t2n::ui {

QString carriedStateText(const CarriedState& c) {
    QStringList dims;
    for (int64_t d : c.shape)
        dims << QString::number(d);
    return QObject::tr("%1: input '%2' (%3 %4) and output '%5'; give each call's %5 as the next "
                       "call's %2")
        .arg(QString::fromStdString(c.attribute), QString::fromStdString(c.input),
             QString::fromLatin1(dtypeName(c.dtype).data(),
                                 static_cast<qsizetype>(dtypeName(c.dtype).size())),
             dims.isEmpty() ? QObject::tr("scalar") : dims.join(QLatin1Char('x')),
             QString::fromStdString(c.output));
}

QString specialisedText(const std::vector<std::string>& bound) {
    if (bound.empty())
        return {};
    QStringList items;
    for (const auto& b : bound)
        items << QString::fromStdString(b);
    return QObject::tr("%1: a constant of the archive; export again for another value")
        .arg(items.join(QStringLiteral(", ")));
}

QString shapeText(const std::vector<int64_t>& shape) {
    if (shape.empty())
        return QStringLiteral("scalar");
    QStringList dims;
    for (int64_t d : shape)
        dims << QString::number(d);
    return dims.join(QLatin1Char('x'));
}

OutputComparisonModel::OutputComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void OutputComparisonModel::setOutputs(const std::vector<OutputComparison>& outputs) {
    beginResetModel();
    outputs_ = outputs;
    endResetModel();
}

int OutputComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(outputs_.size());
}

int OutputComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
// Percent of `whole` that `part` is (0 of none).
double share(int64_t part, int64_t whole) {
    return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}
} // namespace

QVariant OutputComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const auto& o = outputs_.at(static_cast<size_t>(index.row()));
    if (role == Qt::ForegroundRole && index.column() == Verdict)
        return QBrush(verdictColor(o.ok, QGuiApplication::palette()));
    if (role == Qt::ToolTipRole && index.column() == Steps && o.quantStep > 0)
        return tr("%1 steps of %2 at most; %3 elements one step off (%4 %), %5 more than one")
            .arg(o.maxErrorSteps, 0, 'g', 3)
            .arg(o.quantStep, 0, 'g', 4)
            .arg(o.offByOne)
            .arg(share(o.offByOne, o.elements), 0, 'f', 1)
            .arg(o.offByMore);
    if (role == Qt::ToolTipRole && !o.note.empty())
        return QString::fromStdString(o.note);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name:
        return QString::fromStdString(o.name);
    case Verdict:
        return o.ok ? tr("matches") : tr("differs");
    case MaxAbs:
        return QString::number(o.maxAbsError, 'g', 3);
    case MaxRel:
        return QString::number(o.maxRelError, 'g', 3);
    case Mismatches:
        return tr("%1 of %2").arg(o.mismatches).arg(o.elements);
    case Steps:
        if (o.quantStep <= 0)
            return QStringLiteral("\u2014");
        // Short enough for the column; the tooltip says the whole of it.
        if (o.offByOne == 0 && o.offByMore == 0)
            return tr("exact");
        return tr("max %1; %2 % off by one")
            .arg(o.maxErrorSteps, 0, 'g', 3)
            .arg(share(o.offByOne, o.elements), 0, 'f', 1);
    case Worst: {
        // No index: every value equal (the engine names no worst one; the
        // tooltip carries the note when they are all 0), or a scalar output
        // ("[]" read as a bug to a stranger).
        if (o.worstIndex.empty())
            return o.ok && o.maxAbsError == 0
                       ? tr("every value equal")
                       : tr("expected %1, got %2").arg(o.expected, 0, 'g', 6).arg(o.got, 0, 'g', 6);
        QStringList idx;
        for (int64_t i : o.worstIndex)
            idx << QString::number(i);
        return tr("[%1]: expected %2, got %3")
            .arg(idx.join(QStringLiteral(", ")))
            .arg(o.expected, 0, 'g', 6)
            .arg(o.got, 0, 'g', 6);
    }
    }
    return {};
}

QVariant OutputComparisonModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Output",           "Verdict", "Max abs error", "Max rel error",
                                  "Beyond tolerance", "Steps",   "Worst element"};
    return section < ColumnCount ? tr(names[section]) : QVariant();
}

VariablesModel::VariablesModel(QObject* parent) : QAbstractTableModel(parent) {}

void VariablesModel::setVariables(const std::vector<VariableRecord>& variables) {
    beginResetModel();
    variables_ = variables;
    endResetModel();
}

int VariablesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(variables_.size());
}

int VariablesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VariablesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const auto& v = variables_.at(static_cast<size_t>(index.row()));
    if (role == Qt::ToolTipRole && !v.from.empty())
        return tr("computed from %1").arg(QString::fromStdString(v.from));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Identifier:
        return QString::fromStdString(v.identifier);
    case DType:
        return QString::fromStdString(v.dtype);
    case Shape:
        return shapeText(v.shape);
    case Origin:
        return QString::fromStdString(v.origin);
    }
    return {};
}

QVariant VariablesModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Variable", "dtype", "Shape", "Origin"};
    return section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace t2n::ui
