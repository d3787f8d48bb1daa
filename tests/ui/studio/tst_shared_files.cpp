// Issue 42: a recipe, an HTML report or a debug bundle is a file someone else
// may have written. Opening one in the studio only shows it: it neither
// checks the archive it names at once nor writes a debug bundle where it
// says (the probe's report wrote a 9-file bundle with an executable run.sh,
// and swapped a folder the user had put a file in, without a click).
// Checking that archive is File > Validate an archive…, with the path the
// user picks, and writes no bundle the file asked for.
#include "session/session_controller.h"
#include "studio/export_form.h"
#include "studio/main_window.h"
#include "studio/sample_model.h"
#include "suite_macros.h"
#include "support.h"

#include "t2n/recipe.h"
#include "t2n/session.h"

#include <QApplication>
#include <QDir>
#include <QMimeData>
#include <QTest>
#include <QUrl>

#include <filesystem>
#include <fstream>

using namespace t2n::ui;
namespace fs = std::filesystem;

namespace {
// Hidden entries too: a temporary left behind counts.
QStringList namesIn(const fs::path& dir) {
    return QDir(QString::fromStdString(dir.string()))
        .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

// What a user does with a file manager: drags the file onto the window and
// drops it (Qt delivers a drop only where the drag was accepted).
void drop(MainWindow& w, const fs::path& file) {
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(QString::fromStdString(file.string()))});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QDropEvent event(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &event);
}
} // namespace

class SharedFilesTest : public QObject {
    Q_OBJECT
    fs::path dir_;
    fs::path archive_;

private Q_SLOTS:
    // An archive of the sample whose relu became a sigmoid: its check fails,
    // which is when a debug bundle would be written; a recipe naming it and
    // a bundle path, as a .json and inside an HTML report.
    void initTestCase() {
        dir_ = t2n::test::freshDir(QStringLiteral("ui-shared-files"));
        archive_ = dir_ / "broken.nnef";
        t2n::ExportOptions o;
        o.inputs = t2n::test::sampleInputs();
        o.compressionLevel = std::nullopt; // a folder, so that graph.nnef can be edited
        o.check = false;
        t2n::Session s;
        s.load(t2n::test::sampleModel().toStdString());
        QVERIFY(s.exportModel(archive_, o).written);
        QVERIFY(!t2n::test::swapFirstReluForSigmoid(QString::fromStdString(archive_.string()))
                     .isEmpty());
        t2n::ExportRecipe r;
        r.model = t2n::test::sampleModel().toStdString();
        r.output = archive_;
        r.options = o;
        r.options.check = true;
        r.options.debugBundle = (dir_ / "bundle").string();
        t2n::saveRecipe(dir_ / "shared.json", r);
        std::ofstream(dir_ / "shared.html")
            << "<!DOCTYPE html><p>a report</p><script type=\"application/json\" id=\""
            << t2n::kReportRecipeBlock << "\">" << t2n::toJson(r) << "</script>";
    }

    void openingShowsOnly_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("dropped");
        QTest::newRow("recipe, File > Load export recipe") << "shared.json" << false;
        QTest::newRow("recipe dropped") << "shared.json" << true;
        QTest::newRow("HTML report dropped") << "shared.html" << true;
    }
    void openingShowsOnly() {
        QFETCH(QString, file);
        QFETCH(bool, dropped);
        const auto before = namesIn(dir_);
        MainWindow w;
        w.show(); // drops reach a window that is on screen
        const fs::path path = dir_ / file.toStdString();
        if (dropped)
            drop(w, path);
        else
            w.loadRecipe(QString::fromStdString(path.string()));
        QVERIFY(w.controller()->waitIdle());
        QCOMPARE(w.controller()->state()->modelPath, t2n::test::sampleModel());
        // Nothing checked, nothing written; the bundle path is not in the form.
        QVERIFY(!w.controller()->state()->report.check.ran);
        QVERIFY(w.exportForm()->options().debugBundle.empty());
        QCOMPARE(namesIn(dir_), before);
        // The user's action: the archive is offered, checked once asked for,
        // and its failed check writes no bundle where the file said.
        QCOMPARE(w.offeredCheck(), QString::fromStdString(archive_.string()));
        w.checkArchive(w.offeredCheck());
        QVERIFY(w.controller()->waitIdle());
        const auto& check = w.controller()->state()->report.check;
        QVERIFY(check.ran);
        QVERIFY(!check.passed);
        QVERIFY(check.debugBundle.empty());
        QCOMPARE(namesIn(dir_), before);
    }
};

T2N_TEST_SUITE(SharedFilesTest)
#include "tst_shared_files.moc"
