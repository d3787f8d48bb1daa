// The studio's first minute and its one-model-at-a-time rule, offscreen:
// opening a model without inputs fills the form with the engine's proposal
// (the reason under the table, the keyboard on the first shape cell, the
// panes drawn); and after each transition (open, a second model, a failed
// open, a cancelled export, a failed prepare, a re-export) every view shows
// the same session: title, Properties, texts, graphs and Results.
#include "graph/graph_view.h"
#include "session/export_form_models.h"
#include "session/session_controller.h"
#include "studio/export_form.h"
#include "studio/inputs_bar.h"
#include "studio/main_window.h"
#include "studio/results_panel.h"
#include "studio/sample_model.h"
#include "suite_macros.h"
#include "support.h"
#include "text/code_view.h"

#include "t2n/session.h"

#include <QFile>
#include <QFileInfo>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace t2n::ui;
using t2n::test::sampleModel;

namespace {
QString fixturePath(const QString& name) {
    return QString::fromStdString(t2n::test::fixtureModel(name).string());
}

/// The Properties dock's value for `key` ("inputs", "model") when no node is selected.
QString property(const MainWindow& w, const QString& key) {
    auto* t = w.findChild<QTableWidget*>(QStringLiteral("propertiesPanel"));
    for (int r = 0; t && r < t->rowCount(); ++r)
        if (t->item(r, 0) && t->item(r, 0)->text() == key)
            return t->item(r, 1)->text();
    return {};
}

/// The state's inputs as the Properties dock prints them.
QString stateInputs(const MainWindow& w) {
    QStringList out;
    for (const auto& in : w.controller()->state()->options.inputs)
        out << QString::fromStdString(in.toString());
    return out.join(QLatin1Char('\n'));
}

/// Views that must agree with the state: the title names its model, the
/// Properties its inputs, the NNEF pane its text, the IR graph its IR.
void verifyOneSession(const MainWindow& w) {
    const auto& st = *w.controller()->state();
    QVERIFY2(w.windowTitle().startsWith(QFileInfo(st.modelPath).fileName()),
             qPrintable(w.windowTitle()));
    // Properties: the state's summary, or a node of the state's IR (a
    // failure selects its first node).
    if (w.selectedIrNode() < 0) {
        QCOMPARE(property(w, QStringLiteral("model")), st.modelPath);
        if (!st.options.inputs.empty())
            QCOMPARE(property(w, QStringLiteral("inputs")), stateInputs(w));
    } else {
        QVERIFY(w.selectedIrNode() < static_cast<int>(st.graph.nodes.size()));
        QCOMPARE(property(w, QStringLiteral("kind")),
                 QString::fromStdString(st.graph.node(w.selectedIrNode()).kind));
    }
    QCOMPARE(w.nnefView()->toPlainText(), QString::fromStdString(st.nnefText));
    QCOMPARE(w.irGraph()->graph().nodes.isEmpty(), !st.traced);
}

bool idle(MainWindow& w) {
    return w.controller()->waitIdle(300000);
}
} // namespace

class OneSessionTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Opened with no inputs: the engine's proposal fills the form (the
    /// sample's 3 channels at 224x224), the reason is under the table,
    /// the strip above the panes offers Export, the keyboard is on the first
    /// shape cell, and the model is prepared at once (IR and NNEF drawn).
    void openProposesInputs() {
        MainWindow w;
        w.show();
        w.openModel(sampleModel());
        QVERIFY(idle(w));
        const auto& st = *w.controller()->state();
        QVERIFY(st.proposal && st.proposal->confirmed);
        QVERIFY(st.translated);
        QCOMPARE(QString::fromStdString(w.exportForm()->options().inputs.at(0).toString()),
                 QStringLiteral("image:1x3x224x224:f32"));
        QVERIFY2(w.exportForm()->inputsNote().contains(QStringLiteral("3 channel")),
                 qPrintable(w.exportForm()->inputsNote()));
        QVERIFY(w.inputsBar()->isVisible());
        QCOMPARE(w.inputsBar()->kind(), InputsBar::Kind::Information);
        QVERIFY(w.inputsBar()->text().contains(QStringLiteral("image:1x3x224x224:f32")));
        QVERIFY(w.nnefView()->toPlainText().contains(QStringLiteral("graph network")));
        auto* table = w.exportForm()->findChild<QTableView*>(QStringLiteral("inputsTable"));
        QVERIFY(table);
        QCOMPARE(table->currentIndex().row(), 0);
        QCOMPARE(table->currentIndex().column(), 1);
        QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::ModelTab));
        verifyOneSession(w);
    }

    /// A second model replaces the first in every view, Properties included.
    void secondModelReplacesTheFirst() {
        const QString second = QStringLiteral("tv_resnet18");
        if (t2n::test::fixtureInfo(second).isEmpty())
            QSKIP("fixtures not generated");
        MainWindow w;
        w.show();
        w.openModel(sampleModel(), {t2n::InputSpec::parse("image:1x3x32x32:f32")});
        QVERIFY(idle(w));
        verifyOneSession(w);
        w.openModel(fixturePath(second));
        QVERIFY(idle(w));
        QCOMPARE(w.controller()->state()->modelPath, fixturePath(second));
        QVERIFY(w.controller()->state()->translated);
        QVERIFY(!stateInputs(w).contains(QStringLiteral("image:1x3x32x32")));
        verifyOneSession(w);
    }

    /// A file that is not a model: the open one stays, in every view and in
    /// the engine (it still exports); only the strip and status say why.
    void failedOpenKeepsTheOpenModel() {
        MainWindow w;
        w.show();
        w.openModel(sampleModel(), {t2n::InputSpec::parse("image:1x3x32x32:f32")});
        QVERIFY(idle(w));
        const StatePtr before = w.controller()->state();
        const QString verdict = w.results()->verdict();
        const auto dir = t2n::test::freshDir(QStringLiteral("one_session_bad_open"));
        const QString notes = QString::fromStdString((dir / "notes.txt").string());
        QFile f(notes);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a model\n");
        f.close();
        w.openModel(notes);
        QVERIFY(idle(w));
        QCOMPARE(w.controller()->state(), before);
        QCOMPARE(w.results()->verdict(), verdict);
        QVERIFY(w.inputsBar()->isVisible());
        QCOMPARE(w.inputsBar()->kind(), InputsBar::Kind::Error);
        QVERIFY(w.inputsBar()->text().contains(QStringLiteral("sample_cnn.pt is still open")));
        verifyOneSession(w);
        // The engine session is the sample's still: an export works.
        const QString out = QString::fromStdString((dir / "after.nnef.tgz").string());
        w.exportTo(out);
        QVERIFY(idle(w));
        QVERIFY(w.controller()->state()->report.written);
        QVERIFY(QFileInfo::exists(out));
        verifyOneSession(w);
    }

    /// A cancelled export with a new shape leaves the last completed state in
    /// every view: graphs and Properties agree on the old shape.
    void cancelledExportKeepsTheLastState() {
        const QString name = QStringLiteral("tv_resnet18");
        if (t2n::test::fixtureInfo(name).isEmpty())
            QSKIP("fixtures not generated");
        MainWindow w;
        w.show();
        w.openModel(fixturePath(name), {t2n::InputSpec::parse("x:1x3x64x80:f32")});
        QVERIFY(idle(w));
        const StatePtr before = w.controller()->state();
        QVERIFY(before->traced);
        w.exportForm()->setInputs({t2n::InputSpec::parse("x:1x3x96x96:f32")});
        const auto dir = t2n::test::freshDir(QStringLiteral("one_session_cancel"));
        w.exportTo(QString::fromStdString((dir / "new.nnef.tgz").string()));
        w.controller()->cancel(); // before the worker's first poll
        QVERIFY(idle(w));
        QCOMPARE(w.controller()->state(), before);
        QCOMPARE(stateInputs(w), QStringLiteral("x:1x3x64x80:f32"));
        QVERIFY(!std::filesystem::exists(dir / "new.nnef.tgz"));
        verifyOneSession(w);
    }

    /// A prepare that fails at translation shows this job's stages only:
    /// its IR (what the error points into), no NNEF (the pane says why),
    /// with this job's inputs.
    void failedPrepareShowsItsOwnStages() {
        const QString name = QStringLiteral("err_unsupported_ops");
        if (t2n::test::fixtureInfo(name).isEmpty())
            QSKIP("fixtures not generated");
        MainWindow w;
        w.show();
        w.openModel(sampleModel(), {t2n::InputSpec::parse("image:1x3x32x32:f32")});
        QVERIFY(idle(w));
        const t2n::ExportOptions o = t2n::test::fixtureOptions(name);
        w.openModel(fixturePath(name), o.inputs);
        QVERIFY(idle(w));
        const auto& st = *w.controller()->state();
        QVERIFY(st.traced && !st.translated);
        QVERIFY(st.nnefText.empty());
        QCOMPARE(st.options.inputs, o.inputs);
        QVERIFY(!w.nnefView()->placeholderText().isEmpty());
        verifyOneSession(w);
    }

    /// Two exports with different shapes: the second one is what every view shows.
    void reExportFollowsTheNewShape() {
        const QString name = QStringLiteral("tv_resnet18");
        if (t2n::test::fixtureInfo(name).isEmpty())
            QSKIP("fixtures not generated");
        MainWindow w;
        w.show();
        w.openModel(fixturePath(name), {t2n::InputSpec::parse("x:1x3x64x80:f32")});
        QVERIFY(idle(w));
        const auto dir = t2n::test::freshDir(QStringLiteral("one_session_reexport"));
        w.exportTo(QString::fromStdString((dir / "a.nnef.tgz").string()));
        QVERIFY(idle(w));
        w.exportForm()->setInputs({t2n::InputSpec::parse("x:1x3x96x96:f32")});
        w.exportTo(QString::fromStdString((dir / "b.nnef.tgz").string()));
        QVERIFY(idle(w));
        const auto& st = *w.controller()->state();
        QCOMPARE(stateInputs(w), QStringLiteral("x:1x3x96x96:f32"));
        QVERIFY(st.artifactPath.endsWith(QStringLiteral("b.nnef.tgz")));
        QCOMPARE(st.graph.values.at(st.graph.inputs.at(0)).shape,
                 (std::vector<int64_t>{1, 3, 96, 96}));
        verifyOneSession(w);
    }
};

T2N_TEST_SUITE(OneSessionTest)
#include "tst_one_session.moc"
