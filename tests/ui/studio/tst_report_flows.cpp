// The studio's side of issue 28 on a real failure: a dynamic axis that the
// translation cannot follow. The Results tab lists where the size froze
// (the rows are the engine's table), a click on a row selects that value's
// node in every view, File > Save report writes the one-file HTML report of
// that run, and opening the report gives back the run's recipe.
#include "session/frozen_sizes_model.h"
#include "session/html_report_source.h"
#include "session/session_controller.h"
#include "studio/export_form.h"
#include "studio/frozen_sizes_view.h"
#include "studio/main_window.h"
#include "studio/results_panel.h"
#include "suite_macros.h"
#include "support.h"

#include "t2n/recipe.h"

#include <QFile>
#include <QJsonArray>
#include <QTableView>
#include <QTest>

using namespace t2n::ui;

namespace {

const QString kFixture = QStringLiteral("err_dynamic_frozen_shift");

bool openFailing(MainWindow& w) {
    const t2n::ExportOptions options = t2n::test::fixtureOptions(kFixture);
    w.exportForm()->setOptions(options);
    w.openModel(QString::fromStdString(t2n::test::fixtureModel(kFixture).string()), options.inputs);
    return w.controller()->waitIdle();
}

} // namespace

class ReportFlowsTest : public QObject {
    Q_OBJECT
    std::filesystem::path work_;

private Q_SLOTS:
    void initTestCase() {
        if (t2n::test::fixtureInfo(kFixture).isEmpty())
            QSKIP("fixture err_dynamic_frozen_shift not generated: run fixtures.generate");
        work_ = t2n::test::freshDir("report_flows");
    }

    void frozenTableSelectsTheNode() {
        MainWindow w;
        QVERIFY(openFailing(w));
        const auto state = w.controller()->state();
        QVERIFY(state->traced && !state->translated);
        const t2n::FrozenSizes& table = state->report.frozenSizes;
        QVERIFY(!table.empty());
        FrozenSizesView* view = w.results()->frozenSizes();
        QVERIFY(!view->isHidden());
        QCOMPARE(view->model()->rowCount(), static_cast<int>(table.values.size()));
        // The roll's shift: the row the fixture describes.
        const QJsonObject want = t2n::test::fixtureInfo(kFixture).value("expect_frozen").toObject();
        int row = -1;
        for (int i = 0; i < view->model()->rowCount(); ++i)
            if (view->model()->index(i, t2n::FrozenSizes::SecondColumn).data().toString() ==
                want.value("at_second").toString())
                row = i;
        QVERIFY(row >= 0);
        const QModelIndex cell = view->model()->index(row, 0);
        QTest::mouseClick(view->table()->viewport(), Qt::LeftButton, {},
                          view->table()->visualRect(cell).center());
        // Selected everywhere: the IR node computing that value, in the
        // roll's module; the row gives the roll's source line (from the
        // fixture), where the list it reads is written.
        const int selected = w.selectedIrNode();
        QVERIFY(selected >= 0);
        const t2n::ir::Node& node = state->graph.node(selected);
        const QJsonObject roll =
            t2n::test::fixtureInfo(kFixture).value("expect_unsupported").toArray().at(0).toObject();
        QCOMPARE(QString::fromStdString(node.where.modulePath),
                 roll.value("module_path").toString());
        QCOMPARE(table.values[row].node.sourceLine, roll.value("source_line").toInt());
        bool computesIt = false;
        for (t2n::ir::ValueId out : node.outputs)
            computesIt = computesIt || state->graph.value(out).debugName == table.values[row].value;
        QVERIFY2(computesIt, table.values[row].value.c_str());
    }

    void saveReportAndReopenIt() {
        MainWindow w;
        QVERIFY(openFailing(w));
        HtmlReportSource source(w.controller());
        // The failure came before `source` existed: render what the state holds.
        const QString path = QString::fromStdString((work_ / "studio.html").string());
        source.save(path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(f.readAll());
        QVERIFY(html.contains("id=\"frozen-table\""));
        QVERIFY(html.contains("<td>qt</td>")); // the studio adds its Qt to the versions
        QVERIFY(html.contains("<svg"));
        // Reopened in another window: the same model and dynamic axis.
        MainWindow again;
        again.loadRecipe(path);
        QVERIFY(again.controller()->waitIdle());
        QCOMPARE(again.controller()->state()->modelPath,
                 QString::fromStdString(t2n::test::fixtureModel(kFixture).string()));
        const auto axes = again.exportForm()->options().dynamicAxes;
        QCOMPARE(axes.size(), size_t(1));
        QCOMPARE(QString::fromStdString(axes[0].symbol), QStringLiteral("S"));
    }

    // A failure after the source exists is in its report too.
    void reportCarriesTheFailure() {
        MainWindow w;
        HtmlReportSource source(w.controller());
        QVERIFY(openFailing(w));
        const QString html = QString::fromStdString(source.render());
        QVERIFY(html.contains("id=\"failure\""));
        QVERIFY(html.contains("aten::roll"));
        QVERIFY(html.contains("class=\"verdict failed\""));
    }

    // The studio's help says where a failed run's recipe is, and that a
    // report opens like a recipe.
    void helpSaysWhatOpens() {
        auto r = t2n::test::run(QStringLiteral(T2N_STUDIO_BINARY), {QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.out.contains("beside its target"), qPrintable(r.out));
        QVERIFY2(r.out.contains("state folder"), qPrintable(r.out));
        QVERIFY2(r.out.contains("--report-html"), qPrintable(r.out));
    }
};

T2N_TEST_SUITE(ReportFlowsTest)
#include "tst_report_flows.moc"
