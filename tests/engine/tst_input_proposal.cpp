// The inputs t2n proposes when none are given (Session::proposeInputs): for
// the proposal fixtures, the facts their authors wrote down (dtype, rank,
// the sizes the first operations fix, an embedding's id range, lengths equal
// to the sequence, defaults kept, a size its flatten + linear head demands
// after the first common one is refused) or the refusal's words; for the
// bundled sample, its channels; for every torchvision fixture, the channels it was traced with.
// Each proposal is confirmed by a run of the model. Also the LO..HI range spec that proposed ids
// use, in text, recipes and the values drawn.
#include "load/input_feedback.h"
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
            // A number: the value proposed.
            if (want.contains("value")) {
                QCOMPARE(in->spec.values.size(), size_t(1));
                QCOMPARE(in->spec.values[0], want.value("value").toDouble());
            }
            // Sides solved for a flatten + linear: C*H*W/16 features (two 2x2 pools, 8 channels
            // from 3: the fixture's numbers).
            if (want.contains("flattened")) {
                const auto& s = in->spec.shape;
                QCOMPARE(8 * (s.at(2) / 4) * (s.at(3) / 4), want.value("flattened").toInteger());
            }
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

    /// What a failed candidate's error says, read back into corrected
    /// candidates: each rule on the words LibTorch or a model writes.
    void feedback_data() {
        QTest::addColumn<QString>("error");
        QTest::addColumn<QStringList>("specs");
        QTest::addColumn<QString>("first"); // the first correction, all inputs
        QTest::newRow("lstm input size")
            << "RuntimeError: input.size(-1) must be equal to input_size. Expected 47, got 16"
            << QStringList{"x:1x16"} << "x:1x47:f32";
        QTest::newRow("mat1 and mat2")
            << "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x16 and 4x10)"
            << QStringList{"input:1x16"} << "input:1x4:f32";
        QTest::newRow("mat1 and mat2 of a sequence")
            << "RuntimeError: mat1 and mat2 shapes cannot be multiplied (16x16 and 10x384)"
            << QStringList{"feature:1x16x16", "length:1:i64=16"}
            << "feature:1x16x10:f32 length:1:i64=16";
        // 32 channels x (224/4)^2 = 100352; 4000 = 32 x 5 x 25: sides 20 x 100.
        QTest::newRow("flatten solved for the sides")
            << "RuntimeError: prepacked linear expects 4000 input features (its weight is "
               "64x4000) but the input has shape [1, 100352]"
            << QStringList{"x:1x3x224x224"} << "x:1x3x20x100:f32";
        // ViT patches of 7x7 pixels x 3 channels where 1 channel (49) is read.
        QTest::newRow("channels scaled")
            << "RuntimeError: quantized linear expects 49 input features (its weight is 64x49) "
               "but the input has shape [1, 16, 147]"
            << QStringList{"img:1x3x28x28"} << "img:1x1x28x28:f32";
        QTest::newRow("conv channels")
            << "RuntimeError: Given groups=1, weight of size [16, 3, 3, 3], expected input[1, 1, "
               "16, 16] to have 3 channels, but got 1 channels instead"
            << QStringList{"x:1x1x16x16"} << "x:1x3x16x16:f32";
        QTest::newRow("guard channels through an unsqueeze")
            << "RuntimeError: prepacked convolution expects 6 input channels (weight [32, 6, 1, "
               "1], 1 group(s)) but the input has shape [1, 3, 1, 224, 224]"
            << QStringList{"x:1x3x224x224"} << "x:1x6x224x224:f32";
        QTest::newRow("asserted sizes")
            << "AssertionError: Input should be a 3d torch tensor, with sizes [*, 10, 3]. Actual "
               "sizes: [1, 3, 32, 32]"
            << QStringList{"input:1x3x32x32"} << "input:1x10x3:f32";
        QTest::newRow("recurrent state")
            << "RuntimeError: Expected hidden[0] size (1, 1, 64), got [1, 3, 224, 224]"
            << QStringList{"x:1x1x11", "h:1x3x224x224", "c:1x3x224x224"}
            << "x:1x1x11:f32 h:1x1x64:f32 c:1x1x64:f32";
        QTest::newRow("state of another rank")
            << "RuntimeError: For batched 3-D input, hx and cx should also be 3-D but got (4-D, "
               "2-D) tensors"
            << QStringList{"x:1x1x11", "h:1x3x224x224", "c:1x16"}
            << "x:1x1x11:f32 h:1x1x224:f32 c:1x1x16:f32";
        QTest::newRow("an axis beyond the rank")
            << "RuntimeError: Dimension out of range (expected to be in range of [-3, 2], but "
               "got 3)"
            << QStringList{"x:1x16x8"} << "x:1x16x16x8:f32";
        QTest::newRow("integers") << "RuntimeError: Cannot input a tensor of type Float as an "
                                     "integral argument"
                                  << QStringList{"ids:1x16"} << "ids:1x16:i64";
        QTest::newRow("broadcast")
            << "RuntimeError: The size of tensor a (20) must match the size of tensor b (16) at "
               "non-singleton dimension 0"
            << QStringList{"input:16"} << "input:20:f32";
        QTest::newRow("cat beside a cache")
            << "RuntimeError: Sizes of tensors must match except in dimension 2. Expected size 3 "
               "but got size 2 for tensor number 1 in the list."
            << QStringList{"ids:1x16:i64=0..15", "past_k:1x3x32x32", "past_v:1x3x32x32"}
            << "ids:1x16:i64=0..15 past_k:1x2x32x32:f32 past_v:1x2x32x32:f32";
        // The numbers of the model's own words; the int argument stays.
        QTest::newRow("numbers named by the error")
            << "ValueError: Provided number of samples is 16 (Supported values: 256 for 8000 "
               "sample rate, 512 for 16000)"
            << QStringList{"x:1x16", "sr:scalar:i64=16000"} << "x:1x256:f32 sr:scalar:i64=16000";
        QTest::newRow("nothing said")
            << "RuntimeError: expected 37 features" << QStringList{"x:1x16"} << "";
    }

    void feedback() {
        QFETCH(QString, error);
        QFETCH(QStringList, specs);
        QFETCH(QString, first);
        std::vector<t2n::InputSpec> in;
        std::vector<bool> adjustable;
        for (const QString& s : specs) {
            in.push_back(t2n::InputSpec::parse(s.toStdString()));
            adjustable.push_back(in.back().values.empty());
        }
        const auto out = t2n::load::correctionsFromError(error.toStdString(), in, adjustable);
        if (first.isEmpty()) {
            QVERIFY(out.empty());
            return;
        }
        QVERIFY(!out.empty());
        QStringList got;
        for (const auto& s : out.front().specs)
            got << QString::fromStdString(s.toString());
        QCOMPARE(got.join(' '), first);
        QVERIFY(!out.front().reason.empty());
        for (const auto& c : out)
            for (size_t i = 0; i < in.size(); ++i)
                if (!adjustable[i])
                    QCOMPARE(c.specs[i], in[i]);
    }

    /// A view to a constant shape ("shape '[1, 1, 11]' is invalid for input
    /// of size 16") becomes the input's shape once an earlier candidate of
    /// another size was refused with the same shape; a view computed from
    /// the input (ViT patches: '[1, 3, 4, 7, 4, 7]' at 32 pixels) is not.
    void feedbackConstantView() {
        const std::vector<t2n::InputSpec> specs{t2n::InputSpec::parse("x:1x16"),
                                                t2n::InputSpec::parse("h:1x3x224x224")};
        const std::string error =
            "RuntimeError: shape '[1, 1, 11]' is invalid for input of size 16";
        QVERIFY(t2n::load::correctionsFromError(error, specs, {true, true}).empty());
        const auto out = t2n::load::correctionsFromError(
            error, specs, {true, true},
            {"RuntimeError: shape '[1, 1, 11]' is invalid for input of size 150528"});
        QVERIFY(!out.empty());
        QCOMPARE(QString::fromStdString(out.front().specs[0].toString()), QString("x:1x1x11:f32"));
        QCOMPARE(out.front().specs[1], specs[1]);
        QVERIFY(t2n::load::correctionsFromError(
                    "RuntimeError: shape '[1, 3, 4, 7, 4, 7]' is invalid for input of size 3072",
                    {t2n::InputSpec::parse("img:1x3x32x32")}, {true},
                    {"RuntimeError: shape '[1, 3, 32, 7, 32, 7]' is invalid for input of size "
                     "150528"})
                    .empty());
    }

    /// Numbers the model asks in "Supported values: 256 ..., 512 ...": each
    /// tried, 512 among them.
    void feedbackNamesEveryNumber() {
        const auto out = t2n::load::correctionsFromError(
            "ValueError: Provided number of samples is 16 (Supported values: 256 for 8000 sample "
            "rate, 512 for 16000)",
            {t2n::InputSpec::parse("x:1x16")}, {true});
        QStringList got;
        for (const auto& c : out)
            got << QString::fromStdString(c.specs[0].toString());
        QVERIFY2(got.contains("x:1x512:f32"), qPrintable(got.join(' ')));
        QVERIFY2(got.size() <= 4, qPrintable(got.join(' ')));
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
