// Semantic bisect through Session::bisectHardening on the silero-vad-like
// scripted model, where most passes of the chain rewrite something: no pass
// is named when the chain is right, and the pass the test hook perturbs is
// named when one is made wrong on purpose.
#include "suite_macros.h"
#include "support.h"
#include "t2n/session.h"

#include <QTest>

using namespace t2n::test;

namespace {
const QString kScriptedVadLike = "scripted_vad_like";

t2n::BisectReport bisect(const std::string& perturbAfter) {
    t2n::Session s;
    s.load(fixtureModel(kScriptedVadLike));
    auto o = fixtureOptions(kScriptedVadLike);
    o.harden.perturbAfter = perturbAfter;
    return s.bisectHardening(o);
}

// Passes of a correct run that rewrote something (the bisect must cover real work).
int activePasses(const QString& model) {
    t2n::Session s;
    s.load(fixtureModel(model));
    auto o = fixtureOptions(model);
    o.harden.snapshots = false;
    s.harden(o);
    int n = 0;
    for (const auto& r : s.report().harden.passes)
        n += r.total() > 0 ? 1 : 0;
    return n;
}
} // namespace

class SemanticBisectTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo(kScriptedVadLike).isEmpty())
            QSKIP("no scripted fixtures: run the fixtures.generate test first");
    }

    /// A correct chain: every pass that ran is listed, none changed the numbers.
    void correctChainNamesNoPass() {
        QVERIFY(activePasses(kScriptedVadLike) >= 4);
        auto r = bisect("");
        QCOMPARE(r.firstChanged, -1);
        QVERIFY(r.steps.size() >= 10);
        for (const auto& step : r.steps) {
            QVERIFY2(step.error.empty(), step.error.c_str());
            QVERIFY(!step.outputs.empty());
            for (const auto& o : step.outputs)
                QVERIFY2(!o.changed && o.maxAbsDiff < 1e-4,
                         qPrintable(QString::fromStdString(step.pass + " " + o.name)));
        }
        QVERIFY(r.summary().find("no pass changed") != std::string::npos);
    }

    /// A pass made wrong through the test hook (first output x1.5) is the one named,
    /// in every position of the chain; the passes before it are unchanged.
    void perturbedPassIsNamed_data() {
        QTest::addColumn<QString>("pass");
        QTest::newRow("first") << "freeze_module";
        QTest::newRow("folding group") << "fold_constant_ifs";
        QTest::newRow("last") << "eliminate_dead_code";
    }
    void perturbedPassIsNamed() {
        QFETCH(QString, pass);
        auto r = bisect(pass.toStdString());
        QVERIFY(r.first());
        QCOMPARE(QString::fromStdString(r.first()->pass), pass);
        QVERIFY(r.first()->round <= 1);
        QVERIFY(r.first()->outputs.at(0).changed);
        QVERIFY(r.first()->outputs.at(0).maxAbsDiff > 0);
        for (int i = 0; i < r.firstChanged; ++i)
            QVERIFY(!r.steps[static_cast<size_t>(i)].changed);
        // Once wrong, the later passes carry the change along.
        QVERIFY(r.steps.back().changed);
        QVERIFY(r.summary().starts_with(pass.toStdString()));
    }

    /// An unknown pass name for the hook is a usage error, not a silent no-op.
    void unknownHookPassRefused() {
        try {
            bisect("no_such_pass");
            QFAIL("accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Usage);
        }
    }
};

T2N_TEST_SUITE(SemanticBisectTest)
#include "tst_semantic_bisect.moc"
