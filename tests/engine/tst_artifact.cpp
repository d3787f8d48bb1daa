// Export path + compression level -> artifact form, final path and note
// (torch_to_nnef "Artifacts and Compression" rules, engine/include/t2n/artifact.h).
#include "suite_macros.h"
#include "t2n/artifact.h"
#include "t2n/error.h"

#include <QTest>

using t2n::ArtifactForm;

namespace {
constexpr int kNoLevel = -1000; // data column value meaning "no compression level"
}

class ArtifactTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resolve_data() {
        QTest::addColumn<QString>("requested");
        QTest::addColumn<int>("level");
        QTest::addColumn<QString>("path"); // expected final path; empty: an error
        QTest::addColumn<int>("form");
        QTest::addColumn<int>("gzipLevel");
        QTest::addColumn<QString>("note"); // substring of the note; empty: no note

        const int folder = int(ArtifactForm::Folder), tar = int(ArtifactForm::Tar),
                  tgz = int(ArtifactForm::Tgz);
        // level None -> folder at BASE
        QTest::newRow("none .nnef") << "m.nnef" << kNoLevel << "m.nnef" << folder << 0 << "";
        QTest::newRow("none .nnef.tar")
            << "m.nnef.tar" << kNoLevel << "m.nnef" << folder << 0 << ".tar suffix was dropped";
        QTest::newRow("none .nnef.tgz")
            << "m.nnef.tgz" << kNoLevel << "m.nnef" << folder << 0 << ".tgz suffix was dropped";
        QTest::newRow("none .nnef.tar.gz") << "m.nnef.tar.gz" << kNoLevel << "m.nnef" << folder << 0
                                           << ".tar.gz suffix was dropped";
        // level 0 -> tar, or tgz level 0 when the request says gzip
        QTest::newRow("0 .nnef") << "m.nnef" << 0 << "m.nnef.tar" << tar << 0
                                 << "compression level 0 writes a .tar";
        QTest::newRow("0 .nnef.tar") << "m.nnef.tar" << 0 << "m.nnef.tar" << tar << 0 << "";
        QTest::newRow("0 .nnef.tgz") << "m.nnef.tgz" << 0 << "m.nnef.tgz" << tgz << 0 << "";
        QTest::newRow("0 .nnef.tar.gz")
            << "m.nnef.tar.gz" << 0 << "m.nnef.tgz" << tgz << 0 << "written as .tgz";
        // level 1..9 -> tgz
        QTest::newRow("1 .nnef") << "m.nnef" << 1 << "m.nnef.tgz" << tgz << 1
                                 << "compression level 1 writes a .tgz";
        QTest::newRow("5 .nnef.tar")
            << "m.nnef.tar" << 5 << "m.nnef.tgz" << tgz << 5
            << "compression level 5 writes a .tgz; the requested .tar suffix was replaced";
        QTest::newRow("9 .nnef.tgz") << "m.nnef.tgz" << 9 << "m.nnef.tgz" << tgz << 9 << "";
        QTest::newRow("9 .nnef.tar.gz")
            << "m.nnef.tar.gz" << 9 << "m.nnef.tgz" << tgz << 9 << "written as .tgz";
        // directories and dotted names are kept
        QTest::newRow("dirs kept")
            << "out/sub/m.nnef.tar" << 3 << "out/sub/m.nnef.tgz" << tgz << 3 << "replaced";
        QTest::newRow("absolute dotted") << "/tmp/x.y/model.v2.nnef" << kNoLevel
                                         << "/tmp/x.y/model.v2.nnef" << folder << 0 << "";
        QTest::newRow("trailing slash")
            << "out/m.nnef/" << kNoLevel << "out/m.nnef" << folder << 0 << "";
        // Issue 26: a trailing '/' names a folder; an archive is a file.
        QTest::newRow("trailing slash on a tgz") << "out/m.nnef.tgz/" << 5 << "" << 0 << 0 << "";
        QTest::newRow("trailing slash on a tar") << "out/m.nnef.tar/" << 0 << "" << 0 << 0 << "";
        QTest::newRow("nnef inside name")
            << "a.nnef.b.nnef.tar" << 0 << "a.nnef.b.nnef.tar" << tar << 0 << "";
        // errors: suffix
        QTest::newRow("no suffix") << "model" << 0 << "" << 0 << 0 << "";
        QTest::newRow("onnx") << "model.onnx" << kNoLevel << "" << 0 << 0 << "";
        QTest::newRow("zip") << "model.zip" << 1 << "" << 0 << 0 << "";
        QTest::newRow("nnef.zip") << "model.nnef.zip" << 1 << "" << 0 << 0 << "";
        QTest::newRow("tar without nnef") << "model.tar" << 0 << "" << 0 << 0 << "";
        QTest::newRow("tgz without nnef") << "model.tgz" << 5 << "" << 0 << 0 << "";
        QTest::newRow("nnef.gz") << "model.nnef.gz" << 5 << "" << 0 << 0 << "";
        QTest::newRow("empty name") << "out/.nnef.tgz" << 5 << "" << 0 << 0 << "";
        QTest::newRow("empty path") << "" << kNoLevel << "" << 0 << 0 << "";
        // errors: level
        QTest::newRow("level 10") << "m.nnef.tgz" << 10 << "" << 0 << 0 << "";
        QTest::newRow("level -1") << "m.nnef.tgz" << -1 << "" << 0 << 0 << "";
    }

    void resolve() {
        QFETCH(QString, requested);
        QFETCH(int, level);
        QFETCH(QString, path);
        QFETCH(int, form);
        QFETCH(int, gzipLevel);
        QFETCH(QString, note);
        const std::optional<int> lvl = level == kNoLevel ? std::nullopt : std::optional(level);

        if (path.isEmpty()) {
            try {
                const auto a = t2n::resolveArtifact(requested.toStdString(), lvl);
                QFAIL(qPrintable("accepted, giving " + QString::fromStdString(a.path.string())));
            } catch (const t2n::Error& e) {
                QCOMPARE(e.stage(), t2n::Stage::Write);
                QCOMPARE(e.code(), t2n::ErrorCode::OutputPath);
                const auto msg = QString::fromStdString(e.message());
                QVERIFY2(msg.contains("'" + requested + "'"), qPrintable(msg));
                QVERIFY2(!e.hint().empty(), "no hint");
                if (level != kNoLevel && (level < 0 || level > 9)) {
                    QVERIFY2(msg.contains(QString::number(level)), qPrintable(msg));
                } else {
                    const auto hint = QString::fromStdString(e.hint());
                    for (const char* s : {".nnef", ".nnef.tar", ".nnef.tgz", ".nnef.tar.gz"})
                        QVERIFY2(hint.contains(s) || msg.contains("nothing before"),
                                 qPrintable(hint));
                }
            }
            return;
        }

        const auto a = t2n::resolveArtifact(requested.toStdString(), lvl);
        QCOMPARE(QString::fromStdString(a.path.string()), path);
        QCOMPARE(int(a.form), form);
        QCOMPARE(a.gzipLevel, gzipLevel);
        if (note.isEmpty()) {
            QVERIFY2(a.note.empty(), a.note.c_str());
        } else {
            QVERIFY2(QString::fromStdString(a.note).contains(note), a.note.c_str());
        }
        // A note exactly when the final path differs from the request.
        const bool differs =
            std::filesystem::path(requested.toStdString()) != a.path && !requested.endsWith('/');
        QCOMPARE(!a.note.empty(), differs);
    }

    void formNames() {
        QCOMPARE(t2n::artifactFormName(ArtifactForm::Folder), std::string_view("folder"));
        QCOMPARE(t2n::artifactFormName(ArtifactForm::Tar), std::string_view("tar"));
        QCOMPARE(t2n::artifactFormName(ArtifactForm::Tgz), std::string_view("tgz"));
    }

    void everyLevelOfTheRange() {
        for (int level = 1; level <= 9; ++level) {
            const auto a = t2n::resolveArtifact("x/m.nnef.tgz", level);
            QCOMPARE(a.form, ArtifactForm::Tgz);
            QCOMPARE(a.gzipLevel, level);
            QCOMPARE(a.path, std::filesystem::path("x/m.nnef.tgz"));
        }
    }
};

T2N_TEST_SUITE(ArtifactTest)
#include "tst_artifact.moc"
