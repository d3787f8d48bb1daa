// The tables of the export form: input specs, dynamic axes and tract
// properties. Each validates with the engine's own parsers (so the form and
// `t2n export` accept exactly the same things) plus the rules that need the
// model: a dynamic axis must name a known tensor and an axis it has.
#pragma once

#include "session/editable_table_model.h"

#include "t2n/options.h"

#include <QHash>

#include <optional>

#include <utility>
#include <vector>

namespace t2n::ui {

/// name | shape (1x3x224x224, 1,3,224,224 or [1, 3, 224, 224]; empty for a scalar) | dtype (f32,
/// i64, ...) | values (empty: seeded random; inline values "60" or "[3,1,4,1]"; else a .npy,
/// .npz#member or .pt file whose tensor also gives the shape and dtype)
class InputSpecsModel : public EditableTableModel {
    Q_OBJECT
public:
    explicit InputSpecsModel(QObject* parent = nullptr);
    void setSpecs(const std::vector<InputSpec>& specs);
    /// Only meaningful when isValid().
    std::vector<InputSpec> specs() const;
    /// forward()'s arguments that are not tensors, by name, with their
    /// TorchScript type ("int", "float", "bool"): their row is a typed field
    /// (shape "scalar", the type's dtype) whose value must be given, since
    /// the archive holds it as a constant.
    void setScalarArguments(const QHash<QString, QString>& types);
    /// The dtype a scalar argument of TorchScript type `type` is given as
    /// (i64 for int, f64 for float, bool), or nullopt for other types.
    static std::optional<DType> scalarDType(const QString& type);
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    QString validate(int row, int column, const QStringList& cells) const override;
    QString rowLabel(int row) const override;

private:
    QHash<QString, QString> scalarTypes_;
};

/// tensor | axis | symbol | sizes (the sizes the axis accepts, "multiple-of=32,min=64"; empty:
/// the rule t2n infers from the graph, shown in the cell once an export found one)
class DynamicAxesModel : public EditableTableModel {
    Q_OBJECT
public:
    enum Column { TensorColumn, AxisColumn, SymbolColumn, SizesColumn };
    /// The rule the graph gives a symbol's axes, and where it comes from.
    struct InferredRule {
        QString rule; ///< "multiple-of=32"
        QString why;  ///< "the strides to 1/32 meeting ... at aten::cat at m.py:48"
    };

    explicit DynamicAxesModel(QObject* parent = nullptr);
    /// Names a dynamic axis may refer to, with their rank (-1: unknown rank).
    void setTensors(const QHash<QString, int>& ranks);
    void setAxes(const std::vector<DynamicAxis>& axes);
    std::vector<DynamicAxis> axes() const;
    /// What the last export inferred, by symbol: an empty sizes cell of that
    /// symbol shows it ("multiple-of=32, from the graph"), its tooltip why.
    void setInferredRules(const QHash<QString, InferredRule>& rules);
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    QString validate(int row, int column, const QStringList& cells) const override;

private:
    QHash<QString, int> ranks_;
    QHash<QString, InferredRule> inferred_;
};

/// key | value, for tract_core_properties
class PropertiesModel : public EditableTableModel {
    Q_OBJECT
public:
    explicit PropertiesModel(QObject* parent = nullptr);
    void setProperties(const std::vector<std::pair<std::string, std::string>>& props);
    std::vector<std::pair<std::string, std::string>> properties() const;

protected:
    QString validate(int row, int column, const QStringList& cells) const override;
};

} // namespace t2n::ui
