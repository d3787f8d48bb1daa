// The export form: every option of an export that a person would change,
// as widgets over the validated table models. A Basic part (output, inputs,
// target, dynamic axes, properties) is always shown; the rest folds under
// Advanced. Its boxes, labels and
// tooltips come from the option table (t2n/option_table.h): one box per
// stage, one labelled widget per row that has a form label. A bool option
// needs no code here (a check box), nor does any other option with a flag
// (its flag's text in a line edit); choices and tables are in widgetFor(). options() reads the form
// back into the engine's ExportOptions (the same struct `t2n export` fills from its flags),
// setOptions() fills it from one (e.g. a loaded recipe).
#pragma once

#include "t2n/option_table.h"

#include <QWidget>

#include <string_view>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QTableView;
class QToolButton;
class QUndoStack;

namespace t2n::ui {

class DynamicAxesModel;
class FormHistory;
class InputSpecsModel;
class PropertiesModel;

class ExportForm : public QWidget {
    Q_OBJECT
public:
    explicit ExportForm(QWidget* parent = nullptr);

    void setOptions(const ExportOptions& options);
    /// Replaces the input table only (a model opened, inputs proposed).
    void setInputs(const std::vector<InputSpec>& inputs);
    /// The form as options; inputs from the input table. Only call when valid().
    ExportOptions options() const;
    /// Every table validates; errors() says what is wrong.
    bool valid() const;
    /// The target chosen is Khronos NNEF (no tract extensions: no symbols, no properties).
    bool isKhronos() const;
    QStringList errors() const;
    /// Tensor names (and ranks) the dynamic-axis rows may name.
    void setTensors(const QHash<QString, int>& ranks);

    /// The archive's path ("" : asked when exporting).
    QString outputPath() const;
    void setOutputPath(const QString& path);
    /// The folder the output dialog starts in when no path is set.
    void setOutputFolder(const QString& dir) { outputDir_ = dir; }
    /// One sentence per input under the input table: where they came from.
    void setInputsNote(const QString& text);
    QString inputsNote() const;
    /// Puts the keyboard on the first input's shape cell.
    void focusFirstShape();
    /// The Advanced part (every option but the basic ones) shown or folded.
    void setAdvancedShown(bool shown);
    bool advancedShown() const;

    InputSpecsModel* inputsModel() const { return inputs_; }
    DynamicAxesModel* axesModel() const { return axes_; }
    PropertiesModel* propertiesModel() const { return props_; }
    /// The user's edits of the tables and options (not the output path,
    /// whose line edit undoes itself), for Edit > Undo / Redo. setOptions()
    /// and setInputs() start a new history.
    QUndoStack* undoStack() const;

Q_SIGNALS:
    /// Any change to the form; valid() tells whether it can be exported.
    void changed();

private:
    QWidget* tableWithButtons(QTableView* view, const QString& addTip);
    QWidget* inputsWidget();
    QWidget* outputRow();
    QComboBox* targetChoice();
    QListWidget* passList();
    QWidget* toleranceRow();
    /// The widget of a row that is not a bool (a table, a choice ...).
    QWidget* widgetFor(const OptionRow& row);
    /// The check box of a bool row, by row name.
    QCheckBox* box(std::string_view name) const;
    void fillFrom(const ExportOptions& options);
    void refreshStatus();
    /// The form's fields by their labels, for the undo history.
    QVariantMap fields() const;
    void setFields(const QVariantMap& fields);

    InputSpecsModel* inputs_;
    DynamicAxesModel* axes_;
    PropertiesModel* props_;
    QComboBox* target_;
    QComboBox* naming_;
    QComboBox* compression_;
    QComboBox* tolerance_;
    QLineEdit* customTolerance_;
    QComboBox* compute_;
    /// One per bool row on the form, set and read through the row's JSON accessors.
    std::vector<std::pair<const OptionRow*, QCheckBox*>> switches_;
    /// One per other row without a widget of its own (output names ...),
    /// set and read through the row's flag text.
    std::vector<std::pair<const OptionRow*, QLineEdit*>> texts_;
    QListWidget* passes_;
    QSpinBox* seed_;
    QLabel* status_;
    QTableView* inputsView_ = nullptr;
    QLabel* inputsNote_ = nullptr;
    QLineEdit* output_ = nullptr;
    QString outputDir_;
    QToolButton* advancedToggle_ = nullptr;
    QWidget* advanced_ = nullptr;
    /// The last options set: the fields the form does not show are kept from them.
    ExportOptions base_;
    FormHistory* history_ = nullptr;
    bool filling_ = false; ///< setOptions() at work: not the user's edits
};

} // namespace t2n::ui
