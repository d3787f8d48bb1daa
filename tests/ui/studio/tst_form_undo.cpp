// Undo in the export form: the history as a model without windows (a table
// and a text field), the form's own stack, and Edit > Undo / Redo in the
// window. The acceptance case: undo restores a deleted input row.
#include "session/export_form_models.h"
#include "session/form_history.h"
#include "studio/export_form.h"
#include "studio/main_window.h"
#include "suite_macros.h"

#include "t2n/input_spec.h"

#include <QAction>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

using namespace t2n::ui;

namespace {
std::vector<t2n::InputSpec> twoInputs() {
    return {t2n::InputSpec::parse("image:1x3x32x32:f32"), t2n::InputSpec::parse("mask:1x32:i64")};
}
} // namespace

class FormUndoTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// The history over a bare table model and a string: no widget at all.
    void historyOfATableModel() {
        InputSpecsModel inputs;
        inputs.setSpecs(twoInputs());
        QString note = QStringLiteral("a");
        FormHistory history(
            [&] {
                QVariantList rows;
                for (const QStringList& r : inputs.rows())
                    rows << r;
                return QVariantMap{{QStringLiteral("inputs"), rows},
                                   {QStringLiteral("note"), note}};
            },
            [&](const QVariantMap& f) {
                QVector<QStringList> rows;
                for (const QVariant& r : f.value(QStringLiteral("inputs")).toList())
                    rows << r.toStringList();
                inputs.setRows(rows);
                note = f.value(QStringLiteral("note")).toString();
            });
        history.reset();
        const auto before = inputs.rows();
        inputs.removeRows(0, 1);
        history.record();
        QCOMPARE(history.stack()->undoText(), QStringLiteral("remove a row from inputs"));
        history.stack()->undo();
        QCOMPARE(inputs.rows(), before);
        history.stack()->redo();
        QCOMPARE(inputs.rowCount(), 1);
        QCOMPARE(inputs.cell(0, 0), QStringLiteral("mask"));
        // Typing in one field is one step; nothing changed is none.
        for (const char* typed : {"ab", "abc", "abcd"}) {
            note = QString::fromLatin1(typed);
            history.record();
        }
        history.record();
        QCOMPARE(history.stack()->count(), 2);
        history.stack()->undo();
        QCOMPARE(note, QStringLiteral("a"));
        QCOMPARE(inputs.rowCount(), 1);
    }

    /// The form records the user's edits and forgets what the program filled in.
    void formUndoRestoresADeletedInputRow() {
        ExportForm form;
        form.setInputs(twoInputs());
        QVERIFY(!form.undoStack()->canUndo());
        const auto rows = form.inputsModel()->rows();
        form.inputsModel()->removeRows(0, 1); // the "−" button
        QCOMPARE(form.inputsModel()->rowCount(), 1);
        QVERIFY(form.undoStack()->canUndo());
        form.undoStack()->undo();
        QCOMPARE(form.inputsModel()->rows(), rows);
        QVERIFY(form.valid());
        QCOMPARE(form.options().inputs.size(), size_t(2));
        form.undoStack()->redo();
        QCOMPARE(form.inputsModel()->rowCount(), 1);
        form.setOptions(form.options());
        QVERIFY(!form.undoStack()->canUndo());
    }

    /// Edit > Undo is Ctrl+Z, Redo Ctrl+Shift+Z; undoing shows the form.
    void editMenuUndoes() {
        MainWindow w;
        w.exportForm()->setInputs(twoInputs());
        auto* undo = w.findChild<QAction*>(QStringLiteral("undoAction"));
        auto* redo = w.findChild<QAction*>(QStringLiteral("redoAction"));
        QVERIFY(undo && redo);
        QCOMPARE(undo->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Z));
        QCOMPARE(redo->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
        QVERIFY(!undo->isEnabled());
        w.exportForm()->inputsModel()->removeRows(1, 1);
        QVERIFY(undo->isEnabled());
        QVERIFY(undo->text().contains(QStringLiteral("remove a row from inputs")));
        w.tabs()->setCurrentIndex(MainWindow::ModelTab);
        undo->trigger();
        QCOMPARE(w.exportForm()->inputsModel()->rowCount(), 2);
        QCOMPARE(w.exportForm()->inputsModel()->cell(1, 0), QStringLiteral("mask"));
        QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::ExportTab));
        redo->trigger();
        QCOMPARE(w.exportForm()->inputsModel()->rowCount(), 1);
    }
};

T2N_TEST_SUITE(FormUndoTest)
#include "tst_form_undo.moc"
