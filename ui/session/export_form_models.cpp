#include "session/export_form_models.h"

#include "t2n/error.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace t2n::ui {

namespace {
bool isIdentifier(const QString& s) {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return re.match(s).hasMatch();
}

/// The engine's parse error for `text`, or an empty string when it parses.
template <typename Parse> QString parseError(Parse&& parse) {
    try {
        parse();
        return {};
    } catch (const Error& e) {
        return QString::fromStdString(e.message());
    }
}

/// Whether a values cell holds inline values ("60", "[3,1,4,1]", "true")
/// rather than a file name.
bool isInlineValues(const QString& cell) {
    static const QRegularExpression re(
        QStringLiteral(R"(^\s*(\[.*\]|[-+]?[0-9.][0-9.eE+-]*|true|false)\s*$)"));
    return re.match(cell).hasMatch();
}

/// The engine's spelling of a shape cell: "1x3x224x224" as typed, or
/// written as "1,3,224,224", "1 3 224 224" or "[1, 3, 224, 224]".
QString normalizedShape(const QString& cell) {
    QString t = cell.trimmed();
    if (t.startsWith(QLatin1Char('[')) || t.startsWith(QLatin1Char('(')))
        t = t.mid(1);
    if (t.endsWith(QLatin1Char(']')) || t.endsWith(QLatin1Char(')')))
        t.chop(1);
    static const QRegularExpression separators(QStringLiteral("\\s*[,x×*\\s]\\s*"));
    return t.trimmed().split(separators, Qt::SkipEmptyParts).join(QLatin1Char('x'));
}

/// The engine's spelling of one row: "x:1x3x8x8:f32", "ids:1x4:i64=[3,1,4,1]"
/// with inline values, or "x=@file.npy" when the row takes its values (and
/// so its shape and dtype) from a file.
QString specText(const QStringList& cells) {
    const QString values = cells.value(3).trimmed();
    // An empty shape cell is a scalar input (the engine wants the word).
    QString shape = normalizedShape(cells.value(1));
    if (shape.compare(QStringLiteral("scalar"), Qt::CaseInsensitive) == 0)
        shape.clear();
    const QString spec =
        QStringLiteral("%1:%2:%3")
            .arg(cells.value(0), shape.isEmpty() ? QStringLiteral("scalar") : shape,
                 cells.value(2));
    if (values.isEmpty())
        return spec;
    if (isInlineValues(values))
        return spec + QLatin1Char('=') + values;
    return QStringLiteral("%1=@%2").arg(cells.value(0), values);
}

/// Why a values cell ("file.npy", "file.npz#member", "file.pt") cannot be
/// read, or an empty string. The suffix rules are the engine parser's; the
/// file must exist now, so the mistake shows before the export starts.
QString valuesFileError(const QString& cell) {
    const QString value = cell.trimmed();
    if (value.isEmpty())
        return {};
    QString err = parseError([&] { InputSpec::parse(("x=@" + value).toStdString()); });
    if (!err.isEmpty())
        return err;
    const QString file = value.section(QLatin1Char('#'), 0, 0);
    if (!QFileInfo(file).isFile())
        return QObject::tr("no file '%1' (give a path to a .npy, .npz or .pt file)").arg(file);
    return {};
}
} // namespace

InputSpecsModel::InputSpecsModel(QObject* parent)
    : EditableTableModel({tr("name"), tr("shape"), tr("dtype"), tr("values")}, parent) {}

void InputSpecsModel::setSpecs(const std::vector<InputSpec>& specs) {
    QVector<QStringList> rows;
    for (const auto& s : specs) {
        QStringList dims;
        for (int64_t d : s.shape)
            dims << QString::number(d);
        QString values = QString::fromStdString(s.valuesFile);
        if (!s.valuesMember.empty())
            values += QLatin1Char('#') + QString::fromStdString(s.valuesMember);
        if (!s.values.empty()) // the engine's spelling after '='
            values = QString::fromStdString(s.toString()).section(QLatin1Char('='), 1);
        rows.push_back({QString::fromStdString(s.name),
                        s.valuesFile.empty() ? dims.join(QLatin1Char('x')) : QString(),
                        s.valuesFile.empty()
                            ? QString::fromLatin1(dtypeName(s.dtype).data(),
                                                  static_cast<qsizetype>(dtypeName(s.dtype).size()))
                            : QString(),
                        values});
    }
    setRows(rows);
}

void InputSpecsModel::setScalarArguments(const QHash<QString, QString>& types) {
    scalarTypes_ = types;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

std::optional<DType> InputSpecsModel::scalarDType(const QString& type) {
    const QString t = type.trimmed();
    if (t == QLatin1String("int"))
        return DType::I64;
    if (t == QLatin1String("float"))
        return DType::F64;
    if (t == QLatin1String("bool"))
        return DType::Bool;
    return std::nullopt;
}

QVariant InputSpecsModel::data(const QModelIndex& index, int role) const {
    const QString name = index.isValid() ? cell(index.row(), 0) : QString();
    const auto type = scalarTypes_.constFind(name);
    if (type != scalarTypes_.constEnd() && (role == Qt::DisplayRole || role == Qt::ToolTipRole)) {
        // A typed field: says what the argument is and that the archive keeps its value.
        if (index.column() == 1 && role == Qt::DisplayRole && cell(index.row(), 1).isEmpty())
            return tr("scalar (%1)").arg(*type);
        if (index.column() == 3 && role == Qt::DisplayRole && cell(index.row(), 3).isEmpty())
            return tr("give its value (required)");
        if (role == Qt::ToolTipRole)
            return tr("%1 is a number forward() takes besides its tensors (%2): the archive "
                      "holds the value given here as a constant; export again for another "
                      "value")
                .arg(name, *type);
    }
    return EditableTableModel::data(index, role);
}

std::vector<InputSpec> InputSpecsModel::specs() const {
    std::vector<InputSpec> out;
    for (const auto& r : rows())
        out.push_back(InputSpec::parse(specText(r).toStdString()));
    return out;
}

QString InputSpecsModel::validate(int row, int column, const QStringList& cells) const {
    if (column == 0) {
        if (cells.value(0).isEmpty())
            return tr("an input needs a name");
        for (int r = 0; r < row; ++r)
            if (cell(r, 0) == cells.value(0))
                return tr("'%1' is already the name of input %2").arg(cells.value(0)).arg(r + 1);
        return {};
    }
    if (column == 3 && scalarTypes_.contains(cells.value(0)) && cells.value(3).trimmed().isEmpty())
        return tr("%1 is a number forward() takes besides its tensors (%2); the archive holds "
                  "it as a constant: give its value (for example 16000 for a sample rate)")
            .arg(cells.value(0), scalarTypes_.value(cells.value(0)));
    if (column == 3 && isInlineValues(cells.value(3)))
        return parseError([&] { InputSpec::parse(specText(cells).toStdString()); });
    if (column == 3)
        return valuesFileError(cells.value(3));
    // With a values file, shape and dtype come from the file.
    if (!cells.value(3).trimmed().isEmpty() && !isInlineValues(cells.value(3)))
        return {};
    // In plain words, on the cell they are about (the row label names the input).
    if (column == 1) {
        const QString shape = normalizedShape(cells.value(1));
        if (shape.isEmpty() || shape.compare(QStringLiteral("scalar"), Qt::CaseInsensitive) == 0)
            return {}; // a scalar input
        static const QRegularExpression sizes(QStringLiteral("^[0-9]+(x[0-9]+)*$"));
        if (!sizes.match(shape).hasMatch())
            return tr("'%1' is not a shape: write the sizes separated by x or commas, like "
                      "1x3x224x224")
                .arg(cells.value(1).trimmed());
        return parseError(
            [&] { InputSpec::parse(QStringLiteral("x:%1:f32").arg(shape).toStdString()); });
    }
    if (!parseDType(cells.value(2).trimmed().toStdString()))
        return tr("'%1' is not a type: use f32 for decimal numbers (images, audio, features), "
                  "i64 for whole numbers (token ids, lengths), bool for masks, or f16 f64 i32 "
                  "i16 i8 u8")
            .arg(cells.value(2).trimmed());
    return {};
}

QString InputSpecsModel::rowLabel(int row) const {
    const QString name = cell(row, 0);
    return name.isEmpty() ? tr("input %1").arg(row + 1) : tr("input '%1'").arg(name);
}

DynamicAxesModel::DynamicAxesModel(QObject* parent)
    : EditableTableModel({tr("tensor"), tr("axis"), tr("symbol"), tr("sizes")}, parent) {}

void DynamicAxesModel::setInferredRules(const QHash<QString, InferredRule>& rules) {
    inferred_ = rules;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, SizesColumn), index(rowCount() - 1, SizesColumn));
}

QVariant DynamicAxesModel::data(const QModelIndex& index, int role) const {
    // An empty sizes cell shows what the graph requires (never edited into
    // the cell: the rule stays inferred until the user writes one).
    if (index.isValid() && index.column() == SizesColumn &&
        cell(index.row(), SizesColumn).isEmpty()) {
        const auto it = inferred_.constFind(cell(index.row(), SymbolColumn));
        if (it != inferred_.constEnd() && role == Qt::DisplayRole)
            return it->rule.isEmpty() ? tr("any size, from the graph")
                                      : tr("%1, from the graph").arg(it->rule);
        if (it != inferred_.constEnd() && role == Qt::ToolTipRole)
            return it->rule.isEmpty() ? tr("nothing in the graph constrains this axis")
                                      : tr("inferred: %1 (%2); write a rule here to give your "
                                           "own")
                                            .arg(it->rule, it->why);
    }
    return EditableTableModel::data(index, role);
}

void DynamicAxesModel::setTensors(const QHash<QString, int>& ranks) {
    ranks_ = ranks;
    revalidate();
}

void DynamicAxesModel::setAxes(const std::vector<DynamicAxis>& axes) {
    QVector<QStringList> rows;
    for (const auto& a : axes)
        rows.push_back({QString::fromStdString(a.tensor), QString::number(a.axis),
                        QString::fromStdString(a.symbol), QString::fromStdString(a.ruleText())});
    setRows(rows);
}

std::vector<DynamicAxis> DynamicAxesModel::axes() const {
    std::vector<DynamicAxis> out;
    for (const auto& r : rows())
        out.push_back(
            DynamicAxis::parse((QStringLiteral("%1:%2=%3").arg(r.value(0), r.value(1), r.value(2)) +
                                (r.value(3).isEmpty() ? QString() : QLatin1Char(':') + r.value(3)))
                                   .toStdString()));
    return out;
}

QString DynamicAxesModel::validate(int row, int column, const QStringList& cells) const {
    const QString tensor = cells.value(0);
    switch (column) {
    case 0:
        if (tensor.isEmpty())
            return tr("name an input or output");
        if (!ranks_.isEmpty() && !ranks_.contains(tensor))
            return tr("the model has no input or output named '%1'").arg(tensor);
        return {};
    case 1: {
        bool ok = false;
        const int axis = cells.value(1).toInt(&ok);
        if (!ok)
            return tr("an axis is an integer (negative counts from the end)");
        const int rank = ranks_.value(tensor, -1);
        if (rank >= 0 && (axis < -rank || axis >= rank))
            return tr("'%1' has %2 axes: use %3 to %4")
                .arg(tensor)
                .arg(rank)
                .arg(-rank)
                .arg(rank - 1);
        // -1 and rank-1 are the same axis.
        auto normal = [rank](int a) { return a < 0 && rank > 0 ? a + rank : a; };
        for (int r = 0; r < row; ++r)
            if (cell(r, 0) == tensor && normal(cell(r, 1).toInt()) == normal(axis))
                return tr("axis %1 of '%2' is already dynamic (row %3)")
                    .arg(axis)
                    .arg(tensor)
                    .arg(r + 1);
        return {};
    }
    case 2:
        if (!isIdentifier(cells.value(2)))
            return tr("a symbol is a name such as B or S (letters, digits, _)");
        return {};
    case 3:
        if (cells.value(3).isEmpty())
            return {};
        if (!cells.value(3).startsWith(QStringLiteral("multiple-of=")) &&
            !cells.value(3).startsWith(QStringLiteral("min=")))
            return tr("write the sizes the axis accepts as multiple-of=N, min=N or both "
                      "(multiple-of=32,min=64), or leave it empty for the graph's rule");
        return parseError([&] {
            DynamicAxis::parse(QStringLiteral("x:0=S:%1").arg(cells.value(3)).toStdString());
        });
    }
    return {};
}

PropertiesModel::PropertiesModel(QObject* parent)
    : EditableTableModel({tr("key"), tr("value")}, parent) {}

void PropertiesModel::setProperties(const std::vector<std::pair<std::string, std::string>>& props) {
    QVector<QStringList> rows;
    for (const auto& [k, v] : props)
        rows.push_back({QString::fromStdString(k), QString::fromStdString(v)});
    setRows(rows);
}

std::vector<std::pair<std::string, std::string>> PropertiesModel::properties() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& r : rows())
        out.emplace_back(r.value(0).toStdString(), r.value(1).toStdString());
    return out;
}

QString PropertiesModel::validate(int row, int column, const QStringList& cells) const {
    if (column != 0)
        return {};
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_.\\-]*$"));
    if (!re.match(cells.value(0)).hasMatch())
        return tr("a key is a name such as model_version (letters, digits, '_', '.', '-')");
    for (int r = 0; r < row; ++r)
        if (cell(r, 0) == cells.value(0))
            return tr("'%1' is set twice (row %2)").arg(cells.value(0)).arg(r + 1);
    return {};
}

} // namespace t2n::ui
