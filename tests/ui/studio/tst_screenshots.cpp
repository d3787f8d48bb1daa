// `t2n-studio --screenshot DIR MODEL` as a user runs it: a separate process,
// offscreen, that must write four PNGs, each with real content (many colours
// and the text of its view, not a blank window). Failed exports too: the
// command a failed `t2n export` or `t2n check` prints opens the same export,
// whose screenshots show the failed nodes outlined red, and whose exit status
// says it failed. And the studio's command line is t2n export's.
#include "suite_macros.h"
#include "support.h"

#include "t2n/recipe.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {
QString studio() {
    return QStringLiteral(T2N_STUDIO_BINARY);
}
QString t2nCli() {
    return QStringLiteral(T2N_CLI_BINARY);
}

/// The studio command a failed t2n run printed last, as arguments.
QStringList studioCommandOf(const t2n::test::ProcessResult& r) {
    const QString prefix = QStringLiteral("t2n: to open this export in the studio: t2n-studio ");
    const QString last = r.err.trimmed().split(QLatin1Char('\n')).last();
    if (!last.startsWith(prefix))
        return {};
    return {last.mid(prefix.size())}; // test paths need no shell quoting
}

/// Pixels of the "failed" outline red (#d00020) in the image.
int failedRedPixels(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += img.pixel(x, y) == qRgb(0xd0, 0x00, 0x20);
    return n;
}

/// Distinct colours in a coarse sample of the image: a blank or one-colour
/// window has a handful, a window with text, tables and graphs hundreds.
int distinctColours(const QImage& img) {
    QSet<QRgb> seen;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3)
            seen.insert(img.pixel(x, y));
    return static_cast<int>(seen.size());
}
} // namespace

class ScreenshotsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tourWritesFourViews() {
        const auto dir = t2n::test::freshDir(QStringLiteral("ui-screenshots"));
        const QString model =
            QString::fromStdString(t2n::test::fixtureModel(QStringLiteral("tv_resnet18")).string());
        QStringList args{QStringLiteral("--screenshot"), QString::fromStdString(dir.string()),
                         model};
        for (const QString& in : t2n::test::fixtureInputArgs(QStringLiteral("tv_resnet18")))
            args << in;
        const auto r = t2n::test::run(QStringLiteral(T2N_STUDIO_BINARY), args, 600000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList pngs = QDir(QString::fromStdString(dir.string()))
                                     .entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
        QCOMPARE(pngs.size(), 10); // the scrubber, a modified node, dark palette, 1024x700
        for (const QString& name : pngs) {
            QImage img(QString::fromStdString((dir / name.toStdString()).string()));
            QVERIFY2(!img.isNull(), qPrintable(name));
            QVERIFY(img.width() >= 1000 && img.height() >= 600);
            QVERIFY2(
                distinctColours(img) > 60,
                qPrintable(QStringLiteral("%1: %2 colours").arg(name).arg(distinctColours(img))));
        }
        QVERIFY(r.out.contains(QStringLiteral("04-validation-result.png")));
        // The whole window fits 1024x700 (no minimum size larger than that).
        QCOMPARE(QImage(QString::fromStdString((dir / "10-1024x700.png").string())).size(),
                 QSize(1024, 700));
        // The dark model view is dark: its canvases follow the palette.
        const QImage dark(QString::fromStdString((dir / "07-dark-palette-model.png").string()));
        int darkPixels = 0;
        for (int y = 0; y < dark.height(); y += 4)
            for (int x = 0; x < dark.width(); x += 4)
                darkPixels += QColor(dark.pixel(x, y)).lightness() < 80;
        QVERIFY2(darkPixels > dark.width() * dark.height() / 16 * 7 / 10,
                 qPrintable(QString::number(darkPixels)));
        // No failure: nothing outlined as failed.
        QCOMPARE(failedRedPixels(
                     QImage(QString::fromStdString((dir / "01-model-side-by-side.png").string()))),
                 0);
        std::filesystem::remove_all(dir);
    }

    /// t2n refuses a model with two unsupported operators and names the studio
    /// command; that command writes the four views, the model view with the
    /// refused nodes outlined red, and exits 4 like t2n.
    void refusedExportOpensInTheStudio() {
        const QString name = QStringLiteral("err_unsupported_ops");
        const auto dir = t2n::test::freshDir(QStringLiteral("ui-refused"));
        const QString out = QString::fromStdString((dir / "refused.nnef.tgz").string());
        QStringList args{QStringLiteral("export"),
                         QString::fromStdString(t2n::test::fixtureModel(name).string()),
                         QStringLiteral("-o"), out};
        args << t2n::test::fixtureInputArgs(name);
        const auto cli = t2n::test::run(t2nCli(), args);
        QCOMPARE(cli.exitCode, 4);
        const QStringList open = studioCommandOf(cli);
        QVERIFY2(!open.isEmpty(), qPrintable(cli.err));
        // The recipe waits in t2n's state folder, not beside the target.
        QCOMPARE(
            QString::fromStdString(t2n::loadRecipe(open.first().toStdString()).output.string()),
            out);
        QVERIFY(!std::filesystem::exists(dir / "refused.nnef.tgz.recipe.json"));

        const QString shots = QString::fromStdString((dir / "shots").string());
        const auto r =
            t2n::test::run(studio(), QStringList{QStringLiteral("--screenshot"), shots} + open);
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains(QStringLiteral("aten::erfinv")), qPrintable(r.err));
        const QImage model(shots + QStringLiteral("/01-model-side-by-side.png"));
        QVERIFY(!model.isNull());
        QVERIFY2(failedRedPixels(model) > 100, qPrintable(QString::number(failedRedPixels(model))));
        const QImage result(shots + QStringLiteral("/04-validation-result.png"));
        QVERIFY(!result.isNull() && distinctColours(result) > 20);
        QVERIFY(!std::filesystem::exists(dir / "refused.nnef.tgz"));
        std::filesystem::remove_all(dir);
    }

    /// An archive whose relu became a sigmoid fails `t2n check`, which writes
    /// a debug bundle and names the studio command that opens it; the studio
    /// checks the bundled archive again, outlines the diverging op, exits 1.
    void failedCheckOpensInTheStudio() {
        const auto dir = t2n::test::freshDir(QStringLiteral("ui-failed-check"));
        const QString model = QString::fromStdString(
            (t2n::test::sourceDir() / "resources/sample/sample_cnn.pt").string());
        const QString out = QString::fromStdString((dir / "broken.nnef").string());
        const QStringList io{QStringLiteral("--input"), QStringLiteral("image:1x3x32x32:f32")};
        auto exported = t2n::test::run(
            t2nCli(), QStringList{QStringLiteral("export"), model, QStringLiteral("-o"), out,
                                  QStringLiteral("--compression"), QStringLiteral("none")} +
                          io);
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        QVERIFY(!t2n::test::swapFirstReluForSigmoid(out).isEmpty());

        const QString bundle = QString::fromStdString((dir / "bundle").string());
        const auto check = t2n::test::run(
            t2nCli(), QStringList{QStringLiteral("check"), out, QStringLiteral("--model"), model,
                                  QStringLiteral("--debug-bundle"), bundle} +
                          io);
        QCOMPARE(check.exitCode, 1);
        // The bundle holds the archive and its recipe: the studio opens it.
        const QStringList open = studioCommandOf(check);
        QCOMPARE(open, QStringList{bundle});
        QVERIFY(std::filesystem::exists(dir / "bundle" / "recipe.json"));

        const QString shots = QString::fromStdString((dir / "shots").string());
        const auto r =
            t2n::test::run(studio(), QStringList{QStringLiteral("--screenshot"), shots} + open);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("Not valid")), qPrintable(r.err));
        const QImage shot(shots + QStringLiteral("/01-model-side-by-side.png"));
        QVERIFY2(failedRedPixels(shot) > 50, qPrintable(QString::number(failedRedPixels(shot))));
        std::filesystem::remove_all(dir);
    }

    /// The studio's command line is t2n export's: its help lists every flag of
    /// `t2n export --help`, and the same flags make the same recipe.
    void studioTakesEveryExportFlag() {
        const auto exportHelp =
            t2n::test::run(t2nCli(), {QStringLiteral("export"), QStringLiteral("--help")});
        const auto studioHelp = t2n::test::run(studio(), {QStringLiteral("--help")});
        QCOMPARE(studioHelp.exitCode, 0);
        static const QRegularExpression flag(QStringLiteral("--[a-z][a-z0-9-]+"));
        int flags = 0;
        for (auto it = flag.globalMatch(exportHelp.out); it.hasNext(); ++flags) {
            const QString f = it.next().captured();
            QVERIFY2(studioHelp.out.contains(f), qPrintable(f));
        }
        QVERIFY(flags > 20);

        const auto dir = t2n::test::freshDir(QStringLiteral("ui-studio-flags"));
        const QString model = QString::fromStdString(
            (t2n::test::sourceDir() / "resources/sample/sample_cnn.pt").string());
        const QString out = QString::fromStdString((dir / "s.nnef.tar").string());
        const QStringList flagsGiven{model,
                                     QStringLiteral("--input"),
                                     QStringLiteral("image:1x3x32x32:f32"),
                                     QStringLiteral("--dynamic-axis"),
                                     QStringLiteral("image:0=B"),
                                     QStringLiteral("--property"),
                                     QStringLiteral("team=vision"),
                                     QStringLiteral("--naming"),
                                     QStringLiteral("numeric"),
                                     QStringLiteral("--output-name"),
                                     QStringLiteral("probabilities"),
                                     QStringLiteral("--tolerance"),
                                     QStringLiteral("very"),
                                     QStringLiteral("--seed"),
                                     QStringLiteral("3"),
                                     QStringLiteral("--no-identity-properties"),
                                     QStringLiteral("-o"),
                                     out};
        const QString fromCli = QString::fromStdString((dir / "cli.json").string());
        const QString fromStudio = QString::fromStdString((dir / "studio.json").string());
        const auto cli =
            t2n::test::run(t2nCli(), QStringList{QStringLiteral("export")} + flagsGiven +
                                         QStringList{QStringLiteral("--save-recipe"), fromCli});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        const auto r = t2n::test::run(
            studio(), flagsGiven + QStringList{QStringLiteral("--save-recipe"), fromStudio,
                                               QStringLiteral("--screenshot"),
                                               QString::fromStdString((dir / "shots").string())});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(t2n::loadRecipe(fromStudio.toStdString()) ==
                t2n::loadRecipe(fromCli.toStdString()));
        std::filesystem::remove_all(dir);
    }

    // Issue 12, defect 7: a model that cannot be opened left the tour waiting
    // in a modal dialog forever under the offscreen platform. The failure is
    // now shown in the window, written out with the other views, and the run
    // ends with t2n's exit code and the engine's message.
    void tourOnABadModelEndsNonZero_data() {
        QTest::addColumn<QString>("kind");
        QTest::newRow("missing") << QStringLiteral("missing");
        QTest::newRow("random bytes") << QStringLiteral("random");
        QTest::newRow("truncated") << QStringLiteral("truncated");
    }
    void tourOnABadModelEndsNonZero() {
        QFETCH(QString, kind);
        const auto dir = t2n::test::freshDir(QStringLiteral("ui-screenshots-bad"));
        const auto model = dir / "model.pt";
        const auto sample = t2n::test::sourceDir() / "resources" / "sample" / "sample_cnn.pt";
        if (kind == QStringLiteral("random")) {
            QFile f(QString::fromStdString(model.string()));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, '\x5a'));
        } else if (kind == QStringLiteral("truncated")) {
            QFile in(QString::fromStdString(sample.string()));
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QByteArray bytes = in.readAll();
            QFile f(QString::fromStdString(model.string()));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes.left(bytes.size() / 2));
        }
        const auto shots = dir / "shots";
        const auto r =
            t2n::test::run(QStringLiteral(T2N_STUDIO_BINARY),
                           {QStringLiteral("--screenshot"), QString::fromStdString(shots.string()),
                            QString::fromStdString(model.string()), QStringLiteral("--input"),
                            QStringLiteral("image:1x3x32x32:f32")},
                           120000);
        QVERIFY2(!r.timedOut, "the studio hung");
        QVERIFY2(r.exitCode == 3, qPrintable(r.out + r.err)); // t2n's code for a bad model file
        QVERIFY2(r.err.contains(QStringLiteral("[load]")), qPrintable(r.err));
        QImage img(QString::fromStdString((shots / "04-validation-result.png").string()));
        QVERIFY2(!img.isNull(), qPrintable(r.out + r.err));
        QVERIFY(distinctColours(img) > 20);
        std::filesystem::remove_all(dir);
    }
};

T2N_TEST_SUITE(ScreenshotsTest)
#include "tst_screenshots.moc"
