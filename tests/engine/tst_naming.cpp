// The four naming schemes on a model with nested named submodules
// (naming_blocks: encoder.{conv,bn,act} -> flatten -> head -> relu).
// Expected names follow the module structure written in the fixture.
#include "suite_macros.h"
#include "support.h"
#include "t2n/session.h"

#include <QRegularExpression>
#include <QTest>

using namespace t2n::test;

namespace {
// Identifiers assigned by operations (not externals or variables), in order.
QStringList opResults(const QString& nnef) {
    QStringList out;
    QRegularExpression re(R"(^\s+(\w+) = (\w+)[<(])", QRegularExpression::MultilineOption);
    for (auto it = re.globalMatch(nnef); it.hasNext();) {
        auto m = it.next();
        if (m.captured(2) != "variable" && m.captured(2) != "external")
            out << m.captured(1);
    }
    return out;
}

QStringList variableNames(const QString& nnef) {
    QStringList out;
    QRegularExpression re(R"(^\s+(\w+) = variable<)", QRegularExpression::MultilineOption);
    for (auto it = re.globalMatch(nnef); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

QString translated(t2n::NamingScheme scheme, t2n::Session& session) {
    t2n::ExportOptions options = fixtureOptions("naming_blocks");
    options.naming = scheme;
    session.load(fixtureModel("naming_blocks"));
    session.translate(options);
    return QString::fromStdString(session.nnefText());
}
} // namespace

class NamingTest : public QObject {
    Q_OBJECT

    const QStringList variables_{"encoder_conv_weight",
                                 "encoder_conv_bias",
                                 "encoder_bn_running_mean",
                                 "encoder_bn_running_var",
                                 "encoder_bn_bias",
                                 "encoder_bn_weight",
                                 "head_weight",
                                 "head_bias"};

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo("naming_blocks").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    void naturalVerbose() {
        t2n::Session s;
        QString nnef = translated(t2n::NamingScheme::NaturalVerbose, s);
        QCOMPARE(opResults(nnef),
                 QStringList({"encoder_conv__convolution", "encoder_bn__batch_norm",
                              "encoder_act__relu", "flatten", "head__linear", "output_0"}));
        QCOMPARE(variableNames(nnef), variables_);
    }

    void naturalVerboseCamel() {
        t2n::Session s;
        QString nnef = translated(t2n::NamingScheme::NaturalVerboseCamel, s);
        QCOMPARE(opResults(nnef),
                 QStringList({"encoderConvConvolution", "encoderBnBatchNorm", "encoderActRelu",
                              "flatten", "headLinear", "output_0"}));
        QCOMPARE(variableNames(nnef), variables_);
    }

    void numeric() {
        t2n::Session s;
        QString nnef = translated(t2n::NamingScheme::Numeric, s);
        QCOMPARE(opResults(nnef), QStringList({"v0", "v1", "v2", "v3", "v4", "output_0"}));
        QCOMPARE(variableNames(nnef), variables_);
    }

    // Raw names are TorchScript's own debug names of the hardened graph.
    void raw() {
        t2n::Session s;
        QString nnef = translated(t2n::NamingScheme::Raw, s);
        QString hardened = QString::fromStdString(s.hardenedText());
        QStringList results = opResults(nnef);
        QCOMPARE(results.size(), 6);
        QCOMPARE(results.last(), QString("output_0"));
        for (const QString& id : results.mid(0, 5)) {
            // sanitize(): '.' -> '_', 'v' before a leading digit
            QString debug = id;
            if (debug.startsWith('v') && debug.size() > 1 && debug[1].isDigit())
                debug = debug.mid(1);
            QRegularExpression re("%" + QRegularExpression::escape(debug).replace("_", "[._]") +
                                  R"( : )");
            QVERIFY2(re.match(hardened).hasMatch(), qPrintable(id + " is not a debug name"));
        }
        QCOMPARE(variableNames(nnef), variables_);
    }

    // Inputs and outputs keep the names the user gives, whatever the scheme.
    void ioNamesAreProtected() {
        t2n::ExportOptions options = fixtureOptions("naming_blocks");
        options.naming = t2n::NamingScheme::Numeric;
        options.inputNames = {"image"};
        options.outputNames = {"logits"};
        t2n::Session s;
        s.load(fixtureModel("naming_blocks"));
        s.translate(options);
        QString nnef = QString::fromStdString(s.nnefText());
        QVERIFY(nnef.contains("graph network(image) -> (logits)"));
        QVERIFY(nnef.contains("  image = external<scalar>(shape = [2, 3, 6, 5]);"));
        QVERIFY(nnef.contains("  logits = relu(v4);"));
    }
};

T2N_TEST_SUITE(NamingTest)
#include "tst_naming.moc"
