// `t2n-studio --screenshot DIR MODEL` as a user runs it: a separate process,
// offscreen, that must write four PNGs, each with real content (many colours
// and the text of its view, not a blank window).
#include "suite_macros.h"
#include "support.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcessEnvironment>
#include <QSet>
#include <QTest>

namespace {
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
        QCOMPARE(pngs.size(), 4);
        for (const QString& name : pngs) {
            QImage img(QString::fromStdString((dir / name.toStdString()).string()));
            QVERIFY2(!img.isNull(), qPrintable(name));
            QVERIFY(img.width() >= 1000 && img.height() >= 600);
            QVERIFY2(
                distinctColours(img) > 60,
                qPrintable(QStringLiteral("%1: %2 colours").arg(name).arg(distinctColours(img))));
        }
        QVERIFY(r.out.contains(QStringLiteral("04-validation-result.png")));
        std::filesystem::remove_all(dir);
    }

    // Issue 12, defect 7: a model that cannot be opened left the tour waiting
    // in a modal dialog forever under the offscreen platform. The failure is
    // now shown in the window, written out as error.png, and the run ends
    // non-zero with the engine's message.
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
        QVERIFY2(r.exitCode != 0, qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("[load]")), qPrintable(r.err));
        QImage img(QString::fromStdString((shots / "error.png").string()));
        QVERIFY2(!img.isNull(), qPrintable(r.out + r.err));
        QVERIFY(distinctColours(img) > 20);
        std::filesystem::remove_all(dir);
    }
};

T2N_TEST_SUITE(ScreenshotsTest)
#include "tst_screenshots.moc"
