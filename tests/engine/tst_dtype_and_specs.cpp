// Parsing of what users type: NAME:SHAPE:DTYPE, NAME:AXIS=SYMBOL,
// tract@X.Y.Z, naming schemes; and NNEF identifier sanitizing.
#include "nnef/identifiers.h"
#include "suite_macros.h"
#include "t2n/error.h"
#include "t2n/input_spec.h"
#include "t2n/options.h"
#include "target/tract_target.h"

#include <QTest>

class DTypeAndSpecsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void inputSpec_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical"); // empty: must be refused
        QTest::newRow("image") << "input:1x3x224x224:f32"
                               << "input:1x3x224x224:f32";
        QTest::newRow("default dtype") << "x:2x5"
                                       << "x:2x5:f32";
        QTest::newRow("int64 tokens") << "ids:1x7:i64"
                                      << "ids:1x7:i64";
        QTest::newRow("bool mask") << "mask:4:bool"
                                   << "mask:4:bool";
        QTest::newRow("scalar") << "t:scalar:f64"
                                << "t:scalar:f64";
        // An empty shape is a typo, not a scalar: 'scalar' says so (issue 12).
        QTest::newRow("empty shape") << "t::i32"
                                     << "";
        QTest::newRow("zero dim") << "e:0x3:f16"
                                  << "e:0x3:f16";
        QTest::newRow("no shape") << "x"
                                  << "";
        QTest::newRow("bad dim") << "x:1xAx3:f32"
                                 << "";
        QTest::newRow("negative dim") << "x:1x-3:f32"
                                      << "";
        QTest::newRow("bad dtype") << "x:1x3:float32"
                                   << "";
        QTest::newRow("empty name") << ":1x3:f32"
                                    << "";
        QTest::newRow("too many fields") << "x:1:f32:extra"
                                         << "";
    }
    void inputSpec() {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        if (canonical.isEmpty()) {
            try {
                t2n::InputSpec::parse(text.toStdString());
                QFAIL("a bad spec was accepted");
            } catch (const t2n::Error& e) {
                QCOMPARE(e.code(), t2n::ErrorCode::Usage);
                QVERIFY(QString::fromStdString(e.message()).contains(text));
                QVERIFY(QString::fromStdString(e.hint()).contains("NAME:SHAPE:DTYPE"));
            }
            return;
        }
        QCOMPARE(QString::fromStdString(t2n::InputSpec::parse(text.toStdString()).toString()),
                 canonical);
    }

    void dynamicAxis() {
        auto d = t2n::DynamicAxis::parse("input:0=B");
        QCOMPARE(QString::fromStdString(d.tensor), "input");
        QCOMPARE(d.axis, 0);
        QCOMPARE(QString::fromStdString(d.symbol), "B");
        QCOMPARE(t2n::DynamicAxis::parse("audio:-1=S_1").axis, -1);
        for (const char* bad : {"input0=B", "input:x=B", "input:0=", "input:0=1B", ":0=B"})
            QVERIFY_THROWS_EXCEPTION(t2n::Error, t2n::DynamicAxis::parse(bad));
    }

    void targetVersions() {
        QCOMPARE(QString::fromStdString(t2n::TargetSpec::parse("tract").toString()),
                 QString::fromStdString("tract@" + t2n::knownTractVersions().back()));
        QCOMPARE(QString::fromStdString(t2n::TargetSpec::parse("tract@v0.21.13").version),
                 "0.21.13");
        for (const char* bad : {"onnx", "tract@0.21", "tract@x.y.z", "tract@"})
            QVERIFY_THROWS_EXCEPTION(t2n::Error, t2n::TargetSpec::parse(bad));
        using t2n::target::SemVer;
        QVERIFY(SemVer::parse("0.21.13") < SemVer::parse("0.21.14"));
        QVERIFY(SemVer::parse("0.22.0") > SemVer::parse("0.21.15"));
        QVERIFY(SemVer::parse("v0.23.6-pre") == SemVer::parse("0.23.6"));
        // An unknown version works with a warning; a too old one is refused.
        t2n::TargetSpec spec = t2n::TargetSpec::parse("tract@0.24.0");
        QVERIFY(!t2n::target::TractTarget(spec).versionWarning().empty());
        QVERIFY(t2n::target::TractTarget(t2n::TargetSpec::parse("tract@0.22.0"))
                    .versionWarning()
                    .empty());
        QVERIFY_THROWS_EXCEPTION(t2n::Error,
                                 t2n::target::TractTarget(t2n::TargetSpec::parse("tract@0.17.0")));
    }

    void namingSchemes() {
        for (const char* n : {"raw", "natural_verbose", "natural_verbose_camel", "numeric"}) {
            auto s = t2n::parseNamingScheme(n);
            QVERIFY(s.has_value());
            QCOMPARE(QString::fromStdString(std::string(t2n::namingSchemeName(*s))), n);
        }
        QVERIFY(!t2n::parseNamingScheme("camel").has_value());
    }

    void identifiers_data() {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("plain") << "conv1"
                               << "conv1";
        QTest::newRow("dots") << "features.0.weight"
                              << "features_0_weight";
        QTest::newRow("digit start") << "9"
                                     << "v9";
        QTest::newRow("debug name") << "input.3"
                                    << "input_3";
        QTest::newRow("keyword") << "graph"
                                 << "graph_";
        QTest::newRow("keyword scalar") << "scalar"
                                        << "scalar_";
        QTest::newRow("empty") << ""
                               << "v";
        QTest::newRow("unicode") << "poids\xc3\xa9"
                                 << "poids__";
    }
    void identifiers() {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(t2n::nnef::sanitizeIdentifier(in.toStdString())), out);
    }

    void identifierPool() {
        t2n::nnef::IdentifierPool pool;
        QVERIFY(pool.reserve("output_0"));
        QCOMPARE(QString::fromStdString(pool.make("relu")), "relu");
        QCOMPARE(QString::fromStdString(pool.make("relu")), "relu_1");
        QCOMPARE(QString::fromStdString(pool.make("output_0")), "output_0_1");
        t2n::nnef::IdentifierPool numeric(true);
        QCOMPARE(QString::fromStdString(numeric.make("conv")), "v0");
        QCOMPARE(QString::fromStdString(numeric.make("relu")), "v1");
        QCOMPARE(QString::fromStdString(numeric.makeNamed("fc.weight")), "fc_weight");
    }
};

T2N_TEST_SUITE(DTypeAndSpecsTest)
#include "tst_dtype_and_specs.moc"
