// The write protocol of t2n/outputs.h, and the numbered defects of issue 12
// it fixes, each with the test that failed before the fix:
//   1. a failed export leaves the archive already at its destination as it
//      was (a failing check, a cancel in the check, a bad tolerance: all
//      found before the rename);
//   2. a `raise` that fires on the example inputs fails the export with the
//      model's own message and line, also without the check;
//   3. temporaries of a killed run are removed by the next run, and a folder
//      such a run had moved aside comes back;
//   4. a destination that is the model itself is refused, whatever its name.
// Publishing several results together puts back what it replaced when a
// later rename fails.
#include "archive/sibling_path.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/outputs.h"
#include "t2n/session.h"

#include <QJsonObject>
#include <QTest>

#include <fmt/format.h>

#include <atomic>
#include <fstream>
#include <optional>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace t2n::test;
namespace fs = std::filesystem;
using t2n::Stage;

namespace {

const std::string kOld = "bytes of an earlier export that t2n never writes\n";

std::vector<std::string> namesIn(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// Records the stages started; cancels when `cancelIn` starts.
class Watcher : public t2n::Observer {
public:
    explicit Watcher(std::optional<Stage> cancelIn = {}) : cancelIn_(cancelIn) {}
    void stageStarted(Stage s) override {
        started.push_back(s);
        current_ = s;
    }
    bool cancelRequested() override { return cancelIn_ && *cancelIn_ == current_; }
    std::vector<Stage> started;

private:
    std::optional<Stage> cancelIn_;
    Stage current_ = Stage::Report;
};

// A pid no process has: a child that has exited and been reaped.
pid_t deadPid() {
    const pid_t child = ::fork();
    if (child == 0)
        ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return child;
}

const QString kExportedModel = "naming_blocks";

} // namespace

class WriteProtocolTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo(kExportedModel).isEmpty() || fixtureInfo("err_model_raises").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    // Defect 1: the check ran after the rename, so a failing check left the
    // new archive in place of the old one. Now the archive that fails its
    // check is never put in place.
    void failingCheckLeavesTheOldArchive() {
        const fs::path dir = freshDir("protocol_check_fails");
        writeFile(dir / "out.nnef.tgz", kOld);
        t2n::ExportOptions o = fixtureOptions(kExportedModel);
        o.harden.perturbAfter = "eliminate_dead_code"; // the test hook: a wrong graph
        o.debugBundle = (dir / "bundle").string();
        t2n::Session s;
        s.load(fixtureModel(kExportedModel));
        const t2n::ExportReport r = s.exportModel(dir / "out.nnef.tgz", o);
        QVERIFY(r.check.ran);
        QVERIFY(!r.check.passed);
        QVERIFY(!r.written);
        QCOMPARE(readFile(dir / "out.nnef.tgz"), kOld);
        // The one thing a failed check writes: the bundle, which holds the
        // archive that failed, named as its destination says.
        QCOMPARE(namesIn(dir), (std::vector<std::string>{"bundle", "out.nnef.tgz"}));
        QVERIFY(fs::is_regular_file(dir / "bundle" / "model.nnef.tgz"));
        QVERIFY(readFile(dir / "bundle" / "model.nnef.tgz") != kOld);
        QVERIFY(readFile(dir / "bundle" / "run.sh").find("./model.nnef.tgz") != std::string::npos);
    }

    // Defect 1: a cancel during the check removed the just-renamed archive,
    // the old one being gone already.
    void cancelInTheCheckLeavesTheOldArchive() {
        const fs::path dir = freshDir("protocol_cancel_check");
        writeFile(dir / "out.nnef.tgz", kOld);
        Watcher cancel(Stage::Check);
        t2n::Session s(&cancel);
        s.load(fixtureModel(kExportedModel));
        try {
            s.exportModel(dir / "out.nnef.tgz", fixtureOptions(kExportedModel));
            QFAIL("not cancelled");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Cancelled);
        }
        QCOMPARE(readFile(dir / "out.nnef.tgz"), kOld);
        QCOMPARE(namesIn(dir), std::vector<std::string>{"out.nnef.tgz"});
    }

    // Defect 1: a bad tolerance was found by the check, after the write.
    // Every option is validated before the first stage starts.
    void badOptionsStopBeforeAnyStage_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<int>("code");
        QTest::newRow("tolerance") << "tolerance" << 2;
        QTest::newRow("dynamic axis given twice") << "axes" << 7;
        QTest::newRow("input larger than memory") << "input" << 2;
        QTest::newRow("debug bundle folder missing") << "bundle" << 5;
        QTest::newRow("negative round limit") << "rounds" << 2;
    }
    void badOptionsStopBeforeAnyStage() {
        QFETCH(QString, what);
        QFETCH(int, code);
        const fs::path dir = freshDir("protocol_bad_options");
        writeFile(dir / "out.nnef.tgz", kOld);
        t2n::ExportOptions o = fixtureOptions(kExportedModel);
        if (what == "tolerance")
            o.checkTolerance = "loose";
        if (what == "axes")
            o.dynamicAxes = {t2n::DynamicAxis::parse(o.inputs[0].name + ":0=B"),
                             t2n::DynamicAxis::parse(o.inputs[0].name + ":0=N")};
        if (what == "input")
            o.inputs[0].shape = {1000000, 1000000, 1000000};
        if (what == "bundle")
            o.debugBundle = (dir / "nope" / "bundle.tgz").string();
        if (what == "rounds")
            o.harden.maxRounds = -1;
        Watcher w;
        t2n::Session s(&w);
        s.load(fixtureModel(kExportedModel));
        w.started.clear();
        try {
            s.exportModel(dir / "out.nnef.tgz", o);
            QFAIL("accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(static_cast<int>(e.code()), code);
        }
        QCOMPARE(w.started, std::vector<Stage>{});
        QCOMPARE(readFile(dir / "out.nnef.tgz"), kOld);
        QCOMPARE(namesIn(dir), std::vector<std::string>{"out.nnef.tgz"});
    }

    // Defect 2: the hardening stripped the `raise` and exported the identity.
    void raiseOnTheExampleInputsFailsTheExport_data() {
        QTest::addColumn<bool>("check");
        QTest::newRow("without the check") << false;
        QTest::newRow("with the check") << true;
    }
    void raiseOnTheExampleInputsFailsTheExport() {
        QFETCH(bool, check);
        const QJsonObject info = fixtureInfo("err_model_raises");
        const fs::path dir = freshDir("protocol_raises");
        t2n::ExportOptions o = fixtureOptions("err_model_raises");
        o.check = check;
        t2n::Session s;
        s.load(fixtureModel("err_model_raises"));
        try {
            s.exportModel(dir / "out.nnef.tgz", o);
            QFAIL("exported a model that raises on its inputs");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::ModelRun);
            QVERIFY2(e.message().find(info["expect_message"].toString().toStdString()) !=
                         std::string::npos,
                     e.render().c_str());
            QVERIFY2(e.message().find("ValueError") != std::string::npos, e.render().c_str());
            QCOMPARE(e.details().size(), size_t(1));
            const t2n::NodeRef& at = e.details()[0].node;
            QCOMPARE(at.sourceLine, info["source_line"].toInt());
            QVERIFY2(at.sourceFile.ends_with("generate.py"), at.sourceFile.c_str());
            QVERIFY2(at.sourceText.find("raise ValueError") != std::string::npos,
                     at.sourceText.c_str());
        }
        QCOMPARE(namesIn(dir), std::vector<std::string>{});
    }

    // Defect 4: `-o m.nnef.tgz` over the model m.nnef.tgz replaced the model.
    void theModelIsNeverADestination() {
        const fs::path dir = freshDir("protocol_model_target");
        fs::copy_file(fixtureModel(kExportedModel), dir / "m.nnef.tgz");
        fs::create_hard_link(dir / "m.nnef.tgz", dir / "link.nnef.tar");
        const std::string model = readFile(dir / "m.nnef.tgz");
        t2n::Session s;
        s.load(dir / "m.nnef.tgz");
        for (const char* target : {"m.nnef.tgz", "link.nnef.tar", "./m.nnef.tgz"}) {
            try {
                s.exportModel(dir / target, fixtureOptions(kExportedModel));
                QFAIL(target);
            } catch (const t2n::Error& e) {
                QCOMPARE(e.code(), t2n::ErrorCode::OutputPath);
                QVERIFY2(e.message().find("is the same path as") != std::string::npos,
                         e.render().c_str());
            }
        }
        QCOMPARE(readFile(dir / "m.nnef.tgz"), model);
        QCOMPARE(namesIn(dir), (std::vector<std::string>{"link.nnef.tar", "m.nnef.tgz"}));
    }

    // Defect 3: temporaries of a killed run stayed forever. The next run that
    // writes beside them removes those whose process is gone, keeps those of
    // a live one, and puts back a folder a killed run had moved aside.
    void staleTemporariesAreRemoved() {
        const fs::path dir = freshDir("protocol_stale");
        const pid_t dead = deadPid();
        const auto name = [](const char* kind, long pid) {
            return fmt::format(".out.nnef.tgz.t2n-{}-{}-0123456789abcdef", kind, pid);
        };
        writeFile(dir / name("tmp", dead), "partial");
        writeFile(dir / "out.nnef.tgz", kOld);
        fs::create_directory(dir / fmt::format(".out.nnef.tgz.t2n-old-{}-fedcba9876543210",
                                               static_cast<long>(dead)));
        writeFile(dir / name("tmp", ::getpid()), "ours, still being written");
        writeFile(dir / ".out.nnef.tgz.t2n-tmp-fedcba9876543210", "written before pids");
        fs::last_write_time(dir / ".out.nnef.tgz.t2n-tmp-fedcba9876543210",
                            fs::file_time_type::clock::now() - std::chrono::hours(2));
        writeFile(dir / ".other.nnef.tgz.t2n-tmp-1-0123456789abcdef", "another destination's");
        // Issue 26: another destination's temporary whose run was killed
        // waited for a run to that same destination; any run clears it.
        writeFile(dir / fmt::format(".other.nnef.tgz.t2n-tmp-{}-0123456789abcdef",
                                    static_cast<long>(dead)),
                  "another destination's, killed");
        t2n::removeStaleTemporaries(dir / "out.nnef.tgz");
        QCOMPARE(namesIn(dir),
                 (std::vector<std::string>{".other.nnef.tgz.t2n-tmp-1-0123456789abcdef",
                                           name("tmp", ::getpid()), "out.nnef.tgz"}));
        QCOMPARE(readFile(dir / "out.nnef.tgz"), kOld);

        // A folder artifact moved aside by a run killed before the new one
        // was in place: the old folder is the user's.
        const fs::path folder = dir / "f.nnef";
        const fs::path aside =
            dir / fmt::format(".f.nnef.t2n-old-{}-0123456789abcdef", static_cast<long>(dead));
        fs::create_directory(aside);
        writeFile(aside / "graph.nnef", kOld);
        t2n::removeStaleTemporaries(folder);
        QCOMPARE(readFile(folder / "graph.nnef"), kOld);
        QVERIFY(!fs::exists(aside));
    }

    // Issue 26: a legal file name of 246 bytes was refused, its temporary's
    // name being longer than a file name can be. The temporary's name is cut
    // (and hashed); a stale one of a killed run is still found.
    void longFileNamesHaveRoomForTheirTemporaries() {
        const fs::path dir = freshDir("protocol_long_names");
        const std::string name = std::string(241, 'r') + ".json"; // 246 bytes
        t2n::checkTextDestination(dir / name, Stage::Report, "report");
        {
            t2n::PendingOutputs p;
            p.addText(dir / name, "report", Stage::Report, "report");
            for (const auto& t : p.temporaries())
                QVERIFY(t.filename().string().size() <= 255);
            p.publish();
        }
        QCOMPARE(readFile(dir / name), std::string("report"));
        const fs::path stale = t2n::archive::siblingPath(dir / name, "tmp");
        QVERIFY(stale.filename().string().size() <= 255);
        // The same name, as a killed run would have left it.
        std::string staleName = stale.filename().string();
        const std::string own = fmt::format("-{}-", static_cast<long>(::getpid()));
        staleName.replace(staleName.rfind(own), own.size(),
                          fmt::format("-{}-", static_cast<long>(deadPid())));
        writeFile(dir / staleName, "partial");
        t2n::removeStaleTemporaries(dir / name);
        QCOMPARE(namesIn(dir), std::vector<std::string>{name});
    }

    // Issue 26: a folder artifact was missing for an instant while it was
    // replaced (moved aside, then the new one moved in): 1 of 4,991 reads
    // running beside exports failed. It is swapped in one step.
    void folderSwapIsNeverMissing() {
        const fs::path dir = freshDir("protocol_folder_swap");
        const fs::path dest = dir / "m.nnef";
        fs::create_directory(dest);
        writeFile(dest / "graph.nnef", kOld);
        std::atomic<bool> done{false};
        std::atomic<long> reads{0}, missing{0};
        std::thread reader([&] {
            while (!done) {
                ++reads;
                if (!fs::exists(dest / "graph.nnef"))
                    ++missing;
            }
        });
        for (int i = 0; i < 300; ++i) {
            const fs::path next = t2n::archive::siblingPath(dest, "tmp");
            fs::create_directory(next);
            writeFile(next / "graph.nnef", std::to_string(i));
            t2n::PendingOutputs p;
            p.adopt(next, dest, /*folder=*/true, Stage::Write);
            p.publish();
        }
        done = true;
        reader.join();
        QCOMPARE(readFile(dest / "graph.nnef"), std::string("299"));
        QCOMPARE(namesIn(dir), std::vector<std::string>{"m.nnef"});
        QVERIFY(reads > 1000);
        QCOMPARE(missing.load(), 0L);
    }

    // Issue 42: the check's work folder was $TMPDIR/t2n-check-<pid>: a link
    // planted at that name was followed (io.npz written where it pointed),
    // and every export of one process (Python threads) shared the folder.
    void checkWorkFolderIsPrivate() {
        const fs::path dir = freshDir("protocol_private_work");
        const fs::path tmp = dir / "tmp", victim = dir / "victim";
        fs::create_directories(tmp);
        fs::create_directories(victim);
        writeFile(victim / "keep", kOld);
        const std::string planted = fmt::format("t2n-check-{}", ::getpid());
        fs::create_directory_symlink(victim, tmp / planted);
        const QByteArray oldTmp = qgetenv("TMPDIR");
        qputenv("TMPDIR", QByteArray::fromStdString(tmp.string()));
        struct Restore {
            QByteArray value;
            ~Restore() {
                if (value.isNull())
                    qunsetenv("TMPDIR");
                else
                    qputenv("TMPDIR", value);
            }
        } restore{oldTmp};
        // Two folders at once are two folders, private to their owner.
        const fs::path a = t2n::archive::makePrivateTempFolder("t2n-check-", Stage::Check);
        const fs::path b = t2n::archive::makePrivateTempFolder("t2n-check-", Stage::Check);
        QVERIFY(a != b);
        QCOMPARE(a.parent_path(), tmp);
        QCOMPARE(fs::status(a).permissions(), fs::perms::owner_all);
        fs::remove(a);
        fs::remove(b);
        t2n::Session s;
        s.load(fixtureModel(kExportedModel));
        const t2n::ExportReport r =
            s.exportModel(dir / "out.nnef.tgz", fixtureOptions(kExportedModel));
        QVERIFY(r.check.ran);
        QVERIFY(r.check.passed);
        QCOMPARE(namesIn(victim), std::vector<std::string>{"keep"});
        QCOMPARE(readFile(victim / "keep"), kOld);
        // The check's own folder is gone; the planted link is left alone.
        QCOMPARE(namesIn(tmp), std::vector<std::string>{planted});
    }

    // The watchdog's last act (app/cli/process_guard.cpp): every temporary
    // this process made is removed, and a folder it had moved aside goes back.
    void ownTemporariesAreRemoved() {
        const fs::path dir = freshDir("protocol_own");
        const fs::path tmp = t2n::archive::siblingPath(dir / "a.nnef.tgz", "tmp");
        writeFile(tmp, "partial");
        const fs::path aside = t2n::archive::siblingPath(dir / "f.nnef", "old");
        fs::create_directory(aside);
        writeFile(aside / "graph.nnef", kOld);
        const fs::path work = dir / "t2n-check-work";
        t2n::archive::noteTemporary(work);
        fs::create_directory(work);
        t2n::removeOwnTemporaries();
        QCOMPARE(namesIn(dir), std::vector<std::string>{"f.nnef"});
        QCOMPARE(readFile(dir / "f.nnef" / "graph.nnef"), kOld);
    }

    // Publishing results together: a rename that fails puts back every
    // destination already replaced, and removes what had no predecessor.
    void publishRollsBack() {
        const fs::path dir = freshDir("protocol_rollback");
        writeFile(dir / "a.json", kOld);
        {
            t2n::PendingOutputs p;
            p.addText(dir / "a.json", "new a", Stage::Report, "report");
            p.addText(dir / "b.json", "new b", Stage::Report, "report");
            p.adopt(dir / ".never-written", dir / "c.json", false, Stage::Write);
            QVERIFY_THROWS_EXCEPTION(t2n::Error, p.publish());
        }
        QCOMPARE(readFile(dir / "a.json"), kOld);
        QCOMPARE(namesIn(dir), std::vector<std::string>{"a.json"});
        {
            t2n::PendingOutputs p;
            p.addText(dir / "a.json", "new a", Stage::Report, "report");
            p.addText(dir / "b.json", "new b", Stage::Report, "report");
        } // never published: nothing written
        QCOMPARE(readFile(dir / "a.json"), kOld);
        QCOMPARE(namesIn(dir), std::vector<std::string>{"a.json"});
        t2n::PendingOutputs p;
        p.addText(dir / "a.json", "new a", Stage::Report, "report");
        p.addText(dir / "b.json", "new b", Stage::Report, "report");
        p.publish();
        QCOMPARE(readFile(dir / "a.json"), std::string("new a"));
        QCOMPARE(readFile(dir / "b.json"), std::string("new b"));
        QCOMPARE(namesIn(dir), (std::vector<std::string>{"a.json", "b.json"}));
    }

    // An export that passes its check replaces the old archive, and the
    // report says it was written.
    void passingExportReplaces() {
        const fs::path dir = freshDir("protocol_passes");
        writeFile(dir / "out.nnef.tgz", kOld);
        t2n::Session s;
        s.load(fixtureModel(kExportedModel));
        const t2n::ExportReport r =
            s.exportModel(dir / "out.nnef.tgz", fixtureOptions(kExportedModel));
        QVERIFY(r.check.passed);
        QVERIFY(r.written);
        QVERIFY(readFile(dir / "out.nnef.tgz") != kOld);
        QCOMPARE(namesIn(dir), std::vector<std::string>{"out.nnef.tgz"});
        // What the check reports names the archive as the user knows it.
        QVERIFY(r.check.tract.find(".t2n-") == std::string::npos);
        QVERIFY(r.check.tractCommand.find(".t2n-") == std::string::npos);
    }
};

T2N_TEST_SUITE(WriteProtocolTest)
#include "tst_write_protocol.moc"
