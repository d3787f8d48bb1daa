// Export options of seed 000 and the tract target: dynamic axes, custom
// extensions, properties, the target version, registries, io naming rules.
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <QRegularExpression>
#include <QTest>

using namespace t2n::test;

namespace {
struct Translated {
    QString nnef;
    t2n::ExportReport report;
};

Translated translate(const QString& fixture, const t2n::ExportOptions& options) {
    t2n::Session s;
    s.load(fixtureModel(fixture));
    s.translate(options);
    return {QString::fromStdString(s.nnefText()), s.report()};
}

QString body(const QString& nnef) {
    return nnef.mid(nnef.indexOf("\ngraph "));
}
} // namespace

class ExportOptionsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo("tv_shufflenet_v2_x0_5").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    // A dynamic batch survives: declared symbol, symbolic external shape, and
    // the reshapes of the channel shuffle take the batch from the symbol (the
    // size list is x.size(0), ...) instead of freezing the example's batch size.
    void dynamicBatch() {
        t2n::ExportOptions o = fixtureOptions("tv_shufflenet_v2_x0_5");
        o.dynamicAxes = {t2n::DynamicAxis::parse("x:0=B")};
        auto t = translate("tv_shufflenet_v2_x0_5", o);
        QVERIFY(t.nnef.contains("\nextension tract_symbol B;\n"));
        const int batch = fixtureInfo("tv_shufflenet_v2_x0_5")["inputs"][0]["shape"][0].toInt();
        QVERIFY(t.nnef.contains("  x = external<scalar>(shape = [B, 3, 64, 64]);"));
        QRegularExpression reshape(R"(= reshape\(\w+, shape = \[(-?\w+),)");
        int reshapes = 0;
        for (auto it = reshape.globalMatch(t.nnef); it.hasNext(); ++reshapes)
            QCOMPARE(it.next().captured(1), QString("B"));
        QVERIFY(reshapes > 0);
        QVERIFY2(!body(t.nnef).contains(QString("shape = [%1,").arg(batch)),
                 "a batch size was frozen");
        for (const auto& w : t.report.warnings)
            QVERIFY2(w.find("dynamic") == std::string::npos, w.c_str());
    }

    void dynamicAxisErrors_data() {
        QTest::addColumn<QString>("axis");
        QTest::newRow("not an input") << "nope:0=B";
        QTest::newRow("axis out of range") << "x:4=B";
    }
    void dynamicAxisErrors() {
        QFETCH(QString, axis);
        t2n::ExportOptions o = fixtureOptions("tv_shufflenet_v2_x0_5");
        o.dynamicAxes = {t2n::DynamicAxis::parse(axis.toStdString())};
        try {
            translate("tv_shufflenet_v2_x0_5", o);
            QFAIL("accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
        }
    }

    void extensionsAndProperties() {
        t2n::ExportOptions o = fixtureOptions("naming_blocks");
        o.customExtensions = {"tract_assert B >= 1", "extension tract_assert B <= 8;"};
        o.properties = {{"model.revision", "r42 \"beta\""}};
        o.identityProperties = false;
        auto t = translate("naming_blocks", o);
        QVERIFY(
            t.nnef.contains("extension tract_assert B >= 1;\nextension tract_assert B <= 8;\n"));
        QVERIFY(t.nnef.contains("(\"model.revision\", \"r42 'beta'\")"));
        QVERIFY(t.nnef.contains("(\"exported_model\", \"naming_blocks.pt\")"));
        for (const char* key : {"\"os\"", "\"hostname\"", "\"user\"", "\"export_date\""})
            QVERIFY2(!t.nnef.contains(key), key);

        o.identityProperties = true;
        o.stampExportDate = true;
        t = translate("naming_blocks", o);
        for (const char* key : {"\"os\"", "\"hostname\"", "\"user\""})
            QVERIFY2(t.nnef.contains(key), key);
        QVERIFY(QRegularExpression(R"("export_date", "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")")
                    .match(t.nnef)
                    .hasMatch());

        o.customExtensions = {"tract_assert {{ B }}"};
        QVERIFY_THROWS_EXCEPTION(t2n::Error, translate("naming_blocks", o));
        o.customExtensions = {};
        o.properties = {{"bad key", "v"}};
        QVERIFY_THROWS_EXCEPTION(t2n::Error, translate("naming_blocks", o));
    }

    // Operator choices follow the target version through the version table:
    // tract_core_log_softmax is in 0.21.15 (a backport) and 0.22.0, not in
    // 0.21.14 nor in 0.21.13; the version is recorded.
    void targetVersion_data() {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("native");
        QTest::newRow("0.21.13") << "0.21.13" << false;
        QTest::newRow("0.21.14") << "0.21.14" << false;
        QTest::newRow("0.21.15 backport") << "0.21.15" << true;
        QTest::newRow("0.21.17") << "0.21.17" << true;
        QTest::newRow("0.22.0") << "0.22.0" << true;
        QTest::newRow("0.23.9") << "0.23.9" << true;
    }
    void targetVersion() {
        QFETCH(QString, version);
        QFETCH(bool, native);
        t2n::ExportOptions o = fixtureOptions("op_softmax_log_neg1");
        o.target = t2n::TargetSpec::parse("tract@" + version.toStdString());
        auto pinned = translate("op_softmax_log_neg1", o);
        QCOMPARE(pinned.nnef.contains("tract_core_log_softmax("), native);
        QCOMPARE(pinned.nnef.contains("max_reduce("), !native);
        QCOMPARE(pinned.nnef.contains("extension tract_registry tract_core;"), native);
        QVERIFY(pinned.nnef.contains(QString("(\"tract_target_version\", \"%1\")").arg(version)));
        QVERIFY(pinned.report.warnings.empty());
    }

    // The default target is the newest version t2n knows.
    void defaultTargetIsNewest() {
        auto newest = translate("op_softmax_log_neg1", fixtureOptions("op_softmax_log_neg1"));
        QVERIFY(newest.nnef.contains(
            QString("(\"tract_target_version\", \"%1\")")
                .arg(QString::fromStdString(t2n::knownTractVersions().back()))));
        QCOMPARE(QString::fromStdString(t2n::knownTractVersions().back()), QString("0.23.9"));
    }

    // A registry is declared only when its operations are used.
    void registriesOnlyWhenUsed() {
        auto plain = translate("naming_blocks", fixtureOptions("naming_blocks"));
        QVERIFY(!plain.nnef.contains("extension tract_registry"));
        auto core = translate("op_act_hardswish", fixtureOptions("op_act_hardswish"));
        QVERIFY(core.nnef.contains("tract_core_hard_swish("));
        QVERIFY(core.nnef.contains("extension tract_registry tract_core;"));
    }

    void passThroughOutput() {
        t2n::ExportOptions o = fixtureOptions("op_misc_passthrough");
        auto t = translate("op_misc_passthrough", o);
        QVERIFY(t.nnef.contains("graph network(x, y) -> (output_0, output_1)"));
        QVERIFY(t.nnef.contains("  output_0 = copy(x);"));
        o.outputNames = {"x", "doubled"};
        QVERIFY_THROWS_EXCEPTION(t2n::Error, translate("op_misc_passthrough", o));
        o.allowSameIoNames = true;
        t = translate("op_misc_passthrough", o);
        QVERIFY(t.nnef.contains("graph network(x, y) -> (x, doubled)"));
        QVERIFY(!t.nnef.contains("copy("));
        QCOMPARE(t.report.warnings.size(), size_t(1));
    }

    void ioQuantityCheck() {
        t2n::ExportOptions o = fixtureOptions("op_misc_unused_input");
        try {
            translate("op_misc_unused_input", o);
            QFAIL("an input reaching no output was accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::InvalidOption);
            QVERIFY(QString::fromStdString(e.message()).contains("'unused'"));
        }
        o.checkIoNamesQuantityMatch = false;
        auto t = translate("op_misc_unused_input", o);
        QVERIFY(t.nnef.contains("graph network(x) -> (output_0)"));

        t2n::ExportOptions two = fixtureOptions("op_list_chunk_two");
        two.outputNames = {"first"};
        QVERIFY_THROWS_EXCEPTION(t2n::Error, translate("op_list_chunk_two", two));
        two.checkIoNamesQuantityMatch = false;
        t = translate("op_list_chunk_two", two);
        QVERIFY(t.nnef.contains("-> (first, output_1)"));
    }
};

T2N_TEST_SUITE(ExportOptionsTest)
#include "tst_export_options.moc"
