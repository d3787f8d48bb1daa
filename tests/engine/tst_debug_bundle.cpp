// Debug bundles: folder and .tgz forms, their contents, run.sh (executable,
// replays the same argv as the runner, with the default or a given tract),
// reproducible .tgz bytes, replacing a bundle, and no partial bundle on failure.
#include "check/debug_bundle.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/check_manifest.h"
#include "t2n/error.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <fstream>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace t2n::check;
using t2n::test::readLines;
using t2n::test::writeFile;
namespace fs = std::filesystem;

namespace {

/// A file's bytes for QCOMPARE; a missing file reads as "<missing>", unlike
/// any content a test expects (empty included).
QByteArray contentsOrMissing(const fs::path& p) {
    QFile f(QString::fromStdString(p.string()));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

/// A fake tract that records its argv and working directory in `record`.
fs::path argvRecordingTract(const fs::path& dir, const fs::path& record) {
    fs::create_directories(dir);
    const fs::path p = dir / "tract";
    std::ofstream(p) << "#!/bin/sh\n"
                        "if [ \"$1\" = \"--version\" ]; then echo 'tract 0.21.13'; exit 0; fi\n"
                        "printf '%s\\n' \"$@\" > '"
                     << record.string() << "'\npwd >> '" << record.string() << "'\n";
    fs::permissions(p, fs::perms::owner_all);
    return p;
}

std::string binary(std::size_t n) {
    std::string s(n, '\0');
    for (std::size_t i = 0; i < n; ++i)
        s[i] = static_cast<char>((i * 131 + 7) & 0xFF);
    return s;
}

struct TgzEntry {
    QByteArray data;
    int mode = 0;
    bool dir = false;
    int64_t mtime = -1, uid = -1;
};

/// Entries of a .tgz, read with libarchive.
std::map<std::string, TgzEntry> readTgz(const fs::path& p) {
    std::map<std::string, TgzEntry> out;
    struct archive* a = archive_read_new();
    archive_read_support_filter_gzip(a);
    archive_read_support_format_tar(a);
    if (archive_read_open_filename(a, p.c_str(), 65536) != ARCHIVE_OK) {
        archive_read_free(a);
        return out;
    }
    archive_entry* e = nullptr;
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
        TgzEntry entry;
        entry.mode = archive_entry_perm(e);
        entry.dir = archive_entry_filetype(e) == AE_IFDIR;
        entry.mtime = archive_entry_mtime(e);
        entry.uid = archive_entry_uid(e);
        char buf[8192];
        la_ssize_t n;
        while ((n = archive_read_data(a, buf, sizeof buf)) > 0)
            entry.data.append(buf, n);
        out[archive_entry_pathname(e)] = entry;
    }
    archive_read_free(a);
    return out;
}

} // namespace

class DebugBundleTest : public QObject {
    Q_OBJECT

    fs::path root_;
    DebugBundle bundle_;
    std::string model_ = binary(5000);

    std::vector<std::string> expectedArgs(const std::string& model = "./model.nnef.tgz") const {
        return {model,
                "--nnef-tract-core",
                "--nnef-tract-pulse",
                "--nnef-tract-extra",
                "--nnef-tract-transformers",
                "-O",
                "run",
                "--input-from-bundle",
                "./io.npz",
                "--assert-output-bundle",
                "./io.npz",
                "--allow-float-casts",
                "--approx",
                "very"};
    }
    static QStringList list(const std::vector<std::string>& v) {
        QStringList out;
        for (const auto& s : v)
            out << QString::fromStdString(s);
        return out;
    }

    template <typename F> void expectFailure(F&& f, const char* what) {
        try {
            f();
            QFAIL(what);
        } catch (const t2n::Error& e) {
            QCOMPARE(int(e.code()), int(t2n::ErrorCode::OutputPath));
            QCOMPARE(int(e.stage()), int(t2n::Stage::Check));
        }
    }

private Q_SLOTS:
    void init() {
        root_ = t2n::test::freshDir("debug_bundle");
        writeFile(root_ / "in" / "m.nnef.tgz", model_);
        writeFile(root_ / "in" / "io.npz", "PK-not-really-a-zip");
        bundle_ = DebugBundle{};
        bundle_.modelArchive = root_ / "in" / "m.nnef.tgz";
        bundle_.ioNpz = root_ / "in" / "io.npz";
        bundle_.tract.version = t2n::target::SemVer::parse("0.21.13");
        bundle_.tract.tolerance = Tolerance::parse("very");
        // Characters the shell would otherwise interpret, in the default tract path.
        bundle_.tractProgram =
            argvRecordingTract(root_ / "odd {dir} $x \"q\" 'a'", root_ / "default.txt").string();
        bundle_.reportJson = R"({"ok": false})";
        bundle_.hardenedGraph = "graph(%x : Tensor):\n  return (%x)\n";
    }

    void folderContents() {
        bundle_.divergenceJson = R"({"first": "conv1"})";
        bundle_.recipeJson = R"({"t2n_recipe": 1, "output": "model.nnef.tgz"})";
        bundle_.manifestJson = R"({"t2n_check_manifest": 1})";
        const fs::path dest = root_ / "out" / "bundle";
        fs::create_directories(dest.parent_path());
        writeDebugBundle(dest, bundle_);
        QCOMPARE(contentsOrMissing(dest / "model.nnef.tgz"), QByteArray::fromStdString(model_));
        QCOMPARE(contentsOrMissing(dest / "io.npz"), QByteArray("PK-not-really-a-zip"));
        QCOMPARE(contentsOrMissing(dest / "report.json"), QByteArray(R"({"ok": false})"));
        QCOMPARE(contentsOrMissing(dest / "hardened_graph.txt"),
                 QByteArray::fromStdString(bundle_.hardenedGraph));
        QCOMPARE(contentsOrMissing(dest / "divergence.json"), QByteArray(R"({"first": "conv1"})"));
        QCOMPARE(contentsOrMissing(dest / "recipe.json"),
                 QByteArray(R"({"t2n_recipe": 1, "output": "model.nnef.tgz"})"));
        QCOMPARE(contentsOrMissing(dest / "model.nnef.tgz.manifest.json"),
                 QByteArray(R"({"t2n_check_manifest": 1})"));
        QCOMPARE(contentsOrMissing(dest / "run.sh"), QByteArray::fromStdString(runScript(bundle_)));
        struct stat st {};
        QCOMPARE(::stat((dest / "run.sh").c_str(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0755);
        QCOMPARE(::stat((dest / "report.json").c_str(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0644);
        const QString readme = QString::fromUtf8(contentsOrMissing(dest / "README.txt"));
        for (const char* name :
             {"run.sh", "model.nnef.tgz", "io.npz", "report.json", "hardened_graph.txt",
              "divergence.json", "recipe.json", "t2n-studio", "./run.sh /path/to/tract",
              "model.nnef.tgz.manifest.json"})
            QVERIFY2(readme.contains(name), name);
        QVERIFY(readme.contains(list(expectedArgs()).join(' ')));
        // Nothing else, and no temporary names left next to it.
        QCOMPARE(std::distance(fs::directory_iterator(dest), fs::directory_iterator()), 9L);
        QCOMPARE(
            std::distance(fs::directory_iterator(dest.parent_path()), fs::directory_iterator()),
            1L);
        const QString script = QString::fromUtf8(contentsOrMissing(dest / "run.sh"));
        QVERIFY(script.startsWith("#!/bin/sh\n"));
        QVERIFY(script.contains("set -e\n"));
        QVERIFY(script.contains("exec \"${1:-"));
    }

    // run.sh gives tract the argv the runner gives it, from the bundle folder.
    void runShReplaysTheCommand() {
        const fs::path dest = root_ / "bundle";
        writeDebugBundle(dest, bundle_);
        QCOMPARE(list(bundleTractCommand(bundle_).args), list(expectedArgs()));

        // The runner, run in the bundle with the bundle's relative names.
        const fs::path runnerLog = root_ / "runner.txt";
        TractCheckOptions o;
        o.tractBin = argvRecordingTract(root_ / "runner", runnerLog);
        o.archive = "./model.nnef.tgz";
        o.ioBundle = "./io.npz";
        o.workDir = dest;
        o.tolerance = bundle_.tract.tolerance;
        QCOMPARE(int(runTractCheck(o).status), int(TractStatus::Passed));

        // run.sh from elsewhere, with its default tract (the odd path).
        auto r = t2n::test::run(QString::fromStdString((dest / "run.sh").string()), {});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList defaultRun = readLines(root_ / "default.txt");
        QVERIFY2(!defaultRun.isEmpty(), "run.sh did not run its default tract");
        QCOMPARE(defaultRun, readLines(runnerLog));
        QCOMPARE(defaultRun.last(), QString::fromStdString(fs::canonical(dest).string()));
        // run.sh with another tract as its first argument.
        const fs::path otherLog = root_ / "other.txt";
        const fs::path other = argvRecordingTract(root_ / "other", otherLog);
        r = t2n::test::run(QString::fromStdString((dest / "run.sh").string()),
                           {QString::fromStdString(other.string())});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readLines(otherLog), readLines(runnerLog));
    }

    void tgzForm() {
        const fs::path dest = root_ / "b.tgz";
        writeDebugBundle(dest, bundle_);
        const auto entries = readTgz(dest);
        QStringList names;
        for (const auto& [name, e] : entries)
            names << QString::fromStdString(name);
        QCOMPARE(names, (QStringList{"b/", "b/README.txt", "b/hardened_graph.txt", "b/io.npz",
                                     "b/model.nnef.tgz", "b/report.json", "b/run.sh"}));
        QCOMPARE(entries.at("b/run.sh").mode, 0755);
        QCOMPARE(entries.at("b/io.npz").mode, 0644);
        QVERIFY(entries.at("b/").dir);
        QCOMPARE(entries.at("b/model.nnef.tgz").data, QByteArray::fromStdString(model_));
        QCOMPARE(entries.at("b/run.sh").data, QByteArray::fromStdString(runScript(bundle_)));
        for (const auto& [name, e] : entries) {
            QCOMPARE(e.mtime, int64_t(0));
            QCOMPARE(e.uid, int64_t(0));
        }
        // gzip header MTIME (bytes 4..7) is 0, and a second write gives the same bytes.
        const QByteArray first = contentsOrMissing(dest);
        QCOMPARE(first.mid(4, 4), QByteArray(4, '\0'));
        writeDebugBundle(root_ / "again.tgz", bundle_);
        fs::rename(root_ / "again.tgz", root_ / "b2.tgz");
        writeDebugBundle(dest, bundle_); // replaces the file
        QCOMPARE(contentsOrMissing(dest), first);
        // Unpacked with the system tar, run.sh replays the same command.
        const fs::path x = root_ / "x";
        fs::create_directories(x);
        auto r = t2n::test::run("tar", {"-xzf", QString::fromStdString(dest.string()), "-C",
                                        QString::fromStdString(x.string())});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = t2n::test::run(QString::fromStdString((x / "b" / "run.sh").string()), {});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readLines(root_ / "default.txt").mid(0, 14), list(expectedArgs()));
        QCOMPARE(std::distance(fs::directory_iterator(root_), fs::directory_iterator()),
                 6L); // in, odd dir, b.tgz, b2.tgz, x, default.txt: no temporary files
    }

    void modelFolderAndTar() {
        writeFile(root_ / "in" / "f.nnef" / "graph.nnef", "version 1.0;");
        writeFile(root_ / "in" / "f.nnef" / "sub" / "w.dat", binary(300));
        bundle_.modelArchive = root_ / "in" / "f.nnef";
        QCOMPARE(bundledModelName(bundle_.modelArchive), std::string("model.nnef"));
        QCOMPARE(bundleTractCommand(bundle_).args.front(), std::string("./model.nnef"));
        writeDebugBundle(root_ / "folder", bundle_);
        QCOMPARE(contentsOrMissing(root_ / "folder" / "model.nnef" / "sub" / "w.dat"),
                 QByteArray::fromStdString(binary(300)));
        writeDebugBundle(root_ / "f.tar.gz", bundle_);
        const auto entries = readTgz(root_ / "f.tar.gz");
        QVERIFY(entries.count("f/model.nnef/"));
        QCOMPARE(entries.at("f/model.nnef/graph.nnef").data, QByteArray("version 1.0;"));
        QVERIFY(entries.at("f/model.nnef/sub/").dir);

        writeFile(root_ / "in" / "t.nnef.tar", "tar bytes");
        QCOMPARE(bundledModelName(root_ / "in" / "t.nnef.tar"), std::string("model.nnef.tar"));
        QCOMPARE(bundledModelName(root_ / "in" / "m.nnef.tgz"), std::string("model.nnef.tgz"));
    }

    void replacesOnlyBundles() {
        const fs::path dest = root_ / "bundle";
        writeDebugBundle(dest, bundle_);
        bundle_.reportJson = R"({"second": true})";
        writeDebugBundle(dest, bundle_);
        QCOMPARE(contentsOrMissing(dest / "report.json"), QByteArray(R"({"second": true})"));
        // A folder that is not a bundle stays as it is.
        writeFile(root_ / "precious" / "data.txt", "keep me");
        expectFailure([&] { writeDebugBundle(root_ / "precious", bundle_); }, "overwrote a folder");
        QCOMPARE(contentsOrMissing(root_ / "precious" / "data.txt"), QByteArray("keep me"));
        expectFailure([&] { writeDebugBundle(root_ / "precious" / "data.txt", bundle_); },
                      "overwrote a file with a folder");
        fs::create_directories(root_ / "dir.tgz");
        expectFailure([&] { writeDebugBundle(root_ / "dir.tgz", bundle_); }, "replaced a folder");
    }

    void noPartialBundleOnFailure() {
        const auto before = [&] {
            std::vector<fs::path> all;
            for (const auto& e : fs::recursive_directory_iterator(root_))
                all.push_back(e.path());
            std::sort(all.begin(), all.end());
            return all;
        };
        const auto initial = before();
        // Unwritable destinations: a missing directory, a file as the directory.
        expectFailure([&] { writeDebugBundle(root_ / "missing" / "b", bundle_); }, "missing dir");
        expectFailure([&] { writeDebugBundle(root_ / "in" / "io.npz" / "b.tgz", bundle_); },
                      "file as dir");
        // Missing inputs.
        DebugBundle noModel = bundle_;
        noModel.modelArchive = root_ / "in" / "absent.nnef.tgz";
        expectFailure([&] { writeDebugBundle(root_ / "b", noModel); }, "missing model");
        // A failure half way (an unreadable file inside a model folder): the
        // temporary folder or file is removed, nothing named b appears.
        writeFile(root_ / "in" / "f.nnef" / "graph.nnef", "version 1.0;");
        fs::create_symlink(root_ / "nowhere", root_ / "in" / "f.nnef" / "z.dat");
        const auto withFolder = before();
        bundle_.modelArchive = root_ / "in" / "f.nnef";
        expectFailure([&] { writeDebugBundle(root_ / "b", bundle_); }, "broken model folder");
        expectFailure([&] { writeDebugBundle(root_ / "b.tgz", bundle_); }, "broken model folder");
        QCOMPARE(before(), withFolder);
        QVERIFY(initial.size() < withFolder.size());
        // A read-only directory (permissions do not bind root).
        if (::geteuid() != 0) {
            fs::create_directories(root_ / "ro");
            fs::permissions(root_ / "ro", fs::perms::owner_read | fs::perms::owner_exec);
            bundle_.modelArchive = root_ / "in" / "m.nnef.tgz";
            expectFailure([&] { writeDebugBundle(root_ / "ro" / "b", bundle_); }, "read-only");
            QVERIFY(fs::is_empty(root_ / "ro"));
            fs::permissions(root_ / "ro", fs::perms::owner_all);
        }
    }

    /// The check manifest: JSON round trip, and a clear refusal of what is not one.
    void manifestJson() {
        t2n::CheckManifest m;
        m.inputs = {"image"};
        m.inputIndices = {0};
        m.outputs = {"logits"};
        t2n::ManifestValue v;
        v.identifier = "encoder_act__relu";
        v.torchValue = "input.5";
        v.node.kind = "aten::relu";
        v.node.modulePath = "encoder.act";
        v.node.sourceFile = "model.py";
        v.node.sourceLine = 12;
        m.values.push_back(v);
        const std::string text = m.toJson();
        const auto back = t2n::CheckManifest::fromJson(text, "m.json");
        QCOMPARE(back.toJson(), text);
        QCOMPARE(back.find("encoder_act__relu")->node.sourceLine, 12);
        QVERIFY(back.find("nothing") == nullptr);
        QCOMPARE(t2n::manifestBeside("/a/m.nnef.tgz"), fs::path("/a/m.nnef.tgz.manifest.json"));
        QCOMPARE(t2n::manifestBeside("/a/m.nnef/"), fs::path("/a/m.nnef.manifest.json"));
        for (const char* bad : {"not json", R"({"t2n_check_manifest": 2})",
                                R"({"t2n_check_manifest": 1, "inputs": ["x"]})"}) {
            try {
                t2n::CheckManifest::fromJson(bad, "m.json");
                QFAIL(bad);
            } catch (const t2n::Error& e) {
                QCOMPARE(e.stage(), t2n::Stage::Check);
                QVERIFY2(e.message().rfind("m.json: ", 0) == 0, e.message().c_str());
            }
        }
    }
};

T2N_TEST_SUITE(DebugBundleTest)
#include "tst_debug_bundle.moc"
