// "Where a size froze" (issue 28): when a dynamic axis fails, the report
// lists the values that should have followed the symbol but did not, with
// their node (kind, module path, source line) and their size at both sizes.
// The translation's refusals are checked against the fixtures' own figures
// (the model's arithmetic at S=6 and S=7, written by the generator); the
// check's search against an archive exported without the dynamic axis and
// checked with it: every value it lists kept its example shape in the archive
// while TorchScript's changed.
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace t2n::test;
namespace fs = std::filesystem;

namespace {

// A full export that must fail; the session's report says where sizes froze.
t2n::FrozenSizes frozenAfterFailedExport(const QString& fixture, const fs::path& out,
                                         t2n::Error* error = nullptr) {
    t2n::Session s;
    s.load(fixtureModel(fixture));
    try {
        s.exportModel(out, fixtureOptions(fixture));
    } catch (const t2n::Error& e) {
        if (error)
            *error = e;
        // The JSON report carries the same table.
        const auto json = QJsonDocument::fromJson(QByteArray::fromStdString(s.report().toJson()));
        if (!json.object().contains("frozen_sizes") && !s.report().frozenSizes.empty())
            qWarning("the JSON report has no frozen_sizes");
        return s.report().frozenSizes;
    }
    qWarning("the export did not fail");
    return {};
}

const t2n::FrozenSize* rowReadBy(const t2n::FrozenSizes& t, const std::string& kind) {
    for (const auto& f : t.values)
        if (f.readBy.find(kind) != std::string::npos)
            return &f;
    return nullptr;
}

} // namespace

class FrozenSizesTest : public QObject {
    Q_OBJECT
    fs::path work_;

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo("err_dynamic_frozen_shift").isEmpty())
            QSKIP("fixture err_dynamic_frozen_shift not generated: run fixtures.generate");
        work_ = freshDir("frozen_sizes");
    }

    // roll(x, S - 2) needs its shift fixed: the shift is listed with its
    // value at S=6 and S=7 (the model's own arithmetic), read by the roll in
    // module `shift` at the fixture's source line.
    void translationNeedsShiftFixed() {
        t2n::Error e(t2n::Stage::Report, t2n::ErrorCode::Internal, "none");
        const auto table =
            frozenAfterFailedExport("err_dynamic_frozen_shift", work_ / "shift.nnef.tgz", &e);
        QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
        const QJsonObject want =
            fixtureInfo("err_dynamic_frozen_shift").value("expect_frozen").toObject();
        QCOMPARE(QString::fromStdString(table.exampleSizes), want.value("example").toString());
        QCOMPARE(QString::fromStdString(table.secondSizes), want.value("second").toString());
        const t2n::FrozenSize* row = rowReadBy(table, "aten::roll");
        QVERIFY2(row, "no row read by aten::roll");
        QCOMPARE(QString::fromStdString(row->atExample), want.value("at_example").toString());
        QCOMPARE(QString::fromStdString(row->atSecond), want.value("at_second").toString());
        QVERIFY2(row->archive.find("fixed at the example's") == 0, row->archive.c_str());
        const QJsonObject roll = fixtureInfo("err_dynamic_frozen_shift")
                                     .value("expect_unsupported")
                                     .toArray()
                                     .at(0)
                                     .toObject();
        QVERIFY2(row->readBy.find("shift") != std::string::npos, row->readBy.c_str());
        QVERIFY2(QString::fromStdString(row->readBy)
                     .contains(QStringLiteral(":%1").arg(roll.value("source_line").toInt())),
                 row->readBy.c_str());
        // The value's own node: in the same module, at the same line.
        QCOMPARE(QString::fromStdString(row->node.modulePath), QStringLiteral("shift"));
        QCOMPARE(row->node.sourceLine, roll.value("source_line").toInt());
        // The table's cells as every front end shows them.
        const auto cells = table.cells(*row);
        QCOMPARE(cells.size(), table.columns().size());
        QVERIFY(table.columns()[t2n::FrozenSizes::ExampleColumn].find("S=6") != std::string::npos);
        QCOMPARE(QString::fromStdString(cells[t2n::FrozenSizes::SecondColumn]),
                 want.value("at_second").toString());
    }

    // S & 4 cannot be computed in the graph: listed as such, read by the
    // slice; 4 at both sizes (6 & 4, 7 & 4).
    void translationCannotFollowMin() {
        if (fixtureInfo("err_dynamic_unfollowable").isEmpty())
            QSKIP("fixture err_dynamic_unfollowable not generated");
        const auto table =
            frozenAfterFailedExport("err_dynamic_unfollowable", work_ / "min.nnef.tgz");
        const t2n::FrozenSize* row = rowReadBy(table, "aten::slice");
        QVERIFY2(row, "no row read by aten::slice");
        QCOMPARE(QString::fromStdString(row->archive),
                 QStringLiteral("cannot be computed in the graph"));
        QCOMPARE(QString::fromStdString(row->atExample), QStringLiteral("4"));
        QCOMPARE(QString::fromStdString(row->atSecond), QStringLiteral("4"));
        QCOMPARE(QString::fromStdString(row->node.kind), QStringLiteral("aten::__and__"));
    }

    // A dynamic export that works leaves the table empty.
    void nothingFrozenWhenTheAxisFollows() {
        const QString name = "op_sym_size_arithmetic";
        if (fixtureInfo(name).isEmpty())
            QSKIP("fixture op_sym_size_arithmetic not generated");
        t2n::Session s;
        s.load(fixtureModel(name));
        const auto report = s.exportModel(work_ / "follows.nnef.tgz", fixtureOptions(name));
        QVERIFY(report.check.passed);
        QVERIFY(report.frozenSizes.empty());
        // The key, not the work folder's name (which the artifact's path holds).
        QVERIFY(!QString::fromStdString(report.toJson()).contains("\"frozen_sizes\":"));
    }

    // The check's side: an archive written without the dynamic axis has the
    // example's sizes everywhere; checked with the axis, it fails at S=7 and
    // the table names values whose archive shape is the example's while
    // TorchScript's at S=7 is not.
    void checkFindsSizesFrozenInTheArchive() {
        const QString name = "op_sym_size_arithmetic";
        if (fixtureInfo(name).isEmpty())
            QSKIP("fixture op_sym_size_arithmetic not generated");
        t2n::ExportOptions dynamic = fixtureOptions(name);
        t2n::ExportOptions fixed = dynamic;
        fixed.dynamicAxes.clear();
        const fs::path archive = work_ / "static.nnef.tgz";
        {
            t2n::Session s;
            s.load(fixtureModel(name));
            QVERIFY(s.exportModel(archive, fixed).written);
        }
        t2n::Session s;
        s.load(fixtureModel(name));
        const t2n::CheckReport& check = s.check(archive, dynamic);
        QVERIFY(!check.passed);
        const t2n::FrozenSizes& table = s.report().frozenSizes;
        QVERIFY2(!table.empty(), s.report().toJson().c_str());
        QCOMPARE(QString::fromStdString(table.secondSizes), QStringLiteral("S=7"));
        for (const auto& f : table.values) {
            QVERIFY2(!f.node.kind.empty(), f.identifier.c_str());
            QVERIFY2(f.archive != f.atSecond, f.archive.c_str());
            QVERIFY2(f.atExample != f.atSecond, f.atSecond.c_str());
            if (f.archive.rfind("fails:", 0) != 0)
                QCOMPARE(QString::fromStdString(f.archive), QString::fromStdString(f.atExample));
        }
        QVERIFY(QString::fromStdString(s.report().toJson()).contains("\"frozen_sizes\""));
    }

    /// An If whose condition follows the dynamic axis is specialised on the
    /// example; the check's failure at the second size names it, with its
    /// source line and the branch taken at each size.
    void checkNamesTheIfThatChangesBranch() {
        const QString fixture = "err_dynamic_branch_on_length";
        if (fixtureInfo(fixture).isEmpty())
            QSKIP("fixture err_dynamic_branch_on_length not generated: run fixtures.generate");
        t2n::Session s;
        s.load(fixtureModel(fixture));
        const t2n::ExportReport report =
            s.exportModel(work_ / "branch.nnef.tgz", fixtureOptions(fixture));
        QVERIFY(report.check.ran);
        QVERIFY2(!report.check.passed, "the check passed though the model branches on S");
        QVERIFY(!fs::exists(work_ / "branch.nnef.tgz"));
        const std::string line = fmt::format("symbolic_models.py:{}",
                                             fixtureInfo(fixture)["expect_source_line"].toInt());
        bool named = false;
        for (const auto& p : report.check.structureProblems)
            named = named || (p.find("the If at " + line) != std::string::npos &&
                              p.find("else branch at the example sizes and its then branch at "
                                     "S=7") != std::string::npos);
        QVERIFY2(named, qPrintable(QString::fromStdString(
                            "no problem names the If at " + line + ": " +
                            fmt::format("{}", fmt::join(report.check.structureProblems, " | ")))));
    }
};

T2N_TEST_SUITE(FrozenSizesTest)
#include "tst_frozen_sizes.moc"
