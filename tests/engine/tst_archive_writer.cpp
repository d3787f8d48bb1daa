// ArchiveWriter: folder / .tar / .tgz artifacts re-read by separate readers
// (std::filesystem for folders, Debian python's tarfile for archives),
// reproducibility, and the "never a half or overwritten artifact" rules.
#include "archive/archive_writer.h"
#include "nnef/dat_writer.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using t2n::Artifact;
using t2n::ArtifactForm;
using t2n::archive::ArchiveWriter;
using t2n::test::writeFile;
namespace fs = std::filesystem;

namespace {

struct WrittenEntry {
    std::string name;
    QByteArray bytes;
};

std::span<const std::byte> asBytes(const QByteArray& b) {
    return std::as_bytes(std::span(b.constData(), static_cast<std::size_t>(b.size())));
}

t2n::TensorData f32Tensor(std::vector<int64_t> shape, float start) {
    int64_t n = 1;
    for (auto d : shape)
        n *= d;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = start + 0.25f * static_cast<float>(i);
    return t2n::TensorData::copyOf(t2n::DType::F32, std::move(shape), std::as_bytes(std::span(v)));
}

QByteArray datBytes(const t2n::TensorData& t) {
    QByteArray out;
    t2n::nnef::writeDat(t, [&](std::span<const std::byte> p) {
        out.append(reinterpret_cast<const char*>(p.data()), static_cast<qsizetype>(p.size()));
    });
    return out;
}

/// The sample artifact: graph.nnef, a .dat in a sub-folder (streamed through the
/// sink overload) and a top-level .dat (bytes overload). Returns what was written.
std::vector<WrittenEntry> writeSample(ArchiveWriter& w, const std::string& longName = {}) {
    std::vector<WrittenEntry> entries;
    const QByteArray graph = "version 1.0;\n\ngraph g(input) -> (output)\n{\n"
                             "  input = external<scalar>(shape = [1, 3]);\n"
                             "  w = variable<scalar>(label = 'layer1/weight', shape = [4, 3]);\n"
                             "  b = variable<scalar>(label = 'bias', shape = [4]);\n"
                             "  output = linear(input, w, b);\n}\n";
    w.addFile("graph.nnef", asBytes(graph));
    entries.push_back({"graph.nnef", graph});

    const auto weight = f32Tensor({4, 3}, -1.0f);
    w.addFile("layer1/weight.dat", t2n::nnef::datFileSize(weight),
              [&](const ArchiveWriter::Sink& sink) { t2n::nnef::writeDat(weight, sink); });
    entries.push_back({"layer1/weight.dat", datBytes(weight)});

    const QByteArray bias = datBytes(f32Tensor({4}, 0.5f));
    w.addFile("bias.dat", asBytes(bias));
    entries.push_back({"bias.dat", bias});

    if (!longName.empty()) {
        const QByteArray extra(700, 'x');
        w.addFile(longName, asBytes(extra));
        entries.push_back({longName, extra});
    }
    return entries;
}

Artifact artifactAt(const fs::path& dir, ArtifactForm form, int level = 0) {
    Artifact a;
    a.form = form;
    a.gzipLevel = level;
    a.path = dir / (form == ArtifactForm::Folder ? "m.nnef"
                    : form == ArtifactForm::Tar  ? "m.nnef.tar"
                                                 : "m.nnef.tgz");
    return a;
}

QByteArray readAll(const fs::path& p) {
    QFile f(QString::fromStdString(p.string()));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Every path under `dir` (hidden ones too), relative, sorted.
QStringList listTree(const fs::path& dir) {
    QStringList out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::end(it); ++it)
        out << QString::fromStdString(fs::relative(it->path(), dir).generic_string());
    out.sort();
    return out;
}

QString sha(const QByteArray& b) {
    return QCryptographicHash::hash(b, QCryptographicHash::Sha256).toHex();
}

/// Python's tarfile (and gzip) read the archive: members, metadata and data.
QJsonObject readWithPython(const fs::path& archive) {
    static const QString script = QString::fromUtf8(R"PY(
import gzip, hashlib, json, sys, tarfile
path = sys.argv[1]
raw = open(path, 'rb').read()
res = {'size': len(raw), 'gzip': raw[:2] == b'\x1f\x8b', 'members': []}
if res['gzip']:
    res['gzip_mtime'] = int.from_bytes(raw[4:8], 'little')
    res['tar_sha256'] = hashlib.sha256(gzip.decompress(raw)).hexdigest()
with tarfile.open(path, 'r:*') as t:
    for m in t.getmembers():
        data = t.extractfile(m).read() if m.isreg() else b''
        res['members'].append({
            'name': m.name, 'size': m.size, 'mtime': m.mtime, 'mode': m.mode,
            'uid': m.uid, 'gid': m.gid, 'uname': m.uname, 'gname': m.gname,
            'isreg': m.isreg(), 'sha256': hashlib.sha256(data).hexdigest(),
            'length': len(data)})
print(json.dumps(res))
)PY");
    const auto r = t2n::test::run(t2n::test::python(),
                                  {"-c", script, QString::fromStdString(archive.string())}, 120000);
    if (r.exitCode != 0) {
        qWarning("python failed: %s", qPrintable(r.err));
        return {};
    }
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

/// Checks python's view of an archive against the entries written.
bool checkArchiveMembers(const fs::path& archive, const std::vector<WrittenEntry>& entries,
                         QJsonObject* report = nullptr) {
    const QJsonObject o = readWithPython(archive);
    if (report)
        *report = o;
    const QJsonArray members = o.value("members").toArray();
    [&] {
        QCOMPARE(members.size(), static_cast<qsizetype>(entries.size()));
        for (qsizetype i = 0; i < members.size(); ++i) {
            const auto m = members.at(i).toObject();
            const auto& e = entries[static_cast<std::size_t>(i)];
            QCOMPARE(m.value("name").toString(), QString::fromStdString(e.name));
            QCOMPARE(m.value("size").toInteger(), static_cast<qint64>(e.bytes.size()));
            QCOMPARE(m.value("length").toInteger(), static_cast<qint64>(e.bytes.size()));
            QCOMPARE(m.value("sha256").toString(), sha(e.bytes));
            QVERIFY(m.value("isreg").toBool());
            QCOMPARE(m.value("mtime").toInteger(), qint64(0));
            QCOMPARE(m.value("mode").toInteger(), qint64(0644));
            QCOMPARE(m.value("uid").toInteger(), qint64(0));
            QCOMPARE(m.value("gid").toInteger(), qint64(0));
            QCOMPARE(m.value("uname").toString(), QString());
            QCOMPARE(m.value("gname").toString(), QString());
        }
    }();
    return !QTest::currentTestFailed();
}

template <typename F> t2n::ErrorCode errorCodeOf(F&& f) {
    try {
        f();
    } catch (const t2n::Error& e) {
        return e.code();
    }
    return t2n::ErrorCode::Usage; // "no error" marker for the tests below
}

} // namespace

class ArchiveWriterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void folderRoundTrip() {
        const fs::path dir = t2n::test::freshDir("archive_folder");
        const Artifact a = artifactAt(dir, ArtifactForm::Folder);
        std::vector<WrittenEntry> entries;
        uint64_t committed = 0;
        {
            ArchiveWriter w(a);
            entries = writeSample(w);
            committed = w.commit();
        }
        // Read back with std::filesystem only.
        QCOMPARE(listTree(dir), QStringList({"m.nnef", "m.nnef/bias.dat", "m.nnef/graph.nnef",
                                             "m.nnef/layer1", "m.nnef/layer1/weight.dat"}));
        uint64_t total = 0;
        for (const auto& e : entries) {
            const fs::path p = a.path / e.name;
            QVERIFY2(fs::is_regular_file(p), p.c_str());
            QCOMPARE(fs::file_size(p), static_cast<uintmax_t>(e.bytes.size()));
            QCOMPARE(sha(readAll(p)), sha(e.bytes));
            total += static_cast<uint64_t>(e.bytes.size());
        }
        QCOMPARE(committed, total);
    }

    void tarRoundTrip() {
        const fs::path dir = t2n::test::freshDir("archive_tar");
        const Artifact a = artifactAt(dir, ArtifactForm::Tar);
        std::vector<WrittenEntry> entries;
        uint64_t committed = 0;
        {
            ArchiveWriter w(a);
            entries = writeSample(w);
            committed = w.commit();
        }
        QCOMPARE(listTree(dir), QStringList({"m.nnef.tar"}));
        QCOMPARE(committed, static_cast<uint64_t>(fs::file_size(a.path)));
        QJsonObject report;
        QVERIFY(checkArchiveMembers(a.path, entries, &report));
        QVERIFY(!report.value("gzip").toBool());
        // ustar layout, short names: one 512-byte header per entry, data padded to
        // 512, two zero blocks at the end and no padding to 10240-byte records.
        uint64_t expected = 1024;
        for (const auto& e : entries)
            expected += 512 + (static_cast<uint64_t>(e.bytes.size()) + 511) / 512 * 512;
        QCOMPARE(static_cast<uint64_t>(fs::file_size(a.path)), expected);
        // POSIX ustar magic and version in the first header block.
        QCOMPARE(readAll(a.path).mid(257, 8), QByteArray("ustar\0"
                                                         "00",
                                                         8));
    }

    void tgzRoundTrip() {
        const fs::path dir = t2n::test::freshDir("archive_tgz");
        const Artifact a = artifactAt(dir, ArtifactForm::Tgz, 6);
        std::vector<WrittenEntry> entries;
        {
            ArchiveWriter w(a);
            entries = writeSample(w);
            w.commit();
        }
        QCOMPARE(listTree(dir), QStringList({"m.nnef.tgz"}));
        QJsonObject report;
        QVERIFY(checkArchiveMembers(a.path, entries, &report));
        QVERIFY(report.value("gzip").toBool());
        QCOMPARE(report.value("gzip_mtime").toInteger(), qint64(0));
        // The gzip header bytes themselves: magic, deflate, no flags, MTIME 0.
        const QByteArray raw = readAll(a.path);
        QCOMPARE(raw.left(8).toHex(), QByteArray("1f8b080000000000"));
    }

    void gzipLevels() {
        // ~1 MiB of compressible text: level 0 stores it (a little larger than the tar),
        // level 9 shrinks it a lot; both decompress to exactly the plain tar.
        const fs::path dir = t2n::test::freshDir("archive_levels");
        QByteArray text;
        for (int i = 0; text.size() < (1 << 20); ++i)
            text += QByteArray::number(i % 1000) + " weights and biases\n";
        auto build = [&](const fs::path& sub, ArtifactForm form, int level) {
            fs::create_directories(dir / sub);
            const Artifact a = artifactAt(dir / sub, form, level);
            ArchiveWriter w(a);
            w.addFile("graph.nnef", asBytes(text));
            w.addFile("w.dat", asBytes(text.left(300000)));
            w.commit();
            return a.path;
        };
        const fs::path tar = build("tar", ArtifactForm::Tar, 0);
        const fs::path tgz0 = build("l0", ArtifactForm::Tgz, 0);
        const fs::path tgz1 = build("l1", ArtifactForm::Tgz, 1);
        const fs::path tgz9 = build("l9", ArtifactForm::Tgz, 9);
        const auto sTar = fs::file_size(tar), s0 = fs::file_size(tgz0), s1 = fs::file_size(tgz1),
                   s9 = fs::file_size(tgz9);
        qInfo("%s", qPrintable(QString("tar %1, tgz level 0 %2, level 1 %3, level 9 %4")
                                   .arg(sTar)
                                   .arg(s0)
                                   .arg(s1)
                                   .arg(s9)));
        QVERIFY(s0 > sTar);              // stored blocks: header + block overhead
        QVERIFY(s0 < sTar + sTar / 100); // ... but no compression either way
        QVERIFY(s1 < sTar / 4);
        QVERIFY(s9 <= s1);
        QVERIFY(s9 < s0 / 10);
        const QString tarSha = sha(readAll(tar));
        for (const auto& p : {tgz0, tgz1, tgz9}) {
            const auto report = readWithPython(p);
            QCOMPARE(report.value("tar_sha256").toString(), tarSha);
            QCOMPARE(report.value("members").toArray().size(), qsizetype(2));
        }
    }

    void reproducible_data() {
        QTest::addColumn<int>("form");
        QTest::addColumn<int>("level");
        QTest::newRow("tar") << int(ArtifactForm::Tar) << 0;
        QTest::newRow("tgz 0") << int(ArtifactForm::Tgz) << 0;
        QTest::newRow("tgz 6") << int(ArtifactForm::Tgz) << 6;
        QTest::newRow("tgz 9") << int(ArtifactForm::Tgz) << 9;
    }

    void reproducible() {
        QFETCH(int, form);
        QFETCH(int, level);
        // A file name over 100 characters cannot be split into ustar's prefix and
        // name fields: it goes through a pax extended header.
        const std::string longName = "encoder/layers/0/" + std::string(120, 'q') + ".dat";
        std::vector<QByteArray> outputs;
        std::vector<WrittenEntry> entries;
        fs::path written;
        for (int round = 0; round < 2; ++round) {
            const fs::path dir = t2n::test::freshDir(QString("archive_repro_%1").arg(round));
            const Artifact a = artifactAt(dir, static_cast<ArtifactForm>(form), level);
            {
                ArchiveWriter w(a);
                entries = writeSample(w, longName);
                w.commit();
            }
            outputs.push_back(readAll(a.path));
            written = a.path;
            if (round == 0)
                QTest::qSleep(1100); // a second later: no time may leak in
        }
        QVERIFY(!outputs[0].isEmpty());
        QCOMPARE(sha(outputs[1]), sha(outputs[0]));
        // The archive read back holds the long name intact.
        QVERIFY(checkArchiveMembers(written, entries));
    }

    void missingDirectory_data() { formRows(); }
    void missingDirectory() {
        QFETCH(int, form);
        const fs::path dir = t2n::test::freshDir("archive_missing");
        const Artifact a = artifactAt(dir / "does" / "not" / "exist", ArtifactForm(form), 5);
        try {
            ArchiveWriter w(a);
            QFAIL("a writer was created in a missing directory");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.stage(), t2n::Stage::Write);
            QCOMPARE(e.code(), t2n::ErrorCode::OutputPath);
            QVERIFY2(e.message().find(a.path.string()) != std::string::npos, e.message().c_str());
            QVERIFY2(e.message().find("does not exist") != std::string::npos, e.message().c_str());
            QVERIFY(!e.hint().empty());
        }
        QCOMPARE(listTree(dir), QStringList());
    }

    void readOnlyDirectory_data() { formRows(); }
    void readOnlyDirectory() {
        QFETCH(int, form);
        const fs::path base = t2n::test::freshDir("archive_readonly");
        fs::path dir = base / "ro";
        fs::create_directories(dir);
        fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                 fs::perms::group_exec);
        // root ignores permission bits: fall back to a directory the kernel itself
        // refuses to create files in.
        if (::access(dir.c_str(), W_OK) == 0) {
            dir = "/sys";
            if (::mkdir("/sys/.t2n-probe", 0700) == 0) {
                ::rmdir("/sys/.t2n-probe");
                QSKIP("no read-only directory available to this user");
            }
        }
        const Artifact a = artifactAt(dir, ArtifactForm(form), 1);
        const QStringList before = listTree(dir);
        try {
            ArchiveWriter w(a);
            QFAIL("a writer was created in a read-only directory");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.stage(), t2n::Stage::Write);
            QCOMPARE(e.code(), t2n::ErrorCode::OutputPath);
            QVERIFY2(e.message().find(a.path.string()) != std::string::npos, e.message().c_str());
            qInfo("%s", e.render().c_str());
        }
        QVERIFY(!fs::exists(a.path));
        if (dir != "/sys")
            QCOMPARE(listTree(dir), before);
        fs::permissions(base / "ro", fs::perms::owner_all);
    }

    void abandonKeepsExisting_data() { formRows(); }
    void abandonKeepsExisting() {
        // A writer destroyed without commit(): no temporaries, the good artifact
        // already at the destination is untouched.
        QFETCH(int, form);
        const fs::path dir = t2n::test::freshDir("archive_abandon");
        const Artifact a = artifactAt(dir, ArtifactForm(form), 3);
        plantExisting(a);
        const QStringList before = listTree(dir);
        {
            ArchiveWriter w(a);
            writeSample(w);
            QVERIFY(listTree(dir).size() > before.size()); // the temporary exists meanwhile
        }
        QCOMPARE(listTree(dir), before);
        QVERIFY(existingIsIntact(a));
    }

    void failedWriteKeepsExisting_data() { formRows(); }
    void failedWriteKeepsExisting() {
        QFETCH(int, form);
        const fs::path dir = t2n::test::freshDir("archive_failed");
        const Artifact a = artifactAt(dir, ArtifactForm(form), 3);
        plantExisting(a);
        const QStringList before = listTree(dir);
        {
            ArchiveWriter w(a);
            writeSample(w);
            // Declared 100 bytes, produced 40: a bug in the caller.
            const QByteArray forty(40, 'z');
            QCOMPARE(errorCodeOf([&] {
                         w.addFile("short.dat", 100,
                                   [&](const ArchiveWriter::Sink& sink) { sink(asBytes(forty)); });
                     }),
                     t2n::ErrorCode::Internal);
            // The writer refuses to go on, and never commits.
            QCOMPARE(errorCodeOf([&] { w.addFile("more.dat", asBytes(forty)); }),
                     t2n::ErrorCode::Internal);
            QCOMPARE(errorCodeOf([&] { w.commit(); }), t2n::ErrorCode::Internal);
        }
        QCOMPARE(listTree(dir), before);
        QVERIFY(existingIsIntact(a));
    }

    void producerExceptionKeepsExisting_data() { formRows(); }
    void producerExceptionKeepsExisting() {
        QFETCH(int, form);
        const fs::path dir = t2n::test::freshDir("archive_throw");
        const Artifact a = artifactAt(dir, ArtifactForm(form), 1);
        plantExisting(a);
        const QStringList before = listTree(dir);
        {
            ArchiveWriter w(a);
            writeSample(w);
            QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                     w.addFile("x.dat", 10, [](const ArchiveWriter::Sink& sink) {
                                         const std::byte b[4]{};
                                         sink(b);
                                         throw std::runtime_error("tensor went away");
                                     }));
        }
        QCOMPARE(listTree(dir), before);
        QVERIFY(existingIsIntact(a));
    }

    void tooManyBytesIsInternal_data() { formRows(); }
    void tooManyBytesIsInternal() {
        QFETCH(int, form);
        const fs::path dir = t2n::test::freshDir("archive_toomany");
        const Artifact a = artifactAt(dir, ArtifactForm(form), 1);
        {
            ArchiveWriter w(a);
            const QByteArray ten(10, 'a');
            QCOMPARE(errorCodeOf([&] {
                         w.addFile("x.dat", 5,
                                   [&](const ArchiveWriter::Sink& s) { s(asBytes(ten)); });
                     }),
                     t2n::ErrorCode::Internal);
        }
        QCOMPARE(listTree(dir), QStringList());
    }

    void commitReplacesExisting_data() { formRows(); }
    void commitReplacesExisting() {
        QFETCH(int, form);
        const fs::path dir = t2n::test::freshDir("archive_replace");
        const Artifact a = artifactAt(dir, ArtifactForm(form), 9);
        plantExisting(a);
        std::vector<WrittenEntry> entries;
        {
            ArchiveWriter w(a);
            entries = writeSample(w);
            w.commit();
        }
        QVERIFY(!existingIsIntact(a));
        if (a.form == ArtifactForm::Folder) {
            // The old folder's extra file is gone with it; nothing else is left.
            QCOMPARE(listTree(dir), QStringList({"m.nnef", "m.nnef/bias.dat", "m.nnef/graph.nnef",
                                                 "m.nnef/layer1", "m.nnef/layer1/weight.dat"}));
            for (const auto& e : entries)
                QCOMPARE(sha(readAll(a.path / e.name)), sha(e.bytes));
        } else {
            QCOMPARE(listTree(dir),
                     QStringList({QString::fromStdString(a.path.filename().string())}));
            QVERIFY(checkArchiveMembers(a.path, entries));
        }
    }

    void badEntryPaths_data() {
        QTest::addColumn<int>("form");
        QTest::addColumn<QString>("path");
        for (int form : {int(ArtifactForm::Folder), int(ArtifactForm::Tar)}) {
            const QString f = form == int(ArtifactForm::Folder) ? "folder " : "tar ";
            QTest::newRow(qPrintable(f + "absolute")) << form << "/etc/passwd";
            QTest::newRow(qPrintable(f + "dotdot")) << form << "../escape.dat";
            QTest::newRow(qPrintable(f + "inner dotdot")) << form << "a/../../b.dat";
            QTest::newRow(qPrintable(f + "trailing dotdot")) << form << "a/..";
            QTest::newRow(qPrintable(f + "dot")) << form << "./graph.nnef";
            QTest::newRow(qPrintable(f + "empty")) << form << "";
            QTest::newRow(qPrintable(f + "double slash")) << form << "a//b.dat";
            QTest::newRow(qPrintable(f + "trailing slash")) << form << "a/";
        }
    }

    void badEntryPaths() {
        QFETCH(int, form);
        QFETCH(QString, path);
        const fs::path dir = t2n::test::freshDir("archive_badpath");
        const Artifact a = artifactAt(dir, ArtifactForm(form), 0);
        {
            ArchiveWriter w(a);
            try {
                w.addFile(path.toStdString(), asBytes("data"));
                QFAIL("bad entry path accepted");
            } catch (const t2n::Error& e) {
                QCOMPARE(e.code(), t2n::ErrorCode::Internal);
                QVERIFY2(e.message().find("'" + path.toStdString() + "'") != std::string::npos,
                         e.message().c_str());
            }
            // A refused path writes nothing: the writer is still usable.
            w.addFile("graph.nnef", asBytes("version 1.0;\n"));
            w.commit();
        }
        if (a.form == ArtifactForm::Folder)
            QCOMPARE(listTree(dir), QStringList({"m.nnef", "m.nnef/graph.nnef"}));
        else
            QVERIFY(checkArchiveMembers(a.path, {{"graph.nnef", "version 1.0;\n"}}));
        QVERIFY(!fs::exists(dir.parent_path() / "escape.dat"));
    }

    void duplicateEntries() {
        const fs::path dir = t2n::test::freshDir("archive_dup");
        ArchiveWriter w(artifactAt(dir, ArtifactForm::Tar));
        w.addFile("a/b.dat", asBytes("1"));
        QCOMPARE(errorCodeOf([&] { w.addFile("a/b.dat", asBytes("2")); }),
                 t2n::ErrorCode::Internal);
        QCOMPARE(errorCodeOf([&] { w.addFile("a", asBytes("2")); }), t2n::ErrorCode::Internal);
        QCOMPARE(errorCodeOf([&] { w.addFile("a/b.dat/c.dat", asBytes("2")); }),
                 t2n::ErrorCode::Internal);
    }

    void tarOverDirectoryIsRefused() {
        const fs::path dir = t2n::test::freshDir("archive_tar_over_dir");
        const Artifact a = artifactAt(dir, ArtifactForm::Tar);
        fs::create_directories(a.path);
        QCOMPARE(errorCodeOf([&] { ArchiveWriter w(a); }), t2n::ErrorCode::OutputPath);
        QCOMPARE(listTree(dir), QStringList({"m.nnef.tar"}));
    }

    void folderOverForeignFolderIsRefused() {
        // A non-empty folder without graph.nnef is not ours to delete.
        const fs::path dir = t2n::test::freshDir("archive_foreign");
        const Artifact a = artifactAt(dir, ArtifactForm::Folder);
        writeFile(a.path / "thesis.txt", "precious");
        QCOMPARE(errorCodeOf([&] { ArchiveWriter w(a); }), t2n::ErrorCode::OutputPath);
        QCOMPARE(listTree(dir), QStringList({"m.nnef", "m.nnef/thesis.txt"}));
    }

    void commitTwiceIsInternal() {
        const fs::path dir = t2n::test::freshDir("archive_twice");
        ArchiveWriter w(artifactAt(dir, ArtifactForm::Tgz, 1));
        w.addFile("graph.nnef", asBytes("version 1.0;\n"));
        w.commit();
        QCOMPARE(errorCodeOf([&] { w.commit(); }), t2n::ErrorCode::Internal);
        QCOMPARE(errorCodeOf([&] { w.addFile("late.dat", asBytes("x")); }),
                 t2n::ErrorCode::Internal);
        QCOMPARE(listTree(dir), QStringList({"m.nnef.tgz"}));
    }

    void relativeDestination_data() { formRows(); }
    void relativeDestination() {
        // A bare file name is written in the current directory.
        QFETCH(int, form);
        const fs::path dir = t2n::test::freshDir("archive_relative");
        const fs::path saved = fs::current_path();
        fs::current_path(dir);
        Artifact a = artifactAt(dir, ArtifactForm(form), 2);
        a.path = a.path.filename();
        try {
            ArchiveWriter w(a);
            w.addFile("graph.nnef", asBytes("version 1.0;\n"));
            w.commit();
        } catch (...) {
            fs::current_path(saved);
            throw;
        }
        fs::current_path(saved);
        QCOMPARE(listTree(dir).first(), QString::fromStdString(a.path.string()));
        QVERIFY(fs::exists(dir / a.path));
    }

private:
    static void formRows() {
        QTest::addColumn<int>("form");
        QTest::newRow("folder") << int(ArtifactForm::Folder);
        QTest::newRow("tar") << int(ArtifactForm::Tar);
        QTest::newRow("tgz") << int(ArtifactForm::Tgz);
    }

    static const QByteArray& goodBytes() {
        static const QByteArray b = "GOOD ARCHIVE FROM AN EARLIER EXPORT";
        return b;
    }

    static void plantExisting(const Artifact& a) {
        if (a.form == ArtifactForm::Folder) {
            writeFile(a.path / "graph.nnef", goodBytes().toStdString());
            writeFile(a.path / "old" / "weight.dat", goodBytes().toStdString());
        } else {
            writeFile(a.path, goodBytes().toStdString());
        }
    }

    static bool existingIsIntact(const Artifact& a) {
        if (a.form == ArtifactForm::Folder)
            return readAll(a.path / "graph.nnef") == goodBytes() &&
                   readAll(a.path / "old" / "weight.dat") == goodBytes();
        return readAll(a.path) == goodBytes();
    }
};

T2N_TEST_SUITE(ArchiveWriterTest)
#include "tst_archive_writer.moc"
