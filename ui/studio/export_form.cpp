#include "studio/export_form.h"
#include "session/qt_text.h"

#include "session/export_form_models.h"
#include "session/form_history.h"
#include "text/highlight_style.h"

#include "t2n/error.h"
#include "t2n/harden.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace t2n::ui {

namespace {
const char* kTolerances[] = {"exact", "close", "approximate", "very", "super", "ultra", "custom"};

QString stageTitle(OptionStage stage) {
    switch (stage) {
    case OptionStage::Load:
        return QObject::tr("Inputs");
    case OptionStage::Harden:
        return QObject::tr("Hardening");
    case OptionStage::Translate:
        return QObject::tr("Names, target and graph");
    case OptionStage::Write:
        return QObject::tr("Archive");
    case OptionStage::Check:
        return QObject::tr("Check");
    }
    return {};
}

/// A line edit's text as the values of the row's flag: comma-separated for a
/// repeatable flag.
std::vector<std::string> flagValues(const OptionRow& row, const QString& text) {
    if (row.arity != OptionArity::Many)
        return {text.trimmed().toStdString()};
    std::vector<std::string> out;
    for (const QString& v : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!v.trimmed().isEmpty())
            out.push_back(v.trimmed().toStdString());
    return out;
}

bool isBool(const OptionRow& row) {
    return row.toJson(ExportOptions{}).is_boolean();
}
} // namespace

namespace {
// What a person exporting a model for the first time decides; the rest is
// under "Advanced".
bool isBasic(std::string_view row) {
    return row == "inputs" || row == "target" || row == "dynamicAxes" || row == "properties";
}
} // namespace

ExportForm::ExportForm(QWidget* parent)
    : QWidget(parent), inputs_(new InputSpecsModel(this)), axes_(new DynamicAxesModel(this)),
      props_(new PropertiesModel(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* basic = new QGroupBox(tr("Export"), this);
    basic->setObjectName(QStringLiteral("basicOptions"));
    auto* basicForm = new QFormLayout(basic);
    layout->addWidget(basic);
    basicForm->addRow(tr("Output"), outputRow());
    advancedToggle_ = new QToolButton(this);
    advancedToggle_->setObjectName(QStringLiteral("advancedToggle"));
    advancedToggle_->setText(tr("Advanced options: hardening passes, precision, weight "
                                "compression, names, archive format, check"));
    advancedToggle_->setCheckable(true);
    advancedToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    advancedToggle_->setArrowType(Qt::RightArrow);
    advancedToggle_->setAutoRaise(true);
    layout->addWidget(advancedToggle_);
    advanced_ = new QWidget(this);
    advanced_->setObjectName(QStringLiteral("advancedOptions"));
    auto* advancedLayout = new QVBoxLayout(advanced_);
    advancedLayout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(advanced_);
    connect(advancedToggle_, &QToolButton::toggled, this, &ExportForm::setAdvancedShown);
    // The basic rows in one box, the others in one box per stage, one widget
    // per row with a form label, in table order.
    for (OptionStage stage : optionStages()) {
        QGroupBox* group = nullptr;
        QFormLayout* form = nullptr;
        for (const OptionRow& row : exportOptionTable()) {
            if (row.stage != stage || row.label.empty())
                continue;
            QWidget* parentBox = basic;
            QFormLayout* into = basicForm;
            if (!isBasic(row.name)) {
                if (!group) {
                    group = new QGroupBox(stageTitle(stage), advanced_);
                    form = new QFormLayout(group);
                    advancedLayout->addWidget(group);
                }
                parentBox = group;
                into = form;
            }
            const QString label = qs(row.label), help = qs(row.help);
            if (isBool(row)) {
                auto* b = new QCheckBox(label, parentBox);
                b->setObjectName(qs(row.name));
                b->setToolTip(help);
                switches_.emplace_back(&row, b);
                into->addRow(b);
                connect(b, &QCheckBox::toggled, this, &ExportForm::refreshStatus);
                continue;
            }
            QWidget* w = widgetFor(row);
            w->setToolTip(help);
            auto* l = new QLabel(label, parentBox);
            l->setToolTip(help);
            l->setBuddy(w);
            into->addRow(l, w);
        }
    }
    setAdvancedShown(false);

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("formStatus"));
    status_->setWordWrap(true);
    layout->addWidget(status_);
    layout->addStretch(1);

    for (auto* m :
         {static_cast<EditableTableModel*>(inputs_), static_cast<EditableTableModel*>(axes_),
          static_cast<EditableTableModel*>(props_)})
        connect(m, &QAbstractItemModel::dataChanged, this, &ExportForm::refreshStatus);
    for (auto* c : {target_, compression_, naming_, tolerance_, compute_})
        connect(c, &QComboBox::currentIndexChanged, this, &ExportForm::refreshStatus);
    connect(customTolerance_, &QLineEdit::textChanged, this, &ExportForm::refreshStatus);
    connect(passes_, &QListWidget::itemChanged, this, &ExportForm::refreshStatus);
    connect(seed_, &QSpinBox::valueChanged, this, &ExportForm::refreshStatus);
    history_ = new FormHistory([this] { return fields(); },
                               [this](const QVariantMap& f) { setFields(f); }, this);
    // In the studio the error overlay is worth one more run of both graphs.
    ExportOptions defaults;
    defaults.checkEveryValue = true;
    setOptions(defaults);
}

QWidget* ExportForm::outputRow() {
    auto* row = new QWidget(this);
    auto* l = new QHBoxLayout(row);
    l->setContentsMargins(0, 0, 0, 0);
    output_ = new QLineEdit(row);
    output_->setObjectName(QStringLiteral("outputPath"));
    output_->setPlaceholderText(tr("asked when you export (NAME.nnef.tgz, NAME.nnef.tar or a "
                                   "folder NAME.nnef)"));
    output_->setToolTip(tr("Where the archive is written; an existing archive there is "
                           "replaced only when the new one passed its check"));
    auto* choose = new QPushButton(tr("Choose…"), row);
    choose->setObjectName(QStringLiteral("chooseOutput"));
    l->addWidget(output_, 1);
    l->addWidget(choose);
    connect(choose, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export to"), output_->text().isEmpty() ? outputDir_ : output_->text(),
            tr("NNEF archives (*.nnef.tgz *.nnef.tar);;All files (*)"));
        if (!path.isEmpty())
            output_->setText(path);
    });
    return row;
}

void ExportForm::setAdvancedShown(bool shown) {
    advanced_->setVisible(shown);
    advancedToggle_->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    if (advancedToggle_->isChecked() != shown)
        advancedToggle_->setChecked(shown);
}

bool ExportForm::advancedShown() const {
    return advancedToggle_->isChecked();
}

QString ExportForm::outputPath() const {
    return output_->text().trimmed();
}

void ExportForm::setOutputPath(const QString& path) {
    output_->setText(path);
}

void ExportForm::setInputsNote(const QString& text) {
    inputsNote_->setText(text);
    inputsNote_->setVisible(!text.isEmpty());
}

QString ExportForm::inputsNote() const {
    return inputsNote_->text();
}

void ExportForm::focusFirstShape() {
    if (inputs_->rowCount() == 0)
        return;
    inputsView_->setCurrentIndex(inputs_->index(0, 1));
    inputsView_->setFocus(Qt::OtherFocusReason);
}

QWidget* ExportForm::inputsWidget() {
    auto* box = new QWidget(this);
    auto* inputsView = inputsView_ = new QTableView(box);
    inputsView->setObjectName(QStringLiteral("inputsTable"));
    inputsView->setModel(inputs_);
    inputsView->setMaximumHeight(160);
    auto* inputsLayout = new QVBoxLayout(box);
    inputsLayout->setContentsMargins(0, 0, 0, 0);
    inputsLayout->addWidget(tableWithButtons(inputsView, tr("Add an input")));
    auto* valuesRow = new QHBoxLayout;
    auto* valuesButton = new QPushButton(tr("Values from a file…"), box);
    valuesButton->setObjectName(QStringLiteral("inputValuesButton"));
    valuesButton->setToolTip(tr("Use a .npy, .npz or .pt tensor as the selected input's example "
                                "values (its shape and dtype come from the file)"));
    valuesRow->addWidget(valuesButton);
    valuesRow->addWidget(new QLabel(tr("Empty values: seeded random numbers."), box), 1);
    inputsLayout->addLayout(valuesRow);
    // Where the inputs came from (proposed by t2n and why, a recipe, the last
    // export of this model): one sentence per input.
    inputsNote_ = new QLabel(box);
    inputsNote_->setObjectName(QStringLiteral("inputsNote"));
    inputsNote_->setWordWrap(true);
    inputsNote_->setTextFormat(Qt::PlainText);
    inputsNote_->hide();
    inputsLayout->addWidget(inputsNote_);
    connect(valuesButton, &QPushButton::clicked, this, [this, inputsView] {
        const int row = inputsView->currentIndex().isValid() ? inputsView->currentIndex().row() : 0;
        if (row >= inputs_->rowCount())
            return;
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Example values for '%1'").arg(inputs_->cell(row, 0)), QString(),
            tr("Tensors (*.npy *.npz *.pt);;All files (*)"));
        if (!file.isEmpty())
            inputs_->setData(inputs_->index(row, 3), file);
    });
    return box;
}

QComboBox* ExportForm::targetChoice() {
    target_ = new QComboBox(this);
    // Item data is the engine's own spelling (TargetSpec::parse/toString).
    const auto& versions = knownTractVersions();
    for (auto it = versions.rbegin(); it != versions.rend(); ++it) {
        TargetSpec spec;
        if (it != versions.rbegin())
            spec.version = *it; // the newest stays unpinned, as `--target tract`
        target_->addItem(it == versions.rbegin() ? tr("tract %1 (newest)").arg(qs(*it))
                                                 : tr("tract %1").arg(qs(*it)),
                         QString::fromStdString(spec.toString(false)));
    }
    TargetSpec khronos;
    khronos.kind = TargetKind::Khronos;
    target_->addItem(tr("Khronos NNEF %1 (standard operations only)").arg(qs(kKhronosNnefVersion)),
                     QString::fromStdString(khronos.toString(false)));
    target_->setObjectName(QStringLiteral("targetChoice"));
    return target_;
}

QListWidget* ExportForm::passList() {
    passes_ = new QListWidget(this);
    passes_->setObjectName(QStringLiteral("passList"));
    for (const auto& p : harden::passDescriptions()) {
        auto* item = new QListWidgetItem(QString::fromStdString(p.name), passes_);
        item->setToolTip(QString::fromStdString(p.summary));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    passes_->setMaximumHeight(140);
    return passes_;
}

QWidget* ExportForm::toleranceRow() {
    auto* w = new QWidget(this);
    auto* tolRow = new QHBoxLayout(w);
    tolRow->setContentsMargins(0, 0, 0, 0);
    tolerance_ = new QComboBox(w);
    for (const char* t : kTolerances)
        tolerance_->addItem(QString::fromLatin1(t));
    customTolerance_ = new QLineEdit(w);
    customTolerance_->setPlaceholderText(tr("atol,rtol,outliers e.g. 1e-4,1e-3,0.001"));
    tolRow->addWidget(tolerance_);
    tolRow->addWidget(customTolerance_, 1);
    return w;
}

QWidget* ExportForm::widgetFor(const OptionRow& row) {
    const std::string_view name = row.name;
    if (name == "inputs")
        return inputsWidget();
    if (name == "dynamicAxes" || name == "properties") {
        auto* view = new QTableView(this);
        const bool axes = name == "dynamicAxes";
        view->setObjectName(axes ? QStringLiteral("dynamicAxesTable")
                                 : QStringLiteral("propertiesTable"));
        view->setModel(axes ? static_cast<QAbstractItemModel*>(axes_) : props_);
        // A few rows tall: the Advanced toggle stays in sight below them.
        view->setMaximumHeight(120);
        return tableWithButtons(view, axes ? tr("Add a dynamic axis") : tr("Add a property"));
    }
    if (name == "target")
        return targetChoice();
    if (name == "harden.skip")
        return passList();
    if (name == "checkTolerance")
        return toleranceRow();
    if (name == "compressionLevel") {
        compression_ = new QComboBox(this);
        compression_->addItem(tr("folder"), -1);
        compression_->addItem(tr(".tar"), 0);
        for (int level = 1; level <= 9; ++level)
            compression_->addItem(tr(".tgz, gzip level %1").arg(level), level);
        return compression_;
    }
    if (name == "naming") {
        naming_ = new QComboBox(this);
        for (auto s : {NamingScheme::NaturalVerbose, NamingScheme::NaturalVerboseCamel,
                       NamingScheme::Raw, NamingScheme::Numeric})
            naming_->addItem(qs(namingSchemeName(s)), static_cast<int>(s));
        return naming_;
    }
    if (name == "compute") {
        compute_ = new QComboBox(this);
        compute_->setObjectName(QStringLiteral("computeChoice"));
        compute_->addItem(tr("the model's own types"), QString());
        compute_->addItem(tr("f16 (traced and checked in f32)"), QStringLiteral("f16"));
        return compute_;
    }
    if (name == "seed") {
        seed_ = new QSpinBox(this);
        seed_->setRange(0, 1 << 30);
        return seed_;
    }
    // Any other option with a flag: its flag's text in a line edit, the
    // values of a repeatable flag separated by commas.
    Q_ASSERT_X(row.toText, "ExportForm::widgetFor", "a form label on an option without text");
    auto* edit = new QLineEdit(this);
    edit->setObjectName(qs(name));
    edit->setPlaceholderText(row.arity == OptionArity::Many
                                 ? tr("%1, ... (comma separated)").arg(qs(row.valueName))
                                 : qs(row.valueName));
    texts_.emplace_back(&row, edit);
    connect(edit, &QLineEdit::textChanged, this, &ExportForm::refreshStatus);
    return edit;
}

QCheckBox* ExportForm::box(std::string_view name) const {
    for (const auto& [row, b] : switches_)
        if (row->name == name)
            return b;
    return nullptr;
}

QWidget* ExportForm::tableWithButtons(QTableView* view, const QString& addTip) {
    auto* box = new QWidget(this);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->setVisible(false);
    view->setMinimumHeight(90);
    row->addWidget(view, 1);
    auto* buttons = new QVBoxLayout;
    auto* add = new QPushButton(tr("+"), box);
    add->setToolTip(addTip);
    auto* remove = new QPushButton(tr("−"), box);
    remove->setToolTip(tr("Remove the selected row"));
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    row->addLayout(buttons);
    auto* model = qobject_cast<EditableTableModel*>(view->model());
    connect(add, &QPushButton::clicked, this, [model, view] {
        model->appendRow({});
        view->edit(model->index(model->rowCount() - 1, 0));
    });
    connect(remove, &QPushButton::clicked, this, [model, view] {
        if (view->currentIndex().isValid())
            model->removeRows(view->currentIndex().row(), 1);
    });
    connect(model, &QAbstractItemModel::rowsInserted, this, &ExportForm::refreshStatus);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &ExportForm::refreshStatus);
    connect(model, &QAbstractItemModel::modelReset, this, &ExportForm::refreshStatus);
    return box;
}

void ExportForm::setInputs(const std::vector<InputSpec>& inputs) {
    {
        const QScopedValueRollback filling(filling_, true);
        base_.inputs = inputs;
        inputs_->setSpecs(inputs);
        refreshStatus();
    }
    history_->reset();
}

void ExportForm::setTensors(const QHash<QString, int>& ranks) {
    axes_->setTensors(ranks);
}

void ExportForm::setOptions(const ExportOptions& o) {
    {
        const QScopedValueRollback filling(filling_, true);
        fillFrom(o);
    }
    history_->reset();
}

void ExportForm::fillFrom(const ExportOptions& o) {
    base_ = o;
    inputs_->setSpecs(o.inputs);
    axes_->setAxes(o.dynamicAxes);
    props_->setProperties(o.properties);
    const int t = target_->findData(QString::fromStdString(o.target.toString(false)));
    target_->setCurrentIndex(t < 0 ? 0 : t);
    compression_->setCurrentIndex(
        compression_->findData(o.compressionLevel ? *o.compressionLevel : -1));
    naming_->setCurrentIndex(naming_->findData(static_cast<int>(o.naming)));
    for (const auto& [row, edit] : texts_) {
        QStringList values;
        for (const auto& v : row->toText(o))
            values << QString::fromStdString(v);
        edit->setText(values.join(QStringLiteral(", ")));
    }
    for (const auto& [row, b] : switches_)
        b->setChecked(row->toJson(o).get<bool>());
    for (int i = 0; i < passes_->count(); ++i)
        passes_->item(i)->setCheckState(o.harden.skip.count(passes_->item(i)->text().toStdString())
                                            ? Qt::Unchecked
                                            : Qt::Checked);
    compute_->setCurrentIndex(o.compute == DType::F16 ? 1 : 0);
    const QString tol = QString::fromStdString(o.checkTolerance);
    if (tol.startsWith(QStringLiteral("custom:"))) {
        tolerance_->setCurrentText(QStringLiteral("custom"));
        customTolerance_->setText(tol.mid(7));
    } else {
        tolerance_->setCurrentText(tol);
        customTolerance_->clear();
    }
    seed_->setValue(static_cast<int>(o.seed));
    refreshStatus();
}

ExportOptions ExportForm::options() const {
    ExportOptions o = base_;
    o.inputs = inputs_->specs();
    o.dynamicAxes = axes_->axes();
    o.properties = props_->properties();
    o.harden.skip.clear();
    o.target = TargetSpec::parse(target_->currentData().toString().toStdString());
    const int level = compression_->currentData().toInt();
    o.compressionLevel = level < 0 ? std::nullopt : std::optional<int>(level);
    o.naming = static_cast<NamingScheme>(naming_->currentData().toInt());
    for (const auto& [row, edit] : texts_)
        row->fromText(o, flagValues(*row, edit->text()));
    for (const auto& [row, b] : switches_)
        row->fromJson(o, OptionJson(b->isChecked()), std::string(row->jsonKey));
    for (int i = 0; i < passes_->count(); ++i)
        if (passes_->item(i)->checkState() != Qt::Checked)
            o.harden.skip.insert(passes_->item(i)->text().toStdString());
    o.compute = compute_->currentData().toString() == QStringLiteral("f16")
                    ? std::optional<DType>(DType::F16)
                    : std::nullopt;
    o.checkTolerance = tolerance_->currentText() == QStringLiteral("custom")
                           ? "custom:" + customTolerance_->text().trimmed().toStdString()
                           : tolerance_->currentText().toStdString();
    o.seed = static_cast<uint64_t>(seed_->value());
    return o;
}

QStringList ExportForm::errors() const {
    QStringList out;
    for (const QString& e : inputs_->errors())
        out << tr("Inputs: %1").arg(e);
    if (inputs_->rowCount() == 0)
        out << tr("Inputs: add one row per input of the model (its name, a shape like "
                  "1x3x224x224 and a type like f32)");
    for (const QString& e : axes_->errors())
        out << tr("Dynamic axes: %1").arg(e);
    for (const QString& e : props_->errors())
        out << tr("Properties: %1").arg(e);
    for (const auto& [row, edit] : texts_) {
        try {
            ExportOptions probe;
            row->fromText(probe, flagValues(*row, edit->text()));
        } catch (const Error& e) {
            out << tr("%1: %2").arg(qs(row->label), QString::fromStdString(e.message()));
        }
    }
    if (isKhronos()) {
        // The engine refuses these for Khronos too; saying so here keeps
        // the Export button honest.
        if (axes_->rowCount() > 0)
            out << tr("Dynamic axes: Khronos NNEF has no symbolic dimensions; remove them or "
                      "choose a tract target");
        if (props_->rowCount() > 0)
            out << tr("Properties: tract_core_properties is a tract extension; remove them or "
                      "choose a tract target");
        if (box("reifySdpa")->isChecked())
            out << tr("SDPA: tract_transformers_sdpa is a tract operation; uncheck it or choose "
                      "a tract target");
        if (box("f32LinearAccumulation")->isChecked())
            out << tr("Linear accumulation: tract_core_einsum is a tract operation; uncheck it "
                      "or choose a tract target");
        if (compute_->currentData().toString() == QStringLiteral("f16"))
            out << tr("Compute: Khronos NNEF has no f16 type (its readers compute in f32); "
                      "choose the model's own types or a tract target");
    }
    if (tolerance_->currentText() == QStringLiteral("custom") &&
        customTolerance_->text().split(QLatin1Char(',')).size() != 3)
        out << tr("Tolerance: custom needs atol,rtol,outliers");
    return out;
}

bool ExportForm::isKhronos() const {
    return target_->currentData().toString().startsWith(QStringLiteral("khronos"));
}

bool ExportForm::valid() const {
    return errors().isEmpty();
}

void ExportForm::refreshStatus() {
    customTolerance_->setEnabled(tolerance_->currentText() == QStringLiteral("custom"));
    box("checkEveryValue")->setEnabled(box("check")->isChecked());
    box("identityProperties")->setEnabled(!isKhronos());
    const QStringList e = errors();
    status_->setText(e.isEmpty() ? tr("Ready to export.") : e.join(QLatin1Char('\n')));
    if (!filling_ && history_)
        history_->record();
    status_->setStyleSheet(
        e.isEmpty() ? QString()
                    : QStringLiteral("color: %1;").arg(verdictColor(false, palette()).name()));
    Q_EMIT changed();
}

QUndoStack* ExportForm::undoStack() const {
    return history_->stack();
}

namespace {
QVariantList tableRows(const EditableTableModel& model) {
    QVariantList rows;
    for (const QStringList& row : model.rows())
        rows << row;
    return rows;
}

QVector<QStringList> rowsOf(const QVariant& table) {
    QVector<QStringList> rows;
    for (const QVariant& row : table.toList())
        rows << row.toStringList();
    return rows;
}
} // namespace

QVariantMap ExportForm::fields() const {
    QVariantMap f;
    f.insert(tr("inputs"), tableRows(*inputs_));
    f.insert(tr("dynamic axes"), tableRows(*axes_));
    f.insert(tr("properties"), tableRows(*props_));
    f.insert(tr("target"), target_->currentIndex());
    f.insert(tr("naming"), naming_->currentIndex());
    f.insert(tr("archive format"), compression_->currentIndex());
    f.insert(tr("tolerance"), tolerance_->currentIndex());
    f.insert(tr("custom tolerance"), customTolerance_->text());
    f.insert(tr("compute"), compute_->currentIndex());
    f.insert(tr("seed"), seed_->value());
    QStringList skipped;
    for (int i = 0; i < passes_->count(); ++i)
        if (passes_->item(i)->checkState() != Qt::Checked)
            skipped << passes_->item(i)->text();
    f.insert(tr("passes"), skipped);
    for (const auto& [row, b] : switches_)
        f.insert(qs(row->label), b->isChecked());
    for (const auto& [row, edit] : texts_)
        f.insert(qs(row->label), edit->text());
    return f;
}

void ExportForm::setFields(const QVariantMap& f) {
    inputs_->setRows(rowsOf(f.value(tr("inputs"))));
    axes_->setRows(rowsOf(f.value(tr("dynamic axes"))));
    props_->setRows(rowsOf(f.value(tr("properties"))));
    target_->setCurrentIndex(f.value(tr("target")).toInt());
    naming_->setCurrentIndex(f.value(tr("naming")).toInt());
    compression_->setCurrentIndex(f.value(tr("archive format")).toInt());
    tolerance_->setCurrentIndex(f.value(tr("tolerance")).toInt());
    customTolerance_->setText(f.value(tr("custom tolerance")).toString());
    compute_->setCurrentIndex(f.value(tr("compute")).toInt());
    seed_->setValue(f.value(tr("seed")).toInt());
    const QStringList skipped = f.value(tr("passes")).toStringList();
    for (int i = 0; i < passes_->count(); ++i)
        passes_->item(i)->setCheckState(skipped.contains(passes_->item(i)->text()) ? Qt::Unchecked
                                                                                   : Qt::Checked);
    for (const auto& [row, b] : switches_)
        b->setChecked(f.value(qs(row->label)).toBool());
    for (const auto& [row, edit] : texts_)
        edit->setText(f.value(qs(row->label)).toString());
    refreshStatus();
}

} // namespace t2n::ui
