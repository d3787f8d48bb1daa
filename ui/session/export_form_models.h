// The tables of the export form: input specs, dynamic axes and tract
// properties. Each validates with the engine's own parsers (so the form and
// `t2n export` accept exactly the same things) plus the rules that need the
// model: a dynamic axis must name a known tensor and an axis it has.
#pragma once

#include "session/editable_table_model.h"

#include "t2n/options.h"

#include <QHash>

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

protected:
    QString validate(int row, int column, const QStringList& cells) const override;
    QString rowLabel(int row) const override;
};

/// tensor | axis | symbol
class DynamicAxesModel : public EditableTableModel {
    Q_OBJECT
public:
    explicit DynamicAxesModel(QObject* parent = nullptr);
    /// Names a dynamic axis may refer to, with their rank (-1: unknown rank).
    void setTensors(const QHash<QString, int>& ranks);
    void setAxes(const std::vector<DynamicAxis>& axes);
    std::vector<DynamicAxis> axes() const;

protected:
    QString validate(int row, int column, const QStringList& cells) const override;

private:
    QHash<QString, int> ranks_;
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
