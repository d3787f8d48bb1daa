// The studio's item models over a real engine session, without windows:
// the pass list against the engine's own diagnostics, the export form's
// validation against the engine's parsers, and the worker-thread controller
// (open, prepare, export with check, cancel).
#include "session/export_form_models.h"
#include "session/frozen_sizes_model.h"
#include "session/pass_list_model.h"
#include "session/report_models.h"
#include "session/session_controller.h"
#include "studio/export_form.h"
#include "studio/sample_model.h"
#include "suite_macros.h"
#include "support.h"

#include "t2n/option_table.h"
#include "t2n/session.h"

#include <nlohmann/json.hpp>

#include <set>

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

using namespace t2n::ui;
using t2n::test::sampleModel;

namespace {
t2n::ExportOptions sampleOptions() {
    t2n::ExportOptions o;
    o.inputs = {t2n::InputSpec::parse("input:1x3x32x32:f32")};
    return o;
}
} // namespace

class SessionModelsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// One row per pass record plus the input graph; the last row's snapshot
    /// is the engine's hardened text, and hiding no-ops hides exactly the
    /// records whose counts are all zero.
    void passListMatchesEngine() {
        t2n::Session s;
        const auto fixture = t2n::test::fixtureModel(QStringLiteral("scripted_vad_like"));
        if (!std::filesystem::exists(fixture))
            QSKIP("fixture vad_like not generated");
        s.load(fixture);
        const auto options = t2n::test::fixtureOptions(QStringLiteral("scripted_vad_like"));
        s.harden(options);
        const auto& diag = s.report().harden;

        PassListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiagnostics(diag);
        QCOMPARE(model.rowCount(), static_cast<int>(diag.passes.size()) + 1);
        const QModelIndex last = model.index(model.rowCount() - 1, 0);
        QCOMPARE(last.data(PassListModel::GraphTextRole).toString(),
                 QString::fromStdString(s.hardenedText()));
        QCOMPARE(model.index(1, 0).data(PassListModel::BeforeTextRole).toString(),
                 QString::fromStdString(diag.inputGraphText));

        PassFilterModel filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester filterTester(
            &filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setHideNoOp(true);
        int changed = 0;
        for (const auto& rec : diag.passes)
            changed += (!rec.skipped && rec.total() > 0) ? 1 : 0;
        QVERIFY(changed > 0);
        QCOMPARE(filter.rowCount(), changed + 1);
        filter.setHideNoOp(false);
        QCOMPARE(filter.rowCount(), model.rowCount());
    }

    /// "Where a size froze": the engine's columns and cells, one row per
    /// value, and the row's node named by its value (which a click selects).
    void frozenSizesTable() {
        FrozenSizesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0);
        t2n::FrozenSizes table;
        table.exampleSizes = "S=6";
        table.secondSizes = "S=7";
        t2n::FrozenSize f;
        f.value = "11";
        f.node.kind = "prim::ListConstruct";
        f.node.valueName = "12"; // the node's first output is another value
        f.node.modulePath = "shift";
        f.atExample = "[4]";
        f.atSecond = "[5]";
        f.archive = "fixed at the example's [4]";
        f.readBy = "aten::roll (%13)";
        table.values = {f, f};
        table.values[1].value = "10";
        table.values[1].identifier = "shift_sub";
        m.setTable(table);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.columnCount(), static_cast<int>(table.columns().size()));
        QCOMPARE(m.headerData(t2n::FrozenSizes::SecondColumn, Qt::Horizontal).toString(),
                 QStringLiteral("at S=7"));
        QCOMPARE(m.index(0, t2n::FrozenSizes::NodeColumn).data().toString(),
                 QStringLiteral("prim::ListConstruct in shift"));
        QCOMPARE(m.index(0, t2n::FrozenSizes::ArchiveColumn).data().toString(),
                 QStringLiteral("fixed at the example's [4]; read by aten::roll (%13)"));
        QCOMPARE(m.nodeOf(0).valueName, std::string("11"));
        QCOMPARE(m.identifierOf(1), QStringLiteral("shift_sub"));
        m.setTable({});
        QCOMPARE(m.rowCount(), 0);
    }

    /// Shape and dtype errors are the engine parser's; names must be unique.
    void inputSpecsValidate() {
        InputSpecsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setSpecs({t2n::InputSpec::parse("x:1x3x8x8:f32"), t2n::InputSpec::parse("y:4:i64")});
        QVERIFY(m.isValid());
        QCOMPARE(m.specs().at(1).toString(), t2n::InputSpec::parse("y:4:i64").toString());
        QSignalSpy validity(&m, &EditableTableModel::validityChanged);
        m.setData(m.index(0, 1), QStringLiteral("1x3xbad"));
        QVERIFY(!m.errorAt(0, 1).isEmpty());
        QCOMPARE(validity.count(), 1);
        m.setData(m.index(0, 1), QStringLiteral("1x3x8x8"));
        m.setData(m.index(1, 2), QStringLiteral("f7"));
        QVERIFY(!m.errorAt(1, 2).isEmpty());
        m.setData(m.index(1, 2), QStringLiteral("i64"));
        m.setData(m.index(1, 0), QStringLiteral("x"));
        QVERIFY(m.errorAt(1, 0).contains(QStringLiteral("already")));
    }

    /// The values column also takes inline values (one for all elements, or
    /// one per element): the engine's NAME:SHAPE:DTYPE=... spec, its count
    /// errors shown on the cell, and a round trip through setSpecs.
    void inputValuesInline() {
        InputSpecsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setSpecs({t2n::InputSpec::parse("ids:1x4:i64"), t2n::InputSpec::parse("lengths:1:i64")});
        m.setData(m.index(0, 3), QStringLiteral("[3,1,4]"));
        QVERIFY2(m.errorAt(0, 3).contains(QStringLiteral("3 values for shape 1x4")),
                 qPrintable(m.errorAt(0, 3)));
        m.setData(m.index(0, 3), QStringLiteral("[3,1,4,1]"));
        m.setData(m.index(1, 3), QStringLiteral("60"));
        QVERIFY2(m.isValid(), qPrintable(m.errors().join(QLatin1Char('\n'))));
        const auto specs = m.specs();
        QCOMPARE(specs.at(0).values, (std::vector<double>{3, 1, 4, 1}));
        QCOMPARE(specs.at(1).toString(), std::string("lengths:1:i64=60"));
        InputSpecsModel again;
        again.setSpecs(specs);
        QCOMPARE(again.cell(0, 3), QStringLiteral("[3,1,4,1]"));
        QCOMPARE(again.cell(0, 1), QStringLiteral("1x4"));
    }

    /// A number forward() takes besides its tensors (Silero VAD's `sr: int`)
    /// is a typed row: its shape cell reads "scalar (int)", its value is
    /// required (the archive holds it as a constant), and the row is the
    /// engine's NAME:scalar:i64=VALUE spec, which the CLI takes as well.
    void scalarArgumentIsATypedField() {
        InputSpecsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        t2n::InputSpec sr;
        sr.name = "sr";
        sr.dtype = *InputSpecsModel::scalarDType(QStringLiteral("int"));
        m.setScalarArguments({{QStringLiteral("sr"), QStringLiteral("int")}});
        m.setSpecs({t2n::InputSpec::parse("x:1x512:f32"), sr});
        QCOMPARE(m.data(m.index(1, 1)).toString(), QStringLiteral("scalar (int)"));
        QCOMPARE(m.cell(1, 2), QStringLiteral("i64"));
        QVERIFY(!m.isValid());
        QVERIFY2(m.errorAt(1, 3).contains(QStringLiteral("give its value")),
                 qPrintable(m.errorAt(1, 3)));
        m.setData(m.index(1, 3), QStringLiteral("16000"));
        QVERIFY2(m.isValid(), qPrintable(m.errors().join(QLatin1Char('\n'))));
        QCOMPARE(m.specs().at(1).toString(), std::string("sr:scalar:i64=16000"));
        // The same spec as typed on the command line.
        QCOMPARE(m.specs().at(1).toString(),
                 t2n::InputSpec::parse("sr:scalar:i64=16000").toString());
        // The word typed in the shape cell is a scalar too.
        m.setData(m.index(1, 1), QStringLiteral("scalar"));
        QVERIFY2(m.errorAt(1, 1).isEmpty(), qPrintable(m.errorAt(1, 1)));
        QCOMPARE(m.specs().at(1).shape, std::vector<int64_t>{});
        QVERIFY(!InputSpecsModel::scalarDType(QStringLiteral("str")));
        QCOMPARE(*InputSpecsModel::scalarDType(QStringLiteral("float")), t2n::DType::F64);
    }

    /// The values column takes a .npy/.npz/.pt file: a missing file or an
    /// unknown suffix is an error on that cell; a real file makes the row the
    /// engine's "NAME=@file" spec, and preparing with it gives the IR input
    /// the file's shape (not the table's).
    void inputValuesFromFile() {
        const auto dir = t2n::test::freshDir(QStringLiteral("ui-values"));
        const QString npy = QString::fromStdString((dir / "image.npy").string());
        {
            // A .npy written by hand from the format's spec (v1.0 header).
            QByteArray header =
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 24, 24), }";
            while ((10 + header.size() + 1) % 64 != 0)
                header += ' ';
            header += '\n';
            QFile f(npy);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("\x93NUMPY\x01\x00", 8);
            const quint16 len = static_cast<quint16>(header.size());
            f.write(reinterpret_cast<const char*>(&len), 2);
            f.write(header);
            QByteArray data(1 * 3 * 24 * 24 * 4, '\0');
            auto* values = reinterpret_cast<float*>(data.data());
            for (int i = 0; i < 3 * 24 * 24; ++i)
                values[i] = static_cast<float>(i % 17) / 17.0f;
            f.write(data);
        }
        InputSpecsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setSpecs({t2n::InputSpec::parse("input:1x3x32x32:f32")});
        m.setData(m.index(0, 3), QString::fromStdString((dir / "nothere.npy").string()));
        QVERIFY(m.errorAt(0, 3).contains(QStringLiteral("no file")));
        m.setData(m.index(0, 3), QString::fromStdString((dir / "image.txt").string()));
        QVERIFY(!m.errorAt(0, 3).isEmpty());
        m.setData(m.index(0, 3), npy);
        QVERIFY2(m.isValid(), qPrintable(m.errors().join(QLatin1Char('\n'))));
        const auto specs = m.specs();
        QCOMPARE(QString::fromStdString(specs.at(0).valuesFile), npy);
        // Round trip: a spec with a file fills the values column, not the shape.
        InputSpecsModel again;
        again.setSpecs(specs);
        QCOMPARE(again.cell(0, 3), npy);
        QVERIFY(again.cell(0, 1).isEmpty());

        SessionController c;
        QSignalSpy failed(&c, &SessionController::jobFailed);
        c.open(sampleModel());
        QVERIFY(c.waitIdle());
        t2n::ExportOptions o;
        o.inputs = specs;
        c.prepare(o);
        QVERIFY(c.waitIdle());
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? ""
                                  : qPrintable(failed.first().at(1).value<JobError>().rendered));
        const auto& g = c.state()->graph;
        QVERIFY(!g.inputs.empty());
        QCOMPARE(g.value(g.inputs.front()).shape, (std::vector<int64_t>{1, 3, 24, 24}));
        std::filesystem::remove_all(dir);
    }

    /// A dynamic axis must name a known tensor, an axis it has, once, and a
    /// symbol; valid rows read back as the engine's DynamicAxis.
    void dynamicAxesValidate() {
        DynamicAxesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setTensors({{QStringLiteral("x"), 4}, {QStringLiteral("output_0"), 2}});
        m.appendRow({QStringLiteral("x"), QStringLiteral("0"), QStringLiteral("B")});
        QVERIFY(m.isValid());
        m.appendRow({QStringLiteral("z"), QStringLiteral("4"), QStringLiteral("1S")});
        QVERIFY(!m.errorAt(1, 0).isEmpty()); // unknown tensor
        QVERIFY(!m.errorAt(1, 2).isEmpty()); // bad symbol
        m.setData(m.index(1, 0), QStringLiteral("x"));
        QVERIFY(m.errorAt(1, 1).contains(QStringLiteral("4 axes")));
        m.setData(m.index(1, 1), QStringLiteral("-4"));
        QVERIFY(
            m.errorAt(1, 1).contains(QStringLiteral("already"))); // -4 is axis 0 of a rank-4 tensor
        m.setData(m.index(1, 1), QStringLiteral("-1"));
        m.setData(m.index(1, 2), QStringLiteral("S"));
        QVERIFY2(m.isValid(), qPrintable(m.errors().join(QLatin1Char('\n'))));
        const auto axes = m.axes();
        QCOMPARE(axes.size(), size_t(2));
        QCOMPARE(axes[1].axis, -1);
        QCOMPARE(QString::fromStdString(axes[1].symbol), QStringLiteral("S"));
    }

    /// The sizes column: a rule the user writes is validated and read back
    /// into DynamicAxis; an empty cell shows the rule the last export
    /// inferred from the graph (display and tooltip), without becoming one.
    void dynamicAxesRules() {
        DynamicAxesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setTensors({{QStringLiteral("x"), 4}});
        QCOMPARE(m.columnCount(), 4);
        m.setAxes({t2n::DynamicAxis::parse("x:2=H:multiple-of=32,min=64"),
                   t2n::DynamicAxis::parse("x:3=W")});
        QCOMPARE(m.cell(0, DynamicAxesModel::SizesColumn), QStringLiteral("multiple-of=32,min=64"));
        QVERIFY2(m.isValid(), qPrintable(m.errors().join(QLatin1Char('\n'))));
        QCOMPARE(m.axes()[0].multipleOf, int64_t(32));
        QCOMPARE(m.axes()[0].min, int64_t(64));
        QCOMPARE(m.axes()[1].multipleOf, int64_t(0));
        m.setInferredRules(
            {{QStringLiteral("W"),
              {QStringLiteral("multiple-of=32"),
               QStringLiteral("the strides to 1/32 meeting a "
                              "path strided to 1/16 at aten::cat")}},
             {QStringLiteral("H"), {QStringLiteral("multiple-of=8"), QStringLiteral("ignored")}}});
        const QModelIndex w = m.index(1, DynamicAxesModel::SizesColumn);
        QCOMPARE(m.data(w, Qt::DisplayRole).toString(),
                 QStringLiteral("multiple-of=32, from the graph"));
        QVERIFY(m.data(w, Qt::ToolTipRole).toString().contains(QStringLiteral("aten::cat")));
        QVERIFY(m.data(w, Qt::EditRole).toString().isEmpty());
        QCOMPARE(m.axes()[1].multipleOf, int64_t(0)); // shown, not given
        // A written rule is shown as written.
        QCOMPARE(m.data(m.index(0, DynamicAxesModel::SizesColumn), Qt::DisplayRole).toString(),
                 QStringLiteral("multiple-of=32,min=64"));
        m.setData(w, QStringLiteral("multiple-of=zero"));
        QVERIFY(!m.errorAt(1, DynamicAxesModel::SizesColumn).isEmpty());
        m.setData(w, QStringLiteral("max=3"));
        QVERIFY(
            m.errorAt(1, DynamicAxesModel::SizesColumn).contains(QStringLiteral("multiple-of")));
        m.setData(w, QStringLiteral("multiple-of=16"));
        QVERIFY2(m.isValid(), qPrintable(m.errors().join(QLatin1Char('\n'))));
        QCOMPARE(m.axes()[1].multipleOf, int64_t(16));
        QCOMPARE(QString::fromStdString(m.axes()[1].toString()),
                 QStringLiteral("x:3=W:multiple-of=16"));
    }

    /// The graph options of torch_to_nnef's TractNNEF are form fields, both
    /// ways, and --reify-sdpa (a tract operation) is an error for Khronos.
    void formGraphOptions() {
        ExportForm form; // never shown
        auto* sdpa = form.findChild<QCheckBox*>(QStringLiteral("reifySdpa"));
        auto* debox = form.findChild<QCheckBox*>(QStringLiteral("upsampleWithDebox"));
        auto* target = form.findChild<QComboBox*>(QStringLiteral("targetChoice"));
        QVERIFY(sdpa && debox && target);
        t2n::ExportOptions o = sampleOptions();
        form.setOptions(o);
        QVERIFY(!sdpa->isChecked() && !debox->isChecked());
        QVERIFY(!form.options().reifySdpa && !form.options().upsampleWithDebox);
        sdpa->setChecked(true);
        QVERIFY(form.options().reifySdpa && !form.options().upsampleWithDebox);
        debox->setChecked(true);
        QVERIFY(form.options().upsampleWithDebox);
        o.reifySdpa = false;
        o.upsampleWithDebox = true;
        form.setOptions(o);
        QVERIFY(!sdpa->isChecked() && debox->isChecked());
        QVERIFY(form.options() == o);
        // --compute f16 and the three f32 options of f16 graphs.
        auto* compute = form.findChild<QComboBox*>(QStringLiteral("computeChoice"));
        QVERIFY(compute);
        QVERIFY(!form.options().compute);
        o.compute = t2n::DType::F16;
        o.f32Attention = o.f32Norm = true;
        form.setOptions(o);
        QCOMPARE(compute->currentData().toString(), QStringLiteral("f16"));
        QVERIFY(form.findChild<QCheckBox*>(QStringLiteral("f32Attention"))->isChecked());
        QVERIFY(!form.findChild<QCheckBox*>(QStringLiteral("f32LinearAccumulation"))->isChecked());
        form.findChild<QCheckBox*>(QStringLiteral("f32LinearAccumulation"))->setChecked(true);
        QVERIFY(form.options().f32LinearAccumulation && form.options().f32Norm);
        compute->setCurrentIndex(0);
        QVERIFY(!form.options().compute);
        compute->setCurrentIndex(1);
        QVERIFY2(form.valid(), qPrintable(form.errors().join(QLatin1Char('\n'))));
        // For Khronos: debox is a standard operation; SDPA, einsum and f16 are not.
        auto* linear = form.findChild<QCheckBox*>(QStringLiteral("f32LinearAccumulation"));
        compute->setCurrentIndex(0);
        linear->setChecked(false);
        target->setCurrentIndex(target->findData(QStringLiteral("khronos")));
        QVERIFY2(form.valid(), qPrintable(form.errors().join(QLatin1Char('\n'))));
        sdpa->setChecked(true);
        QVERIFY(!form.valid());
        QVERIFY(form.errors().join(QLatin1Char(' ')).contains(QStringLiteral("SDPA")));
        sdpa->setChecked(false);
        compute->setCurrentIndex(1);
        QVERIFY(form.errors().join(QLatin1Char(' ')).contains(QStringLiteral("Compute")));
        compute->setCurrentIndex(0);
        linear->setChecked(true);
        QVERIFY(form.errors().join(QLatin1Char(' ')).contains(QStringLiteral("Linear")));
        linear->setChecked(false);
        QVERIFY(form.valid());
    }

    /// The form's labels and tooltips come from the option table: each row
    /// with a form label shows it exactly once (a label, or a check box's
    /// text) with the row's help as tooltip; each stage with such rows is
    /// one box; and every bool row on the form round-trips through it.
    void formLabelsFromOptionTable() {
        ExportForm form; // never shown
        int labelled = 0;
        std::set<t2n::OptionStage> stages;
        for (const t2n::OptionRow& row : t2n::exportOptionTable()) {
            const QString label = QString::fromUtf8(row.label.data(), qsizetype(row.label.size()));
            const QString help = QString::fromUtf8(row.help.data(), qsizetype(row.help.size()));
            QList<QWidget*> shown;
            for (auto* l : form.findChildren<QLabel*>())
                if (l->text() == label)
                    shown << l;
            for (auto* b : form.findChildren<QCheckBox*>())
                if (b->text() == label)
                    shown << b;
            if (row.label.empty())
                continue;
            ++labelled;
            stages.insert(row.stage);
            QVERIFY2(shown.size() == 1, qPrintable(label));
            QCOMPARE(shown[0]->toolTip(), help);
            if (!row.toJson(t2n::ExportOptions{}).is_boolean())
                continue;
            // A bool row: its check box, named after the field, sets the field.
            auto* b = qobject_cast<QCheckBox*>(shown[0]);
            QVERIFY2(b, qPrintable(label));
            QCOMPARE(b->objectName(),
                     QString::fromUtf8(row.name.data(), qsizetype(row.name.size())));
            t2n::ExportOptions o = sampleOptions();
            form.setOptions(o);
            b->setChecked(!b->isChecked());
            QVERIFY2(row.toJson(form.options()) != row.toJson(o), qPrintable(label));
        }
        QVERIFY(labelled >= 15);
        // The basic rows in one box, the others in one box per stage under Advanced.
        QCOMPARE(size_t(form.findChildren<QGroupBox*>().size()), stages.size() + 1);
        auto* basic = form.findChild<QGroupBox*>(QStringLiteral("basicOptions"));
        QVERIFY(basic);
        for (const char* row :
             {"targetChoice", "dynamicAxesTable", "propertiesTable", "inputsTable", "outputPath"})
            QVERIFY2(basic->findChild<QWidget*>(QString::fromLatin1(row)), row);
        QVERIFY(!form.findChild<QWidget*>(QStringLiteral("advancedOptions"))->isVisibleTo(&form));
        form.setAdvancedShown(true);
        QVERIFY(form.findChild<QWidget*>(QStringLiteral("advancedOptions"))->isVisibleTo(&form));
        // A row with no widget of its own is its flag's text in a line edit.
        auto* names = form.findChild<QLineEdit*>(QStringLiteral("outputNames"));
        QVERIFY(names);
        t2n::ExportOptions o = sampleOptions();
        o.outputNames = {"logits", "extra"};
        form.setOptions(o);
        QCOMPARE(names->text(), QStringLiteral("logits, extra"));
        QVERIFY(form.options() == o);
        names->setText(QStringLiteral(" a ,b,, "));
        QVERIFY(form.options().outputNames == (std::vector<std::string>{"a", "b"}));
    }

    /// Open, prepare and export run on the worker thread; the state carries
    /// the engine's texts and the check's verdict; the GUI thread never waits
    /// on the engine (signals arrive through the event loop).
    void controllerExportsAndChecks() {
        SessionController c;
        QSignalSpy failed(&c, &SessionController::jobFailed);
        QSignalSpy stages(&c, &SessionController::stageStarted);
        c.open(sampleModel());
        QVERIFY(c.waitIdle());
        QCOMPARE(failed.count(), 0);
        QVERIFY(c.state()->torchScriptText.find("aten::") != std::string::npos);

        c.prepare(sampleOptions());
        QVERIFY(c.waitIdle());
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? ""
                                  : qPrintable(failed.first().at(1).value<JobError>().rendered));
        QVERIFY(c.state()->translated);
        QVERIFY(c.state()->nnefText.find("graph ") != std::string::npos);
        QVERIFY(!c.state()->graph.nodes.empty());

        const auto dir = t2n::test::freshDir(QStringLiteral("ui-controller"));
        const QString out = QString::fromStdString((dir / "sample.nnef.tgz").string());
        c.exportModel(out, sampleOptions());
        QVERIFY(c.waitIdle());
        QVERIFY(failed.isEmpty());
        QVERIFY(c.state()->exported);
        QVERIFY(c.state()->report.check.ran);
        QVERIFY(c.state()->report.check.passed);
        QVERIFY(std::filesystem::exists(c.state()->artifactPath.toStdString()));
        QVERIFY(stages.count() >= 5);
        std::filesystem::remove_all(dir);
    }

    /// A cancelled export fails with `cancelled` and writes nothing.
    void controllerCancels() {
        SessionController c;
        c.open(sampleModel());
        QVERIFY(c.waitIdle());
        QSignalSpy failed(&c, &SessionController::jobFailed);
        const auto dir = t2n::test::freshDir(QStringLiteral("ui-cancel"));
        c.exportModel(QString::fromStdString((dir / "s.nnef.tar").string()), sampleOptions());
        c.cancel(); // before the worker picks the job up: the first poll stops it
        QVERIFY(c.waitIdle());
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().at(1).value<JobError>().cancelled);
        QVERIFY(std::filesystem::is_empty(dir));
        std::filesystem::remove_all(dir);
    }

    /// The worst element of each output as a stranger reads it: its index
    /// and values; "every value equal" when nothing differs (the engine
    /// names no index then, shown as "[]" before); a scalar without "[]".
    void worstElementReads() {
        OutputComparisonModel m;
        QAbstractItemModelTester tester(&m);
        t2n::OutputComparison differs, equal, scalar;
        equal.ok = true;
        differs.maxAbsError = 0.5;
        differs.worstIndex = {0, 3};
        differs.expected = 1.5;
        differs.got = 1.0;
        scalar.maxAbsError = 0.25;
        scalar.expected = 2.0;
        scalar.got = 2.25;
        m.setOutputs({differs, equal, scalar});
        auto worst = [&](int row) {
            return m.data(m.index(row, OutputComparisonModel::Worst)).toString();
        };
        QCOMPARE(worst(0), QStringLiteral("[0, 3]: expected 1.5, got 1"));
        QCOMPARE(worst(1), QStringLiteral("every value equal"));
        QCOMPARE(worst(2), QStringLiteral("expected 2, got 2.25"));
    }
};

T2N_TEST_SUITE(SessionModelsTest)
#include "tst_session_models.moc"
