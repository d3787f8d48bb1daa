// Statically quantized models: the archive holds what PyTorch says it must
// (the fixture's json "quant": scales and zero points, the int8 weight
// items and the int32 bias round(bias / (weight scale * input scale)),
// computed by PyTorch), in the byte layout of the NNEF spec (.dat item code
// 3 for quantized signed ints, graph.quant lines of
// zero_point_linear_quantize), read back by t2n's separate reader; the
// check fails when a weight's scale is changed; per-channel weights are
// refused with a clear Translate error.
#include "interp_test_util.h"
#include "reader/model_reader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>

#include <cstring>

using namespace t2n::test;
namespace fs = std::filesystem;

namespace {

QByteArray readAll(const fs::path& p) {
    QFile f(QString::fromStdString(p.string()));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

uint32_t u32At(const QByteArray& b, int offset) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | static_cast<uint8_t>(b.at(offset + i));
    return v;
}

struct QuantLine {
    QString identifier;
    int64_t zeroPoint = 0;
    double scale = 0;
    int bits = 0;
    bool isSigned = false;
};

// graph.quant lines in the spec's form (NNEF 1.0.5 §5.3, scalar values).
QList<QuantLine> parseQuantText(const QString& text, QStringList& bad) {
    // (a plain literal: moc does not read raw strings with a delimiter)
    static const QRegularExpression line(
        "^\"([^\"]+)\": zero_point_linear_quantize\\(zero_point = (-?\\d+), scale = "
        "([0-9.eE+-]+), bits = (\\d+), signed = (true|false), symmetric = false\\);$");
    QList<QuantLine> out;
    for (const QString& l : text.split('\n', Qt::SkipEmptyParts)) {
        auto m = line.match(l);
        if (!m.hasMatch()) {
            bad << l;
            continue;
        }
        out.append(QuantLine{m.captured(1), m.captured(2).toLongLong(), m.captured(3).toDouble(),
                             m.captured(4).toInt(), m.captured(5) == "true"});
    }
    return out;
}

const QuantLine* find(const QList<QuantLine>& lines, double scale, int64_t zeroPoint) {
    for (const auto& l : lines)
        if (l.scale == scale && l.zeroPoint == zeroPoint)
            return &l;
    return nullptr;
}

fs::path exportFolder(const QString& fixture, const QString& dirName, bool check) {
    fs::path out = freshDir(dirName) / "model.nnef";
    t2n::ExportOptions options = fixtureOptions(fixture);
    options.compressionLevel.reset();
    options.check = check;
    t2n::Session s;
    s.load(fixtureModel(fixture));
    auto report = s.exportModel(out, options);
    if (check && !report.check.passed)
        return {};
    return out;
}

} // namespace

class QuantizedTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo("op_quant_conv2d").isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
    }

    void archiveHoldsWhatPyTorchComputed() {
        const QJsonObject q = fixtureInfo("op_quant_conv2d").value("quant").toObject();
        QVERIFY(!q.isEmpty());
        const fs::path archive = exportFolder("op_quant_conv2d", "quantized_bytes", true);
        QVERIFY2(!archive.empty(), "the export does not check");

        QStringList bad;
        const auto lines = parseQuantText(QString::fromUtf8(readAll(archive / "graph.quant")), bad);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join("\n")));
        const auto in = q.value("input").toArray(), w = q.value("weight").toArray(),
                   out = q.value("output").toArray();
        const QuantLine* inLine = find(lines, in[0].toDouble(), in[1].toInteger());
        const QuantLine* wLine = find(lines, w[0].toDouble(), w[1].toInteger());
        const QuantLine* outLine = find(lines, out[0].toDouble(), out[1].toInteger());
        QVERIFY2(inLine && wLine && outLine, "an entry with PyTorch's scale is missing");
        QVERIFY(inLine->bits == 8 && !inLine->isSigned);   // quint8 activation
        QVERIFY(outLine->bits == 8 && !outLine->isSigned); // quint8 activation
        QVERIFY(wLine->bits == 8 && wLine->isSigned);      // qint8 weight

        // The separate reader reads the same entries and the same weight.
        t2n::nnef::LoadedModel model = t2n::nnef::readModel(archive);
        QCOMPARE(static_cast<int>(model.quant.size()), static_cast<int>(lines.size()));

        const QByteArray wDat = readAll(archive / "body.weight.dat");
        const auto shape = q.value("weight_shape").toArray();
        const auto items = q.value("weight_int8").toArray();
        QCOMPARE(wDat.size(), 128 + items.size());
        QCOMPARE(static_cast<uint8_t>(wDat[0]), uint8_t{0x4E});
        QCOMPARE(static_cast<uint8_t>(wDat[1]), uint8_t{0xEF});
        QCOMPARE(u32At(wDat, 4), static_cast<uint32_t>(items.size())); // data length
        QCOMPARE(u32At(wDat, 8), static_cast<uint32_t>(shape.size())); // rank
        for (int i = 0; i < shape.size(); ++i)
            QCOMPARE(u32At(wDat, 12 + 4 * i), static_cast<uint32_t>(shape[i].toInt()));
        QCOMPARE(u32At(wDat, 44), 8u); // bits per item
        QCOMPARE(u32At(wDat, 48), 3u); // quantized signed int, Khronos vendor
        for (int i = 0; i < items.size(); ++i)
            QCOMPARE(static_cast<int>(static_cast<int8_t>(wDat[128 + i])), items[i].toInt());
        QVERIFY(model.tensors.count("body.weight"));
        QCOMPARE(model.tensors.at("body.weight").asInt(0), items[0].toInteger());

        const QByteArray bDat = readAll(archive / "body.bias.dat");
        const auto bias = q.value("bias_int32").toArray();
        QCOMPARE(bDat.size(), 128 + 4 * bias.size());
        QCOMPARE(u32At(bDat, 8), 2u);                                  // [1, C]
        QCOMPARE(u32At(bDat, 16), static_cast<uint32_t>(bias.size())); // C
        QCOMPARE(u32At(bDat, 44), 32u);
        QCOMPARE(u32At(bDat, 48), 4u); // a plain signed int: no graph.quant entry
        for (int i = 0; i < bias.size(); ++i)
            QCOMPARE(static_cast<int32_t>(u32At(bDat, 128 + 4 * i)), bias[i].toInt());
    }

    // graph.quant in the interpreter, against values worked out by hand from
    // what tract's cast to a quantized type runs (Tensor::cast_to_dt,
    // data/src/tensor.rs q_via_f32: x / scale + zero_point in f32, rounded
    // half to even, clamped; the ONNX-only QuantizeLinear rounds half away
    // from zero instead): 0.25 / 0.5 + 10 = 10.5 rounds to 10 (half away
    // would give 11), 0.75 -> 11.5 -> 12, -0.25 -> 9.5 -> 10, 200 and -100
    // clamp to 255 and 0; stored variables are dequantized, (q - z) * s.
    void interpreterQuantizesLikeTract() {
        t2n::nnef::LoadedModel m =
            interp_test::modelOf("version 1.0;\ngraph g(x) -> (y, w)\n{\n"
                                 "  x = external<scalar>(shape = [5]);\n"
                                 "  y = tract_core_cast(x);\n"
                                 "  w = variable<scalar>(shape = [3], label = 'w');\n}\n",
                                 {{"w", at::tensor({-128, 0, 127}, at::kChar)}});
        m.quant = t2n::nnef::parseQuant(
            "\"y\": zero_point_linear_quantize(zero_point = 10, scale = 0.5, bits = 8, signed = "
            "false, symmetric = false);\n"
            "\"w\": zero_point_linear_quantize(zero_point = -2, scale = 0.25, bits = 8, signed = "
            "true, symmetric = false);\n",
            "graph.quant");
        t2n::interp::Interpreter interpreter(m);
        auto run = interpreter.run({{"x", interp_test::F({0.25f, 0.75f, -0.25f, 200, -100}, {5})}});
        T2N_COMPARE_TENSOR(run.outputs.at("y"),
                           interp_test::F({0.0f, 1.0f, 0.0f, 122.5f, -5.0f}, {5}));
        T2N_COMPARE_TENSOR(run.outputs.at("w"), interp_test::F({-31.5f, 0.5f, 32.25f}, {3}));
    }

    void changedWeightScaleFailsTheCheck() {
        const fs::path archive = exportFolder("op_quant_conv2d", "quantized_mutation", false);
        const double wScale = fixtureInfo("op_quant_conv2d")
                                  .value("quant")
                                  .toObject()["weight"]
                                  .toArray()[0]
                                  .toDouble();
        t2n::ExportOptions options = fixtureOptions("op_quant_conv2d");
        {
            t2n::Session s;
            s.load(fixtureModel("op_quant_conv2d"));
            QVERIFY(s.check(archive, options).passed); // untouched: passes
        }
        QFile f(QString::fromStdString((archive / "graph.quant").string()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        f.close();
        QStringList bad;
        const auto lines = parseQuantText(text, bad);
        const QuantLine* w = find(lines, wScale, 0);
        QVERIFY(w);
        const QString old = QString("\"%1\": zero_point_linear_quantize(zero_point = 0, scale = ")
                                .arg(w->identifier);
        const int at = text.indexOf(old);
        QVERIFY(at >= 0);
        const int end = text.indexOf(',', at + old.size());
        text.replace(at + old.size(), end - at - old.size(),
                     QString::number(wScale * 1.25, 'g', 17));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.toUtf8());
        f.close();

        t2n::Session s;
        s.load(fixtureModel("op_quant_conv2d"));
        const t2n::CheckReport& check = s.check(archive, options);
        QVERIFY(check.ran);
        QVERIFY(!check.passed);
        QVERIFY(!check.outputs.empty());
        QVERIFY(check.outputs[0].mismatches > 0);
    }

    void perChannelWeightsAreRefused() {
        fs::path out = freshDir("quantized_per_channel") / "model.nnef.tgz";
        t2n::Session s;
        s.load(fixtureModel("op_quant_conv2d_per_channel"));
        try {
            s.exportModel(out, fixtureOptions("op_quant_conv2d_per_channel"));
            QFAIL("a per-channel model exported");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.stage(), t2n::Stage::Translate);
            const QString text = QString::fromStdString(e.render());
            QVERIFY2(text.contains("per-channel"), qPrintable(text));
            QVERIFY2(text.contains("quantized::conv2d"), qPrintable(text));
            QVERIFY2(text.contains("per-tensor qconfig"), qPrintable(text));
            QVERIFY2(text.contains("quantized_models.py") || text.contains(".py:"),
                     qPrintable(text)); // the source line of the node
        }
        QVERIFY(!fs::exists(out));
    }
};

T2N_TEST_SUITE(QuantizedTest)
#include "tst_quantized.moc"
