// Cancel and progress through Session::exportModel: an observer that asks to
// cancel at a chosen poll of a chosen stage stops the export there with
// ErrorCode::Cancelled, and nothing is left in the output folder; without a
// cancel every long stage reports fractions from 0 to 1.
#include "suite_macros.h"
#include "support.h"
#include "t2n/session.h"

#include <QTest>

#include <map>
#include <optional>

using namespace t2n::test;
using t2n::Stage;

namespace {
const QString kCancelledModel = "naming_blocks";

class Canceller : public t2n::Observer {
public:
    Canceller() = default;
    Canceller(Stage stage, int afterPolls) : cancelIn_(stage), afterPolls_(afterPolls) {}

    void stageStarted(Stage s) override { current_ = s; }
    void progress(Stage s, double f, const std::string&) override { fractions[s].push_back(f); }
    bool cancelRequested() override {
        if (!cancelIn_ || *cancelIn_ != current_)
            return false;
        return polls_++ >= afterPolls_;
    }
    int polls() const { return polls_; }

    std::map<Stage, std::vector<double>> fractions;

private:
    std::optional<Stage> cancelIn_;
    int afterPolls_ = 0;
    Stage current_ = Stage::Report;
    int polls_ = 0;
};

std::vector<std::string> filesIn(const std::filesystem::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        out.push_back(e.path().string());
    return out;
}
} // namespace

Q_DECLARE_METATYPE(t2n::Stage)

class CancelProgressTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo(kCancelledModel).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    /// A cancel at the first poll of load stops the load: no model in the session.
    void cancelDuringLoad() {
        Canceller c(Stage::Load, 0);
        t2n::Session s(&c);
        try {
            s.load(fixtureModel(kCancelledModel));
            QFAIL("not cancelled");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Cancelled);
            QCOMPARE(e.stage(), Stage::Load);
        }
        QVERIFY_THROWS_EXCEPTION(t2n::Error, s.torchScriptText());
    }

    /// A cancel at the first or a later poll of each stage stops the export in that
    /// stage; the output folder stays empty (no archive, no temporary file).
    void cancelEachStage_data() {
        QTest::addColumn<Stage>("stage");
        QTest::addColumn<int>("afterPolls");
        QTest::newRow("harden, before the first pass") << Stage::Harden << 0;
        QTest::newRow("harden, between passes") << Stage::Harden << 3;
        QTest::newRow("trace") << Stage::Trace << 0;
        QTest::newRow("trace, after the run") << Stage::Trace << 1;
        QTest::newRow("translate") << Stage::Translate << 0;
        QTest::newRow("write, first block") << Stage::Write << 0;
        QTest::newRow("write, later block") << Stage::Write << 2;
        QTest::newRow("check") << Stage::Check << 0;
        QTest::newRow("check, after the reference run") << Stage::Check << 2;
        QTest::newRow("check, last step") << Stage::Check << 5;
    }
    void cancelEachStage() {
        QFETCH(Stage, stage);
        QFETCH(int, afterPolls);
        auto dir = freshDir("cancel");
        Canceller c(stage, afterPolls);
        t2n::Session s(&c);
        s.load(fixtureModel(kCancelledModel));
        try {
            s.exportModel(dir / "out.nnef.tgz", fixtureOptions(kCancelledModel));
            QFAIL("not cancelled");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Cancelled);
            QCOMPARE(e.stage(), stage);
        }
        QCOMPARE(c.polls(), afterPolls + 1); // polled exactly up to the cancel
        QCOMPARE(filesIn(dir), std::vector<std::string>{});
    }

    /// Without a cancel, trace, translate, write and check report fractions in [0, 1]
    /// that never go back and end at 1; the hardening chain reports each pass.
    void progressFractions() {
        auto dir = freshDir("progress");
        Canceller c;
        t2n::Session s(&c);
        s.load(fixtureModel(kCancelledModel));
        s.exportModel(dir / "out.nnef.tgz", fixtureOptions(kCancelledModel));
        for (Stage st : {Stage::Trace, Stage::Translate, Stage::Write, Stage::Check}) {
            const auto& f = c.fractions[st];
            QVERIFY2(f.size() >= 2, std::string(t2n::stageName(st)).c_str());
            for (size_t i = 0; i < f.size(); ++i) {
                QVERIFY(f[i] >= 0 && f[i] <= 1);
                if (i > 0)
                    QVERIFY(f[i] >= f[i - 1]);
            }
            QCOMPARE(f.back(), 1.0);
        }
        QCOMPARE(
            c.fractions[Stage::Harden].size(), s.report().harden.passes.size() - [&] {
                size_t n = 0;
                for (const auto& r : s.report().harden.passes)
                    n += r.skipped ? 1 : 0;
                return n;
            }());
    }
};

T2N_TEST_SUITE(CancelProgressTest)
#include "tst_cancel_progress.moc"
