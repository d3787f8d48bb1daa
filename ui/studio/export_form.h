// The export form: every option of an export that a person would change,
// as widgets over the validated table models. options() reads the form back
// into the engine's ExportOptions (the same struct `t2n export` fills from
// its flags), setOptions() fills it from one (e.g. a loaded recipe).
#pragma once

#include "t2n/options.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QTableView;

namespace t2n::ui {

class DynamicAxesModel;
class InputSpecsModel;
class PropertiesModel;

class ExportForm : public QWidget {
    Q_OBJECT
public:
    explicit ExportForm(QWidget* parent = nullptr);

    void setOptions(const ExportOptions& options);
    /// The form as options; inputs from the input table. Only call when valid().
    ExportOptions options() const;
    /// Every table validates; errors() says what is wrong.
    bool valid() const;
    /// The target chosen is Khronos NNEF (no tract extensions: no symbols, no properties).
    bool isKhronos() const;
    QStringList errors() const;
    /// Tensor names (and ranks) the dynamic-axis rows may name.
    void setTensors(const QHash<QString, int>& ranks);

    InputSpecsModel* inputsModel() const { return inputs_; }
    DynamicAxesModel* axesModel() const { return axes_; }
    PropertiesModel* propertiesModel() const { return props_; }

Q_SIGNALS:
    /// Any change to the form; valid() tells whether it can be exported.
    void changed();

private:
    QWidget* tableWithButtons(QTableView* view, const QString& addTip);
    void refreshStatus();

    InputSpecsModel* inputs_;
    DynamicAxesModel* axes_;
    PropertiesModel* props_;
    QComboBox* target_;
    QComboBox* naming_;
    QComboBox* compression_;
    QComboBox* tolerance_;
    QLineEdit* customTolerance_;
    QLineEdit* outputNames_;
    QCheckBox* identity_;
    QCheckBox* freeze_;
    QCheckBox* check_;
    QCheckBox* everyValue_;
    QCheckBox* weightsQ4_0_;
    QCheckBox* reifySdpa_;
    QCheckBox* upsampleWithDebox_;
    QComboBox* compute_;
    QCheckBox* f32Attention_;
    QCheckBox* f32LinearAccumulation_;
    QCheckBox* f32Norm_;
    QListWidget* passes_;
    QSpinBox* seed_;
    QLabel* status_;
    /// The last options set: the fields the form does not show are kept from them.
    ExportOptions base_;
};

} // namespace t2n::ui
