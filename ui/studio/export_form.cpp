#include "studio/export_form.h"

#include "session/export_form_models.h"

#include "t2n/harden.h"

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
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace t2n::ui {

namespace {
QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
const char* kTolerances[] = {"exact", "close", "approximate", "very", "super", "ultra", "custom"};
} // namespace

ExportForm::ExportForm(QWidget* parent)
    : QWidget(parent), inputs_(new InputSpecsModel(this)), axes_(new DynamicAxesModel(this)),
      props_(new PropertiesModel(this)) {
    auto* layout = new QVBoxLayout(this);

    auto* inputsBox = new QGroupBox(tr("Inputs"), this);
    auto* inputsView = new QTableView(inputsBox);
    inputsView->setObjectName(QStringLiteral("inputsTable"));
    inputsView->setModel(inputs_);
    auto* inputsLayout = new QVBoxLayout(inputsBox);
    inputsLayout->addWidget(tableWithButtons(inputsView, tr("Add an input")));
    auto* valuesRow = new QHBoxLayout;
    auto* valuesButton = new QPushButton(tr("Values from a file…"), inputsBox);
    valuesButton->setObjectName(QStringLiteral("inputValuesButton"));
    valuesButton->setToolTip(tr("Use a .npy, .npz or .pt tensor as the selected input's example "
                                "values (its shape and dtype come from the file)"));
    valuesRow->addWidget(valuesButton);
    valuesRow->addWidget(new QLabel(tr("Empty values: seeded random numbers."), inputsBox), 1);
    inputsLayout->addLayout(valuesRow);
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
    layout->addWidget(inputsBox);

    auto* axesBox = new QGroupBox(tr("Dynamic axes (checked at two sizes on export)"), this);
    auto* axesView = new QTableView(axesBox);
    axesView->setObjectName(QStringLiteral("dynamicAxesTable"));
    axesView->setModel(axes_);
    (new QVBoxLayout(axesBox))->addWidget(tableWithButtons(axesView, tr("Add a dynamic axis")));
    layout->addWidget(axesBox);

    auto* targetBox = new QGroupBox(tr("Target and archive"), this);
    auto* form = new QFormLayout(targetBox);
    target_ = new QComboBox(targetBox);
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
    form->addRow(tr("Target"), target_);
    compression_ = new QComboBox(targetBox);
    compression_->addItem(tr("folder"), -1);
    compression_->addItem(tr(".tar"), 0);
    for (int level = 1; level <= 9; ++level)
        compression_->addItem(tr(".tgz, gzip level %1").arg(level), level);
    form->addRow(tr("Archive"), compression_);
    weightsQ4_0_ = new QCheckBox(
        tr("store Linear, Conv and Embedding weights as Q4_0 (4.5 bits, tract >= 0.21.11)"),
        targetBox);
    weightsQ4_0_->setObjectName(QStringLiteral("weightsQ4_0"));
    form->addRow(tr("Weights"), weightsQ4_0_);
    naming_ = new QComboBox(targetBox);
    for (auto s : {NamingScheme::NaturalVerbose, NamingScheme::NaturalVerboseCamel,
                   NamingScheme::Raw, NamingScheme::Numeric})
        naming_->addItem(qs(namingSchemeName(s)), static_cast<int>(s));
    form->addRow(tr("Naming"), naming_);
    outputNames_ = new QLineEdit(targetBox);
    outputNames_->setPlaceholderText(tr("output_0, output_1, ... (comma separated)"));
    form->addRow(tr("Output names"), outputNames_);
    identity_ =
        new QCheckBox(tr("write os, hostname and user into tract_core_properties"), targetBox);
    form->addRow(tr("Identity"), identity_);
    layout->addWidget(targetBox);

    auto* propsBox = new QGroupBox(tr("tract properties"), this);
    auto* propsView = new QTableView(propsBox);
    propsView->setObjectName(QStringLiteral("propertiesTable"));
    propsView->setModel(props_);
    (new QVBoxLayout(propsBox))->addWidget(tableWithButtons(propsView, tr("Add a property")));
    layout->addWidget(propsBox);

    // torch_to_nnef's TractNNEF graph options (t2n export --reify-sdpa ...).
    auto* graphBox = new QGroupBox(tr("Graph options"), this);
    auto* gform = new QFormLayout(graphBox);
    reifySdpa_ = new QCheckBox(
        tr("attention as one tract_transformers_sdpa (tract 0.22.0 or newer)"), graphBox);
    reifySdpa_->setObjectName(QStringLiteral("reifySdpa"));
    gform->addRow(tr("SDPA"), reifySdpa_);
    upsampleWithDebox_ = new QCheckBox(
        tr("nearest upsampling by whole factors as debox (tract 0.23.0 or newer)"), graphBox);
    upsampleWithDebox_->setObjectName(QStringLiteral("upsampleWithDebox"));
    gform->addRow(tr("Upsampling"), upsampleWithDebox_);
    compute_ = new QComboBox(graphBox);
    compute_->setObjectName(QStringLiteral("computeChoice"));
    compute_->addItem(tr("the model's own types"), QString());
    compute_->addItem(tr("f16 (traced and checked in f32)"), QStringLiteral("f16"));
    gform->addRow(tr("Compute"), compute_);
    f32Attention_ = new QCheckBox(tr("attention in f32 inside f16 graphs"), graphBox);
    f32Attention_->setObjectName(QStringLiteral("f32Attention"));
    f32LinearAccumulation_ = new QCheckBox(
        tr("linear and matmul accumulate in f32 inside f16 graphs (tract 0.21.11 or newer)"),
        graphBox);
    f32LinearAccumulation_->setObjectName(QStringLiteral("f32LinearAccumulation"));
    f32Norm_ = new QCheckBox(tr("norms in f32 inside f16 graphs"), graphBox);
    f32Norm_->setObjectName(QStringLiteral("f32Norm"));
    for (auto* b : {f32Attention_, f32LinearAccumulation_, f32Norm_})
        gform->addRow(QString(), b);
    layout->addWidget(graphBox);

    auto* hardenBox = new QGroupBox(tr("Hardening and check"), this);
    auto* hform = new QFormLayout(hardenBox);
    freeze_ = new QCheckBox(tr("freeze the module first (fallback: inline calls)"), hardenBox);
    hform->addRow(tr("Freeze"), freeze_);
    passes_ = new QListWidget(hardenBox);
    passes_->setObjectName(QStringLiteral("passList"));
    for (const auto& p : harden::passDescriptions()) {
        auto* item = new QListWidgetItem(QString::fromStdString(p.name), passes_);
        item->setToolTip(QString::fromStdString(p.summary));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    passes_->setMaximumHeight(140);
    hform->addRow(tr("Passes"), passes_);
    check_ = new QCheckBox(tr("check the archive against the model"), hardenBox);
    hform->addRow(tr("Check"), check_);
    everyValue_ = new QCheckBox(
        tr("compare every value, each op fed TorchScript's operands (colours the graph by error)"),
        hardenBox);
    everyValue_->setObjectName(QStringLiteral("checkEveryValue"));
    hform->addRow(QString(), everyValue_);
    auto* tolRow = new QHBoxLayout;
    tolerance_ = new QComboBox(hardenBox);
    for (const char* t : kTolerances)
        tolerance_->addItem(QString::fromLatin1(t));
    customTolerance_ = new QLineEdit(hardenBox);
    customTolerance_->setPlaceholderText(tr("atol,rtol,outliers e.g. 1e-4,1e-3,0.001"));
    tolRow->addWidget(tolerance_);
    tolRow->addWidget(customTolerance_, 1);
    hform->addRow(tr("Tolerance"), tolRow);
    seed_ = new QSpinBox(hardenBox);
    seed_->setRange(0, 1 << 30);
    hform->addRow(tr("Random input seed"), seed_);
    layout->addWidget(hardenBox);

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
    for (auto* e : {outputNames_, customTolerance_})
        connect(e, &QLineEdit::textChanged, this, &ExportForm::refreshStatus);
    for (auto* b : {identity_, freeze_, check_, everyValue_, reifySdpa_, upsampleWithDebox_,
                    f32Attention_, f32LinearAccumulation_, f32Norm_, weightsQ4_0_})
        connect(b, &QCheckBox::toggled, this, &ExportForm::refreshStatus);
    connect(passes_, &QListWidget::itemChanged, this, &ExportForm::refreshStatus);
    connect(seed_, &QSpinBox::valueChanged, this, &ExportForm::refreshStatus);
    // In the studio the error overlay is worth one more run of both graphs.
    ExportOptions defaults;
    defaults.checkEveryValue = true;
    setOptions(defaults);
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

void ExportForm::setTensors(const QHash<QString, int>& ranks) {
    axes_->setTensors(ranks);
}

void ExportForm::setOptions(const ExportOptions& o) {
    base_ = o;
    inputs_->setSpecs(o.inputs);
    axes_->setAxes(o.dynamicAxes);
    props_->setProperties(o.properties);
    const int t = target_->findData(QString::fromStdString(o.target.toString(false)));
    target_->setCurrentIndex(t < 0 ? 0 : t);
    compression_->setCurrentIndex(
        compression_->findData(o.compressionLevel ? *o.compressionLevel : -1));
    naming_->setCurrentIndex(naming_->findData(static_cast<int>(o.naming)));
    QStringList names;
    for (const auto& n : o.outputNames)
        names << QString::fromStdString(n);
    outputNames_->setText(names.join(QStringLiteral(", ")));
    identity_->setChecked(o.identityProperties);
    freeze_->setChecked(o.harden.freeze);
    for (int i = 0; i < passes_->count(); ++i)
        passes_->item(i)->setCheckState(o.harden.skip.count(passes_->item(i)->text().toStdString())
                                            ? Qt::Unchecked
                                            : Qt::Checked);
    check_->setChecked(o.check);
    everyValue_->setChecked(o.checkEveryValue);
    weightsQ4_0_->setChecked(o.weightsQ4_0);
    reifySdpa_->setChecked(o.reifySdpa);
    upsampleWithDebox_->setChecked(o.upsampleWithDebox);
    compute_->setCurrentIndex(o.compute == DType::F16 ? 1 : 0);
    f32Attention_->setChecked(o.f32Attention);
    f32LinearAccumulation_->setChecked(o.f32LinearAccumulation);
    f32Norm_->setChecked(o.f32Norm);
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
    o.outputNames.clear();
    o.harden.skip.clear();
    o.target = TargetSpec::parse(target_->currentData().toString().toStdString());
    const int level = compression_->currentData().toInt();
    o.compressionLevel = level < 0 ? std::nullopt : std::optional<int>(level);
    o.naming = static_cast<NamingScheme>(naming_->currentData().toInt());
    for (const QString& n : outputNames_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!n.trimmed().isEmpty())
            o.outputNames.push_back(n.trimmed().toStdString());
    o.identityProperties = identity_->isChecked();
    o.harden.freeze = freeze_->isChecked();
    for (int i = 0; i < passes_->count(); ++i)
        if (passes_->item(i)->checkState() != Qt::Checked)
            o.harden.skip.insert(passes_->item(i)->text().toStdString());
    o.check = check_->isChecked();
    o.checkEveryValue = everyValue_->isChecked();
    o.weightsQ4_0 = weightsQ4_0_->isChecked();
    o.reifySdpa = reifySdpa_->isChecked();
    o.upsampleWithDebox = upsampleWithDebox_->isChecked();
    o.compute = compute_->currentData().toString() == QStringLiteral("f16")
                    ? std::optional<DType>(DType::F16)
                    : std::nullopt;
    o.f32Attention = f32Attention_->isChecked();
    o.f32LinearAccumulation = f32LinearAccumulation_->isChecked();
    o.f32Norm = f32Norm_->isChecked();
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
        out << tr("Inputs: the model needs at least one input spec");
    for (const QString& e : axes_->errors())
        out << tr("Dynamic axes: %1").arg(e);
    for (const QString& e : props_->errors())
        out << tr("Properties: %1").arg(e);
    if (isKhronos()) {
        // The engine refuses these for Khronos too; saying so here keeps
        // the Export button honest.
        if (axes_->rowCount() > 0)
            out << tr("Dynamic axes: Khronos NNEF has no symbolic dimensions; remove them or "
                      "choose a tract target");
        if (props_->rowCount() > 0)
            out << tr("Properties: tract_core_properties is a tract extension; remove them or "
                      "choose a tract target");
        if (reifySdpa_->isChecked())
            out << tr("SDPA: tract_transformers_sdpa is a tract operation; uncheck it or choose "
                      "a tract target");
        if (f32LinearAccumulation_->isChecked())
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
    everyValue_->setEnabled(check_->isChecked());
    identity_->setEnabled(!isKhronos());
    const QStringList e = errors();
    status_->setText(e.isEmpty() ? tr("Ready to export.") : e.join(QLatin1Char('\n')));
    status_->setStyleSheet(e.isEmpty() ? QString() : QStringLiteral("color: #b00020;"));
    Q_EMIT changed();
}

} // namespace t2n::ui
