// The check catches a broken archive and names what broke: for several
// fixtures, one edit of the written archive (a weight byte, an operator, a
// stride, an axis) must fail the check with the first diverging operation
// being exactly the edited one.
#include "suite_macros.h"
#include "support.h"
#include "t2n/session.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace t2n::test;
namespace fs = std::filesystem;

namespace {

// Replaces `from` by `to` in the statement that assigns `identifier`.
bool editStatement(const fs::path& graph, const QString& identifier, const QString& from,
                   const QString& to) {
    QFile f(QString::fromStdString(graph.string()));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    f.close();
    bool done = false;
    for (QString& line : lines)
        if (!done && line.startsWith("  " + identifier + " = ") && line.contains(from)) {
            line.replace(from, to);
            done = true;
        }
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    f.write(lines.join('\n').toUtf8());
    return done;
}

// Flips the top bit of the exponent of the first element of an f32 .dat: a
// change no tolerance forgives.
bool flipWeightByte(const fs::path& dat) {
    QFile f(QString::fromStdString(dat.string()));
    if (!f.open(QIODevice::ReadWrite) || f.size() < 132)
        return false;
    f.seek(128 + 3);
    char c = 0;
    f.getChar(&c);
    f.seek(128 + 3);
    f.putChar(static_cast<char>(c ^ 0x40));
    return true;
}

} // namespace

class CheckMutationsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo("tv_resnet18").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    void mutationIsCaughtAndNamed_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>(
            "identifier");                 // the edited statement, also the expected divergence
        QTest::addColumn<QString>("from"); // text edited in that statement; "" = weight byte
        QTest::addColumn<QString>("to");   // or the .dat file
        QTest::addColumn<QString>("operation");
        QTest::newRow("resnet18 weight byte") << "tv_resnet18"
                                              << "layer1_0_conv1_weight"
                                              << ""
                                              << "layer1.0.conv1.weight.dat"
                                              << "variable";
        QTest::newRow("naming weight byte") << "naming_blocks"
                                            << "head_weight"
                                            << ""
                                            << "head.weight.dat"
                                            << "variable";
        QTest::newRow("resnet18 swapped operator") << "tv_resnet18"
                                                   << "layer2_0_relu__relu"
                                                   << "relu("
                                                   << "sigmoid("
                                                   << "sigmoid";
        QTest::newRow("naming swapped operator") << "naming_blocks"
                                                 << "encoder_act__relu"
                                                 << "relu("
                                                 << "tanh("
                                                 << "tanh";
        QTest::newRow("mobilenet wrong clamp bound") << "tv_mobilenet_v2"
                                                     << "features_1_conv_0_2__hardtanh"
                                                     << "0.0, 6.0)"
                                                     << "0.0, 1.0)"
                                                     << "clamp";
        QTest::newRow("naming wrong stride") << "naming_blocks"
                                             << "encoder_conv__convolution"
                                             << "stride = [1, 1]"
                                             << "stride = [2, 2]"
                                             << "conv";
        QTest::newRow("resnet18 wrong stride") << "tv_resnet18"
                                               << "layer3_0_conv1__convolution"
                                               << "stride = [2, 2]"
                                               << "stride = [1, 1]"
                                               << "conv";
        QTest::newRow("softmax wrong axis") << "op_softmax_neg1"
                                            << "output_0"
                                            << "axes = [2]"
                                            << "axes = [1]"
                                            << "softmax";
        QTest::newRow("squeezenet wrong concat axis") << "tv_squeezenet1_1"
                                                      << "features_3__cat"
                                                      << "axis = 1"
                                                      << "axis = 2"
                                                      << "concat";
    }
    void mutationIsCaughtAndNamed() {
        QFETCH(QString, fixture);
        QFETCH(QString, identifier);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, operation);
        fs::path dir = freshDir("mutations_" + fixture);
        fs::path archive = dir / "model.nnef";

        t2n::ExportOptions options = fixtureOptions(fixture);
        options.compressionLevel.reset(); // a folder, to edit in place
        options.check = false;
        {
            t2n::Session s;
            s.load(fixtureModel(fixture));
            s.exportModel(archive, options);
        }
        if (from.isEmpty())
            QVERIFY(flipWeightByte(archive / to.toStdString()));
        else
            QVERIFY2(editStatement(archive / "graph.nnef", identifier, from, to),
                     "the statement to edit was not found");

        t2n::Session s;
        s.load(fixtureModel(fixture));
        const t2n::CheckReport& check = s.check(archive, options);
        QVERIFY(check.ran);
        QVERIFY(!check.passed);
        QVERIFY2(check.diverged, "no diverging operation was named");
        QCOMPARE(QString::fromStdString(check.divergence.identifier), identifier);
        QCOMPARE(QString::fromStdString(check.divergence.operation), operation);
        QVERIFY(check.divergence.nnefLine > 0);
        QVERIFY(!check.divergence.detail.empty());
        // The node it stands for is named too (for operations: kind and module path).
        QVERIFY(!check.divergence.node.kind.empty());
    }

    // With every value compared, the edited operation is the only one out of
    // tolerance (each operation is fed TorchScript's operands, so the error
    // does not travel downstream), the values come in graph order, and the
    // divergence is still named.
    void everyValueLocatesTheEdit() {
        const QString fixture = "naming_blocks", identifier = "encoder_act__relu";
        fs::path dir = freshDir("mutations_every_value");
        fs::path archive = dir / "model.nnef";
        t2n::ExportOptions options = fixtureOptions(fixture);
        options.compressionLevel.reset();
        options.check = false;
        {
            t2n::Session s;
            s.load(fixtureModel(fixture));
            s.exportModel(archive, options);
        }
        options.checkEveryValue = true;
        {
            t2n::Session s;
            s.load(fixtureModel(fixture));
            const t2n::CheckReport& clean = s.check(archive, options);
            QVERIFY(clean.passed);
            QVERIFY(clean.valueErrors.size() > 3);
            for (const auto& v : clean.valueErrors)
                QVERIFY2(v.ok && v.relative < 1e-4, v.identifier.c_str());
        }
        QVERIFY(editStatement(archive / "graph.nnef", identifier, "relu(", "tanh("));
        t2n::Session s;
        s.load(fixtureModel(fixture));
        const t2n::CheckReport& check = s.check(archive, options);
        QVERIFY(!check.passed);
        QCOMPARE(QString::fromStdString(check.divergence.identifier), identifier);
        int bad = 0, previousLine = 0;
        for (const auto& v : check.valueErrors) {
            QVERIFY(v.nnefLine >= previousLine);
            previousLine = v.nnefLine;
            if (v.ok)
                continue;
            ++bad;
            QCOMPARE(QString::fromStdString(v.identifier), identifier);
            QCOMPARE(QString::fromStdString(v.operation), QString("tanh"));
            QVERIFY(v.maxAbs > 1e-3);
        }
        QCOMPARE(bad, 1);
    }

    // The unedited export passes: the mutations above are what fails.
    void untouchedExportPasses() {
        fs::path dir = freshDir("mutations_clean");
        t2n::ExportOptions options = fixtureOptions("tv_resnet18");
        t2n::Session s;
        s.load(fixtureModel("tv_resnet18"));
        auto report = s.exportModel(dir / "model.nnef.tar", options);
        QVERIFY(report.check.passed);
        QVERIFY(!report.check.diverged);
    }
};

T2N_TEST_SUITE(CheckMutationsTest)
#include "tst_check_mutations.moc"
