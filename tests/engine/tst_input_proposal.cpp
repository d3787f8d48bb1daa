// The inputs t2n proposes when none are given (Session::proposeInputs): for
// the proposal fixtures, the facts their authors wrote down (dtype, rank,
// the sizes the first operations fix, an embedding's id range, lengths equal
// to the sequence, defaults kept, a size its flatten + linear head demands
// after the first common one is refused) or the refusal's words; for the
// bundled sample, its channels; for every torchvision fixture, the channels it was traced with.
// Each proposal is confirmed by a run of the model. Also the LO..HI range spec that proposed ids
// use, in text, recipes and the values drawn.
#include "load/module_loader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/recipe.h"
#include "t2n/session.h"

#include <QJsonArray>
#include <QTest>

using namespace t2n::test;

namespace {
QString dtypeText(t2n::DType t) {
    return QString::fromLatin1(t2n::dtypeName(t).data());
}

const t2n::ProposedInput* inputNamed(const t2n::InputProposal& p, const QString& name) {
    for (const auto& i : p.inputs)
        if (QString::fromStdString(i.spec.name) == name)
            return &i;
    return nullptr;
}

QString everything(const t2n::Error& e) {
    QString s = QString::fromStdString(e.render());
    for (const auto& d : e.details())
        s += QLatin1Char('\n') + QString::fromStdString(d.message);
    return s;
}
} // namespace

class InputProposalTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureNames(QStringLiteral("proposal")).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    void fixtures_data() {
        QTest::addColumn<QString>("name");
        for (const QString& n : fixtureNames(QStringLiteral("proposal")))
            QTest::newRow(n.toUtf8().constData()) << n;
    }

    /// Each proposal fixture: the facts its json expects, or the refusal.
    void fixtures() {
        QFETCH(QString, name);
        const QJsonObject expect = fixtureInfo(name).value("expect").toObject();
        t2n::Session session;
        session.load(fixtureModel(name));
        if (expect.contains("error")) {
            try {
                session.proposeInputs();
                QFAIL("a proposal was made");
            } catch (const t2n::Error& e) {
                QCOMPARE(e.code(), t2n::ErrorCode::Usage);
                const QString text = everything(e);
                for (const auto& word : expect.value("error").toArray())
                    QVERIFY2(text.contains(word.toString()), qPrintable(text));
            }
            return;
        }
        const t2n::InputProposal p = session.proposeInputs();
        QVERIFY(p.confirmed);
        QVERIFY(!p.attempts.empty() && p.attempts.back().ran);
        for (auto it = expect.begin(); it != expect.end(); ++it) {
            if (it.key() == "defaulted") {
                QStringList defaulted;
                for (const auto& d : p.defaulted)
                    defaulted << QString::fromStdString(d);
                for (const auto& want : it.value().toArray())
                    QVERIFY2(defaulted.join(' ').contains(want.toString() + " (default"),
                             qPrintable(defaulted.join(' ')));
                QCOMPARE(p.inputs.size(), size_t(1));
                continue;
            }
            const t2n::ProposedInput* in = inputNamed(p, it.key());
            QVERIFY2(in, qPrintable(it.key()));
            const QJsonObject want = it.value().toObject();
            QCOMPARE(dtypeText(in->spec.dtype), want.value("dtype").toString());
            QCOMPARE(static_cast<int>(in->spec.shape.size()), want.value("rank").toInt());
            const QJsonObject dims = want.value("dims").toObject();
            for (auto d = dims.begin(); d != dims.end(); ++d)
                QCOMPARE(in->spec.shape.at(d.key().toUInt()), d.value().toInteger());
            if (want.contains("range_high")) {
                QVERIFY(in->spec.randomRange);
                QCOMPARE(in->spec.randomRange->low, 0);
                QCOMPARE(in->spec.randomRange->high, want.value("range_high").toInteger());
            }
            // The first common size was refused by the model, with its reason.
            if (want.value("refused_first").toBool()) {
                QVERIFY(p.attempts.size() >= 2);
                QVERIFY(!p.attempts.front().ran && !p.attempts.front().error.empty());
            }
            if (want.contains("equals_axis")) {
                const QJsonArray axis = want.value("equals_axis").toArray();
                const t2n::ProposedInput* other = inputNamed(p, axis.at(0).toString());
                QVERIFY(other);
                QCOMPARE(in->spec.values.size(), size_t(1));
                QCOMPARE(static_cast<int64_t>(in->spec.values[0]),
                         other->spec.shape.at(axis.at(1).toInt()));
            }
            QVERIFY(!in->reason.empty());
        }
    }

    /// The bundled sample: its first convolution's 3 channels, at the first
    /// common size (it pools adaptively), and it exports with them.
    void sampleExportsWithItsProposal() {
        t2n::Session session;
        session.load(sourceDir() / "resources/sample/sample_cnn.pt");
        const t2n::InputProposal p = session.proposeInputs();
        QVERIFY(p.confirmed);
        QCOMPARE(p.inputs.size(), size_t(1));
        QCOMPARE(QString::fromStdString(p.inputs[0].spec.toString()),
                 QStringLiteral("image:1x3x224x224:f32"));
        QCOMPARE(QString::fromStdString(p.flags()),
                 QStringLiteral("--input image:1x3x224x224:f32"));
        QVERIFY2(QString::fromStdString(p.inputs[0].reason).contains("3 channel(s) read by conv2d"),
                 p.inputs[0].reason.c_str());
        t2n::ExportOptions o;
        o.inputs = p.specs();
        QVERIFY(session.trace(o).nodes.size() > 0);
    }

    void torchvision_data() {
        QTest::addColumn<QString>("name");
        for (const QString& n : fixtureNames(QStringLiteral("torchvision")))
            QTest::newRow(n.toUtf8().constData()) << n;
    }

    /// Every torchvision network: an image of the channels it was traced with.
    void torchvision() {
        QFETCH(QString, name);
        const QJsonArray traced =
            fixtureInfo(name).value("inputs").toArray().at(0).toObject().value("shape").toArray();
        t2n::Session session;
        session.load(fixtureModel(name));
        const t2n::InputProposal p = session.proposeInputs();
        QVERIFY(p.confirmed);
        QCOMPARE(p.inputs.size(), size_t(1));
        const auto& shape = p.inputs[0].spec.shape;
        QCOMPARE(static_cast<int>(shape.size()), static_cast<int>(traced.size()));
        QCOMPARE(shape.at(1), traced.at(1).toInteger());
        QCOMPARE(p.inputs[0].spec.dtype, t2n::DType::F32);
    }

    /// NAME:SHAPE:DTYPE=LO..HI: parsed, printed back, kept by recipes,
    /// refused where it means nothing, and the values drawn stay in it.
    void integerRangeSpec() {
        const auto s = t2n::InputSpec::parse("ids:2x500:i64=3..7");
        QVERIFY(s.randomRange);
        QCOMPARE(s.randomRange->low, 3);
        QCOMPARE(s.randomRange->high, 7);
        QCOMPARE(QString::fromStdString(s.toString()), QStringLiteral("ids:2x500:i64=3..7"));
        for (const char* bad :
             {"x:1x4:f32=0..9", "x:4:i64=5..2", "x:4:i8=0..300", "x:4:i64=a..9", "x:4:bool=0..1"}) {
            try {
                t2n::InputSpec::parse(bad);
                QFAIL(bad);
            } catch (const t2n::Error& e) {
                QCOMPARE(e.code(), t2n::ErrorCode::Usage);
            }
        }
        t2n::ExportRecipe r;
        r.model = "m.pt";
        r.output = "m.nnef.tgz";
        r.options.inputs = {s};
        const t2n::ExportRecipe back = t2n::recipeFromJson(t2n::toJson(r));
        QCOMPARE(back.options.inputs.at(0), s);
        const auto t = t2n::load::makeExampleInputs({s}, 11).at(0);
        QCOMPARE(t.min().item<int64_t>(), 3);
        QCOMPARE(t.max().item<int64_t>(), 7);
    }
};

T2N_TEST_SUITE(InputProposalTest)
#include "tst_input_proposal.moc"
