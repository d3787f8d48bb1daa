// The tract CLI runner: the exact command line per tract version, binary
// resolution (--tract-bin > $T2N_TRACT_BIN > PATH), version parsing, the
// stderr rule, tract's mismatch text, and runs against fake tract scripts
// that record the argv they get.
#include "check/tract_cli.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <fstream>
#include <signal.h>
#include <sys/stat.h>

using namespace t2n::check;
using t2n::target::SemVer;
using t2n::test::readLines;
namespace fs = std::filesystem;

namespace {

/// A fake tract: answers --version, records argv and cwd next to itself,
/// then runs `body`. It sets its own PATH: tests change the real one.
fs::path scriptedTract(const fs::path& dir, const std::string& body,
                       const std::string& version = "tract 0.21.13",
                       const std::string& name = "tract") {
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p) << "#!/bin/sh\n"
                        "PATH=/usr/bin:/bin; export PATH\n"
                        "D=$(dirname \"$0\")\n"
                        "if [ \"$1\" = \"--version\" ]; then echo '"
                     << version
                     << "'; exit 0; fi\n"
                        "printf '%s\\n' \"$@\" > \"$D/argv.txt\"\n"
                        "pwd > \"$D/cwd.txt\"\n"
                     << body << "\n";
    fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
    return p;
}

QString joined(const std::vector<std::string>& v) {
    QStringList out;
    for (const auto& s : v)
        out << QString::fromStdString(s);
    return out.join(' ');
}

QStringList toList(const std::vector<std::string>& v) {
    QStringList out;
    for (const auto& s : v)
        out << QString::fromStdString(s);
    return out;
}

/// The options of an archive that draws (tract_onnx_random): its output
/// "noisy" is left out of the io bundle.
TractCheckOptions drawingArchive(const fs::path& tract) {
    TractCheckOptions o;
    o.tractBin = tract;
    o.archive = "model.nnef.tgz";
    o.ioBundle = "io.npz";
    o.usesOnnx = true;
    o.missingOutputs = {"noisy"};
    return o;
}

const char* kMismatchStderr =
    "Error: Checking output 0\n\nCaused by:\n"
    "    Mismatch. First outlier: Approximate for F32) at [0, 3] 0.0274 != 0.0277. Outliers: "
    "69 / 786432 = 0.00009 > 0.00000.\n";

} // namespace

class TractCliTest : public QObject {
    Q_OBJECT

    QByteArray savedPath_, savedBin_;
    bool hadBin_ = false;

    void setPath(const fs::path& dir) { qputenv("PATH", QByteArray::fromStdString(dir.string())); }

private Q_SLOTS:
    void init() {
        savedPath_ = qgetenv("PATH");
        hadBin_ = qEnvironmentVariableIsSet(kTractBinEnv);
        savedBin_ = qgetenv(kTractBinEnv);
        qunsetenv(kTractBinEnv);
    }
    void cleanup() {
        qputenv("PATH", savedPath_);
        if (hadBin_)
            qputenv(kTractBinEnv, savedBin_);
        else
            qunsetenv(kTractBinEnv);
    }

    void commandLine_data() {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("tolerance");
        QTest::addColumn<bool>("resource");
        QTest::addColumn<QString>("args");
        QTest::addColumn<int>("warnings");
        const QString oldRun =
            "-O --input-bundle io.npz run --assert-output-bundle io.npz --allow-float-casts";
        const QString run =
            "-O run --input-from-bundle io.npz --assert-output-bundle io.npz --allow-float-casts";
        const QString base = "m.nnef.tgz --nnef-tract-core --nnef-tract-pulse";
        QTest::newRow("0.17.3") << "0.17.3"
                                << "approximate" << false << base + " " + oldRun << 1;
        QTest::newRow("0.18.0 close") << "0.18.0"
                                      << "close" << false << base + " " + run << 0;
        QTest::newRow("0.20.19") << "0.20.19"
                                 << "approximate" << false << base + " " + run << 1;
        QTest::newRow("0.20.22") << "0.20.22"
                                 << "approximate" << false << base + " --nnef-tract-extra " + run
                                 << 1;
        QTest::newRow("0.21.6") << "0.21.6"
                                << "approximate" << false << base + " --nnef-tract-extra " + run
                                << 1;
        QTest::newRow("0.21.7 approximate")
            << "0.21.7"
            << "approximate" << false
            << base + " --nnef-tract-extra " + run + " --approx approximate" << 0;
        QTest::newRow("0.21.7 very")
            << "0.21.7"
            << "very" << false << base + " --nnef-tract-extra " + run + " --approx super" << 1;
        QTest::newRow("0.21.7 ultra")
            << "0.21.7"
            << "ultra" << false << base + " --nnef-tract-extra " + run + " --approx super" << 1;
        QTest::newRow("0.21.7 custom")
            << "0.21.7"
            << "custom:0.01,0.01,0" << false
            << base + " --nnef-tract-extra " + run + " --approx super" << 1;
        QTest::newRow("0.21.8 very")
            << "0.21.8"
            << "very" << false << base + " --nnef-tract-extra " + run + " --approx very" << 0;
        QTest::newRow("0.21.9 custom")
            << "0.21.9"
            << "custom:1e-3,1e-3,0" << false
            << base + " --nnef-tract-extra " + run + " --approx very" << 1;
        QTest::newRow("0.21.10 custom")
            << "0.21.10"
            << "custom:1e-3,1e-3,0" << false
            << base + " --nnef-tract-extra " + run + " --approx-custom 0.001,0.001,0" << 0;
        // --nnef-tract-transformers came with the registry, in 0.21.13.
        QTest::newRow("0.21.12") << "0.21.12"
                                 << "approximate" << false
                                 << base + " --nnef-tract-extra " + run + " --approx approximate"
                                 << 0;
        QTest::newRow("0.21.13") << "0.21.13"
                                 << "approximate" << false
                                 << base + " --nnef-tract-extra --nnef-tract-transformers " + run +
                                        " --approx approximate"
                                 << 0;
        QTest::newRow("0.21.13 allclose")
            << "0.21.13"
            << "allclose" << false
            << base + " --nnef-tract-extra --nnef-tract-transformers " + run +
                   " --approx-custom 1e-08,1e-05,0"
            << 1;
        QTest::newRow("0.22.0") << "0.22.0"
                                << "approximate" << false
                                << base + " --nnef-tract-extra --nnef-tract-transformers " + run +
                                       " --approx approximate"
                                << 0;
        QTest::newRow("0.23.5 ultra resource")
            << "0.23.5"
            << "ultra" << true
            << base + " --nnef-tract-extra --nnef-tract-transformers --nnef-tract-resource " + run +
                   " --approx ultra"
            << 0;
        QTest::newRow("0.23.6-pre")
            << "0.23.6-pre"
            << "super" << false
            << base + " --nnef-tract-extra --nnef-tract-transformers " + run + " --approx super"
            << 0;
    }
    void commandLine() {
        QFETCH(QString, version);
        QFETCH(QString, tolerance);
        QFETCH(bool, resource);
        QFETCH(QString, args);
        QFETCH(int, warnings);
        TractCommandOptions o;
        o.version = SemVer::parse(version.toStdString());
        o.tolerance = Tolerance::parse(tolerance.toStdString());
        o.usesResource = resource;
        o.archive = "m.nnef.tgz";
        o.ioBundle = "io.npz";
        const TractCommand cmd = buildTractCommand(o);
        QCOMPARE(joined(cmd.args), args);
        QCOMPARE(int(cmd.warnings.size()), warnings);
    }

    // Issue 26: an archive that draws random values loads the tract_onnx
    // registry; outputs that depend on a draw are left out of the io bundle
    // (--allow-missing-outputs, from 0.21.8) and tract saves its outputs
    // for t2n to compare by distribution. Older tracts cannot leave an output
    // out: the command says so in a warning, runTractCheck skips.
    void commandLineWithRandomOutputs() {
        TractCommandOptions o;
        o.version = SemVer::parse("0.21.8");
        o.tolerance = Tolerance::parse("approximate");
        o.usesOnnx = true;
        o.archive = "m.nnef.tgz";
        o.ioBundle = "io.npz";
        o.missingOutputs = {"noisy"};
        o.saveOutputs = "/w/tract_outputs.npz";
        TractCommand cmd = buildTractCommand(o);
        QCOMPARE(joined(cmd.args),
                 QString("m.nnef.tgz --nnef-tract-core --nnef-tract-pulse --nnef-tract-extra "
                         "--nnef-tract-onnx -O run --input-from-bundle io.npz "
                         "--assert-output-bundle io.npz --allow-float-casts --approx approximate "
                         "--allow-missing-outputs --save-outputs /w/tract_outputs.npz"));
        QVERIFY(cmd.warnings.empty());
        o.version = SemVer::parse("0.21.7");
        cmd = buildTractCommand(o);
        QVERIFY(!joined(cmd.args).contains("--allow-missing-outputs"));
        QCOMPARE(cmd.warnings.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(cmd.warnings[0]).contains("0.21.8"),
                 cmd.warnings[0].c_str());
        QVERIFY(cannotLeaveOutputsOut(SemVer::parse("0.21.8"), {"noisy"}).empty());
        QVERIFY(cannotLeaveOutputsOut(SemVer::parse("0.19.0"), {}).empty());
    }

    void runnerWithRandomOutputs() {
        const fs::path dir = t2n::test::freshDir("tract_cli_random");
        const fs::path tract = scriptedTract(
            dir / "bin",
            "echo '[t WARN  tract] Missing reference output in bundle for noisy or noisy' >&2\n"
            "exit 0");
        TractCheckOptions o = drawingArchive(tract);
        o.saveOutputs = dir / "saved.npz";
        TractCheckResult r = runTractCheck(o);
        QCOMPARE(QString::fromStdString(r.summary), QString("tract: passed"));
        const QStringList argv = readLines(dir / "bin" / "argv.txt");
        QVERIFY(argv.contains("--nnef-tract-onnx") && argv.contains("--allow-missing-outputs"));
        QCOMPARE(
            argv.mid(argv.indexOf("--save-outputs"), 2),
            (QStringList{"--save-outputs", QString::fromStdString((dir / "saved.npz").string())}));
        // The same warning about an output t2n did not leave out fails.
        o.missingOutputs = {"other"};
        r = runTractCheck(o);
        QCOMPARE(int(r.status), int(TractStatus::Failed));
        // A tract before 0.21.8 is skipped, saying why.
        const fs::path old = scriptedTract(dir / "old", "exit 0", "tract 0.21.7");
        o.tractBin = old;
        r = runTractCheck(o);
        QCOMPARE(int(r.status), int(TractStatus::Skipped));
        QVERIFY2(QString::fromStdString(r.summary).contains("depends on a random draw") &&
                     QString::fromStdString(r.summary).contains("0.21.8"),
                 r.summary.c_str());
        QVERIFY(!fs::exists(dir / "old" / "argv.txt")); // tract was not run
    }

    void versionParsing_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("version"); // empty: none
        QTest::newRow("plain") << "tract 0.21.13\n"
                               << "0.21.13";
        QTest::newRow("v prefix") << "tract v0.22.0"
                                  << "0.22.0";
        QTest::newRow("bare pre") << "0.23.6-pre"
                                  << "0.23.6";
        QTest::newRow("pre") << "tract 0.23.6-pre\n"
                             << "0.23.6";
        QTest::newRow("two parts") << "tract 1.0"
                                   << "1.0.0";
        QTest::newRow("other name") << "tract-cli 0.19.2"
                                    << "0.19.2";
        QTest::newRow("garbage") << "Usage: tract [OPTIONS]"
                                 << "";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("no digits") << "tract vX.Y"
                                   << "";
    }
    void versionParsing() {
        QFETCH(QString, text);
        QFETCH(QString, version);
        const auto v = parseTractVersion(text.toStdString());
        QCOMPARE(v ? QString::fromStdString(v->str()) : QString(), version);
    }

    void binaryResolutionOrder() {
        const fs::path root = t2n::test::freshDir("tract_cli_resolution");
        const fs::path onPath = scriptedTract(root / "path", "exit 0");
        const fs::path inEnv = scriptedTract(root / "env", "exit 0");
        const fs::path given = scriptedTract(root / "given", "exit 0", "tract 0.21.13", "my-tract");
        // A non-executable 'tract' earlier on the PATH is passed over.
        fs::create_directories(root / "noexec");
        std::ofstream(root / "noexec" / "tract") << "#!/bin/sh\n";
        fs::permissions(root / "noexec" / "tract", fs::perms::owner_read);
        qputenv("PATH", QByteArray::fromStdString((root / "noexec").string() + ":" +
                                                  (root / "path").string()));
        qputenv(kTractBinEnv, QByteArray::fromStdString(inEnv.string()));

        TractBinary b = findTract(given);
        QCOMPARE(b.path, given);
        QCOMPARE(QString::fromStdString(b.source), QString("--tract-bin"));
        b = findTract();
        QCOMPARE(b.path, inEnv);
        QCOMPARE(QString::fromStdString(b.source), QString(kTractBinEnv));
        qunsetenv(kTractBinEnv);
        b = findTract();
        QCOMPARE(b.path, onPath);
        QCOMPARE(QString::fromStdString(b.source), QString("PATH"));
        // A bare name given to --tract-bin is looked up in the PATH.
        QCOMPARE(findTract("tract").path, onPath);
        setPath(root / "noexec");
        QVERIFY(!findTract().found());

        // Naming something that is not there is a usage error, not a skip.
        for (bool viaEnv : {false, true}) {
            try {
                if (viaEnv) {
                    qputenv(kTractBinEnv, QByteArray::fromStdString((root / "nope").string()));
                    findTract();
                } else {
                    findTract(root / "nope");
                }
                QFAIL("no error");
            } catch (const t2n::Error& e) {
                QCOMPARE(int(e.code()), int(t2n::ErrorCode::Usage));
                QVERIFY(QString::fromStdString(e.message()).contains("nope"));
            }
        }
    }

    void stderrRule_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("unexpected");
        QTest::newRow("unknown extension")
            << "[2024-01-01T00:00:00Z WARN  tract_nnef] Ignore unknown extension foo" << false;
        QTest::newRow("pulse symbol")
            << "[... WARN tract_nnef] tract_pulse_streaming_symbol is deprecated" << false;
        QTest::newRow("flattening") << "[... WARN tract_core] Reshape: Flattening the shape will "
                                       "be deprecated. Use ..."
                                    << false;
        QTest::newRow("blank") << "   " << false;
        QTest::newRow("pulse without WARN") << "tract_pulse_streaming_symbol is deprecated" << true;
        QTest::newRow("ERROR") << "[...] ERROR tract: Checking output 1" << true;
        QTest::newRow("ERROR in a benign line") << "ERROR Ignore unknown extension" << true;
        QTest::newRow("backtrace") << "note: run with `RUST_BACKTRACE=1`" << true;
        QTest::newRow("other") << "[...] INFO tract: something" << true;
        QTest::newRow("missing output not left out")
            << "[t WARN  tract] Missing reference output in bundle for y or y" << true;
    }
    void stderrRule() {
        QFETCH(QString, line);
        QFETCH(bool, unexpected);
        const auto lines = unexpectedStderrLines(line.toStdString() + "\n");
        QCOMPARE(!lines.empty(), unexpected);
        if (unexpected)
            QCOMPARE(QString::fromStdString(lines.front()), line.trimmed());
    }

    void mismatchText() {
        auto m = parseTractMismatch(kMismatchStderr);
        QVERIFY(m);
        QCOMPARE(m->outputIndex, 0);
        QCOMPARE(QString::fromStdString(m->level), QString("Approximate"));
        QCOMPARE(QString::fromStdString(m->dtype), QString("F32"));
        QCOMPARE(m->index, (std::vector<int64_t>{0, 3}));
        QCOMPARE(QString::fromStdString(m->expected), QString("0.0274"));
        QCOMPARE(QString::fromStdString(m->got), QString("0.0277"));
        QCOMPARE(m->outliers, int64_t(69));
        QCOMPARE(m->total, int64_t(786432));
        // The shorter form quoted by torch_to_nnef's PR #197.
        m = parseTractMismatch("Mismatch. First outlier (Approximate F32) ~0.0274 != ~0.0277. "
                               "Outliers: ~69000 / 786432");
        QVERIFY(m);
        QCOMPARE(QString::fromStdString(m->level), QString("Approximate"));
        QCOMPARE(QString::fromStdString(m->dtype), QString("F32"));
        QCOMPARE(QString::fromStdString(m->got), QString("~0.0277"));
        QCOMPARE(m->outliers, int64_t(69000));
        QCOMPARE(m->outputIndex, -1);
        QVERIFY(!parseTractMismatch("all good\n"));
    }

    void runProcessBasics() {
        const fs::path dir = t2n::test::freshDir("tract_cli_process");
        const fs::path script = scriptedTract(dir, "echo out; echo err >&2; exit 3");
        auto p = runProcess(script, {"a b", "c"}, std::chrono::seconds(20), dir / "..");
        QVERIFY(p.started);
        QCOMPARE(p.exitCode, 3);
        QCOMPARE(QString::fromStdString(p.out), QString("out\n"));
        QCOMPARE(QString::fromStdString(p.err), QString("err\n"));
        QCOMPARE(readLines(dir / "argv.txt"), (QStringList{"a b", "c"})); // no shell splitting
        QCOMPARE(readLines(dir / "cwd.txt"),
                 QStringList{QString::fromStdString(fs::canonical(dir / "..").string())});
        const fs::path killer = scriptedTract(dir / "k", "kill -TERM $$");
        p = runProcess(killer, {"x"}, std::chrono::seconds(20));
        QCOMPARE(p.signal, SIGTERM);
        QCOMPARE(p.exitCode, -1);
        p = runProcess(dir / "missing", {}, std::chrono::seconds(5));
        QVERIFY(!p.started);
        QVERIFY(QString::fromStdString(p.startError).contains("missing"));
    }

    // End to end against fake tracts: the verdict and the argv tract received.
    void runner_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("summary");
        QTest::newRow("silent pass") << "exit 0" << int(TractStatus::Passed) << "tract: passed";
        QTest::newRow("benign warnings")
            << "echo '[t WARN  tract_nnef] Ignore unknown extension tract_x' >&2\n"
               "echo '[t WARN  tract_nnef] tract_pulse_streaming_symbol is deprecated' >&2\n"
               "echo '[t WARN  tract_core] Reshape: Flattening the shape will be deprecated.' "
               ">&2\necho stdout is not judged\nexit 0"
            << int(TractStatus::Passed) << "tract: passed";
        QTest::newRow("ERROR with status 0")
            << "echo '[t ERROR tract] Checking output 1' >&2\nexit 0" << int(TractStatus::Failed)
            << "tract: failed (exit status 0 but 1 unexpected stderr line: [t ERROR tract] "
               "Checking output 1)";
        QTest::newRow("other stderr with status 0")
            << "echo 'something odd' >&2\nexit 0" << int(TractStatus::Failed)
            << "tract: failed (exit status 0 but 1 unexpected stderr line: something odd)";
        QTest::newRow("exit 1 silent")
            << "exit 1" << int(TractStatus::Failed) << "tract: failed (exit status 1)";
        QTest::newRow("exit 1 mismatch")
            << QString("printf '%s' '%1' >&2\nexit 1").arg(kMismatchStderr)
            << int(TractStatus::Failed)
            << "tract: failed (exit status 1: output 0: 69 / 786432 outliers at Approximate, "
               "first at [0, 3]: 0.0274 != 0.0277)";
    }
    void runner() {
        QFETCH(QString, body);
        QFETCH(int, status);
        QFETCH(QString, summary);
        const fs::path dir = t2n::test::freshDir("tract_cli_runner");
        const fs::path tract = scriptedTract(dir / "bin", body.toStdString());
        TractCheckOptions o;
        o.tractBin = tract;
        o.archive = "model.nnef.tgz";
        o.ioBundle = "io.npz";
        o.workDir = dir;
        const TractCheckResult r = runTractCheck(o);
        QCOMPARE(QString::fromStdString(r.summary), summary);
        QCOMPARE(int(r.status), status);
        QCOMPARE(QString::fromStdString(r.version), QString("0.21.13"));
        const QStringList expectedArgs{"model.nnef.tgz",
                                       "--nnef-tract-core",
                                       "--nnef-tract-pulse",
                                       "--nnef-tract-extra",
                                       "--nnef-tract-transformers", // from 0.21.13
                                       "-O",
                                       "run",
                                       "--input-from-bundle",
                                       "io.npz",
                                       "--assert-output-bundle",
                                       "io.npz",
                                       "--allow-float-casts",
                                       "--approx",
                                       "approximate"};
        QCOMPARE(readLines(dir / "bin" / "argv.txt"), expectedArgs);
        QCOMPARE(toList(r.command),
                 QStringList{QString::fromStdString(tract.string())} + expectedArgs);
        QCOMPARE(readLines(dir / "bin" / "cwd.txt"),
                 QStringList{QString::fromStdString(fs::canonical(dir).string())});
        const auto json = QJsonDocument::fromJson(QByteArray::fromStdString(r.toJson())).object();
        QCOMPARE(json.value("summary").toString(), summary);
        QCOMPARE(json.value("command").toArray().size(), expectedArgs.size() + 1);
        QCOMPARE(json.value("tract").toObject().value("version").toString(), QString("0.21.13"));
    }

    // tract picks a format from the file name (cli/src/params.rs): an export
    // is checked under its temporary name, which tract read as TensorFlow.
    void archiveUnderATemporaryNameReachesTractUnderItsKind_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("seen");
        QTest::newRow("tgz") << ".m.nnef.tgz.t2n-tmp-12-0" << QByteArray("\x1f\x8b\x08rest", 7)
                             << "m.nnef.tgz";
        QTest::newRow("tar") << ".m.nnef.tar.t2n-tmp-12-0" << QByteArray("graph.nnef\0\0", 12)
                             << "m.nnef.tar";
        QTest::newRow("tgz named .tar")
            << "m.tar" << QByteArray("\x1f\x8b\x08", 3) << "m.tar.nnef.tgz";
    }
    void archiveUnderATemporaryNameReachesTractUnderItsKind() {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, seen);
        const fs::path dir = t2n::test::freshDir("tract_cli_named");
        const fs::path archive = dir / name.toStdString();
        std::ofstream(archive, std::ios::binary).write(bytes.data(), bytes.size());
        const fs::path tract =
            scriptedTract(dir / "bin", "readlink -f \"$1\" > \"$D/target.txt\"\nbasename \"$1\" > "
                                       "\"$D/name.txt\"\nexit 0");
        TractCheckOptions o;
        o.tractBin = tract;
        o.archive = archive;
        o.ioBundle = "io.npz";
        const TractCheckResult r = runTractCheck(o);
        QCOMPARE(QString::fromStdString(r.summary), QString("tract: passed"));
        QCOMPARE(readLines(dir / "bin" / "name.txt"), QStringList{seen});
        QCOMPARE(readLines(dir / "bin" / "target.txt"),
                 QStringList{QString::fromStdString(fs::canonical(archive).string())});
        // The link's folder is gone once tract has run.
        const fs::path link = readLines(dir / "bin" / "argv.txt").value(0).toStdString();
        QVERIFY(!fs::exists(link.parent_path()));
    }

    void archiveWithATractNameIsPassedAsGiven() {
        const fs::path dir = t2n::test::freshDir("tract_cli_asgiven");
        const fs::path archive = dir / "m.nnef.tgz";
        std::ofstream(archive, std::ios::binary) << "\x1f\x8b";
        fs::create_directories(dir / "folder.nnef");
        const fs::path tract = scriptedTract(dir / "bin", "exit 0");
        TractCheckOptions o;
        o.tractBin = tract;
        o.ioBundle = "io.npz";
        for (const fs::path& given : {archive, dir / "folder.nnef"}) {
            o.archive = given;
            QCOMPARE(QString::fromStdString(runTractCheck(o).summary), QString("tract: passed"));
            QCOMPARE(readLines(dir / "bin" / "argv.txt").value(0),
                     QString::fromStdString(given.string()));
        }
    }

    // A failure without a mismatch line ends with tract's own last words.
    void failureSummaryCarriesTractsLastLines() {
        const fs::path dir = t2n::test::freshDir("tract_cli_words");
        const fs::path tract = scriptedTract(
            dir / "bin", "printf '%s\\n' '[2026 ERROR tract] Error: Loading model' '' 'Caused by:' "
                         "'    0: Resolving invocation Identifier(\"deconv\")' "
                         "\"    1: Deserializing op \\`deconv'\" "
                         "'    2: Convolution input and kernel channels must match.' >&2\nexit 1");
        TractCheckOptions o;
        o.tractBin = tract;
        o.archive = "m.nnef.tgz";
        o.ioBundle = "io.npz";
        const TractCheckResult r = runTractCheck(o);
        QCOMPARE(int(r.status), int(TractStatus::Failed));
        QCOMPARE(QString::fromStdString(r.summary),
                 QString("tract: failed (exit status 1): 0: Resolving invocation "
                         "Identifier(\"deconv\") / 1: Deserializing op `deconv' / 2: "
                         "Convolution input and kernel channels must match."));
    }

    // A panic (tract 0.23.5 folding a concat of empty slices) is said in its
    // own words, not as the last frames of its backtrace.
    void panicSummaryCarriesThePanic() {
        const fs::path dir = t2n::test::freshDir("tract_cli_panic");
        const fs::path tract = scriptedTract(
            dir / "bin",
            "printf '%s\n' \"thread 'main' (2881) panicked at data/src/tensor.rs:355:33:\" "
            "'attempt to divide by zero' 'stack backtrace:' '   0: rust_begin_unwind' "
            "'   3: tract_data::tensor::Tensor::stack_tensors' '  16: tract::main' "
            "'note: Some details are omitted, run with RUST_BACKTRACE=full.' >&2\nexit 101");
        TractCheckOptions o;
        o.tractBin = tract;
        o.archive = "m.nnef.tgz";
        o.ioBundle = "io.npz";
        const TractCheckResult r = runTractCheck(o);
        QCOMPARE(int(r.status), int(TractStatus::Failed));
        QCOMPARE(QString::fromStdString(r.summary),
                 QString("tract: failed (exit status 101): thread 'main' (2881) panicked at "
                         "data/src/tensor.rs:355:33: / attempt to divide by zero"));
    }

    // A tract built without its onnx feature panics on --nnef-tract-onnx: it
    // cannot judge an archive that draws, which is said, not failed.
    void tractWithoutOnnxIsSkippedForDraws() {
        const fs::path dir = t2n::test::freshDir("tract_cli_no_onnx");
        const fs::path tract =
            scriptedTract(dir / "bin",
                          "printf '%s\n' \"thread 'main' (644) panicked at src/main.rs:216:13:\" "
                          "'tract is build without ONNX support' >&2\nexit 101",
                          "tract 0.23.5");
        TractCheckOptions o = drawingArchive(tract);
        TractCheckResult r = runTractCheck(o);
        QCOMPARE(int(r.status), int(TractStatus::Skipped));
        QVERIFY2(QString::fromStdString(r.summary).contains("built without ONNX support"),
                 r.summary.c_str());
        // Without tract_onnx in the archive the same words are a failure.
        o.usesOnnx = false;
        r = runTractCheck(o);
        QCOMPARE(int(r.status), int(TractStatus::Failed));
    }

    void runnerVersionOverrideAndFromPath() {
        const fs::path dir = t2n::test::freshDir("tract_cli_override");
        scriptedTract(dir, "exit 0", "tract 0.17.3");
        setPath(dir);
        TractCheckOptions o;
        o.archive = "a.tgz";
        o.ioBundle = "io.npz";
        TractCheckResult r = runTractCheck(o);
        QCOMPARE(QString::fromStdString(r.tractSource), QString("PATH"));
        QCOMPARE(QString::fromStdString(r.version), QString("0.17.3"));
        QCOMPARE(readLines(dir / "argv.txt").mid(3, 3),
                 (QStringList{"-O", "--input-bundle", "io.npz"}));
        QCOMPARE(r.warnings.size(), std::size_t(1)); // no --approx before 0.21.7
        o.version = SemVer::parse("0.22.0");         // no --version call
        r = runTractCheck(o);
        QVERIFY(readLines(dir / "argv.txt").contains("--nnef-tract-transformers"));
    }

    void runnerTimesOut() {
        const fs::path dir = t2n::test::freshDir("tract_cli_hang");
        const fs::path tract = scriptedTract(dir, "sleep 30 &\necho $! > \"$D/sleep.pid\"\nwait");
        TractCheckOptions o;
        o.tractBin = tract;
        o.archive = "m.tgz";
        o.ioBundle = "io.npz";
        o.timeout = std::chrono::milliseconds(700);
        const TractCheckResult r = runTractCheck(o);
        QCOMPARE(int(r.status), int(TractStatus::Failed));
        QVERIFY(r.process.timedOut);
        QCOMPARE(QString::fromStdString(r.summary),
                 QString("tract: failed (timed out after 0.7 s; tract was killed)"));
        QVERIFY2(r.process.seconds < 5, "the deadline was not kept");
        // The whole process group went: the background sleep is gone (or a zombie).
        const QStringList pid = readLines(dir / "sleep.pid");
        QCOMPARE(pid.size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QFile stat("/proc/" + pid[0] + "/stat");
                return !stat.open(QIODevice::ReadOnly) ||
                       QString::fromUtf8(stat.readAll()).section(") ", 1, 1).startsWith('Z');
            }(),
            5000);
    }

    void notFoundIsSkipped() {
        const fs::path dir = t2n::test::freshDir("tract_cli_none");
        setPath(dir);
        TractCheckOptions o;
        o.archive = "m.tgz";
        o.ioBundle = "io.npz";
        const TractCheckResult r = runTractCheck(o);
        QCOMPARE(int(r.status), int(TractStatus::Skipped));
        QCOMPARE(QString::fromStdString(r.summary), QString("tract: skipped (not found)"));
        QVERIFY(!r.failed());
        QVERIFY(QString::fromStdString(r.hint).contains(kTractBinEnv));
        const auto json = QJsonDocument::fromJson(QByteArray::fromStdString(r.toJson())).object();
        QCOMPARE(json.value("status").toString(), QString("skipped"));
    }

    void unreadableVersionFails() {
        const fs::path dir = t2n::test::freshDir("tract_cli_badversion");
        const fs::path tract = scriptedTract(dir, "exit 0", "no version here");
        TractCheckOptions o;
        o.tractBin = tract;
        const TractCheckResult r = runTractCheck(o);
        QCOMPARE(int(r.status), int(TractStatus::Failed));
        QVERIFY(QString::fromStdString(r.summary).contains("cannot read the version"));
        QVERIFY(!fs::exists(dir / "argv.txt")); // the check itself never ran
    }
};

T2N_TEST_SUITE(TractCliTest)
#include "tst_tract_cli.moc"
