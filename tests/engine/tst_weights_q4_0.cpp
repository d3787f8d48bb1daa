// --weights-q4-0: the archive's .dat files hold, byte for byte, the Q4_0
// blocks numpy computes from tract's rules (compression_models.py); the
// reader decodes them to numpy's values; weights Q4_0 cannot hold stay f32
// with a warning naming them; the check passes against the model given the
// rounded weights, which it would not against the model as trained; tract
// before 0.21.11 and the Khronos target are refused before any work.
#include "interp/exec.h"
#include "load/npy_reader.h"
#include "nnef/q4_0.h"
#include "reader/model_reader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"
#include <ATen/Functions.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <cstring>
#include <fstream>

namespace fs = std::filesystem;
using namespace t2n;

namespace {

const QString kFixture = QStringLiteral("compress_q4_0_net");

uint32_t u32(const std::vector<std::byte>& b, size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

fs::path q40Npz() {
    return test::fixturesDir() / (kFixture.toStdString() + ".q40.npz");
}

ExportOptions q4Options() {
    ExportOptions o = test::fixtureOptions(kFixture);
    o.compressionLevel.reset(); // a folder: the .dat files are read directly
    o.weightsQ4_0 = true;
    return o;
}

// Each weight Q4_0 can hold is, in `archive`, the blocks numpy computed from
// the f32 weights, and reads back as numpy's decoded values.
void compareBlocksWithNumpy(const fs::path& archive) {
    for (const auto& v : test::fixtureInfo(kFixture).value("q4_0_weights").toArray()) {
        const std::string name = v.toString().toStdString();
        const auto bytes = test::fileBytes(archive / (name + ".dat"));
        QVERIFY2(bytes.size() > 128, name.c_str());
        QCOMPARE(u32(bytes, 44), 0xFFFFFFFFu); // bits per item
        QCOMPARE(u32(bytes, 48), 0x54523040u); // vendor "TR", Q4_0
        const TensorData want = load::readNpzMember(q40Npz(), name + ".blocks");
        QCOMPARE(uint64_t(u32(bytes, 4)), uint64_t(want.byteSize()));
        QCOMPARE(bytes.size(), 128 + want.byteSize());
        QVERIFY2(std::memcmp(bytes.data() + 128, want.bytes().data(), want.byteSize()) == 0,
                 (name + ": blocks differ from numpy's").c_str());
        // The reader decodes them to the values numpy computed.
        const TensorData got = nnef::readDat(bytes, name + ".dat");
        const TensorData values = load::readNpzMember(q40Npz(), name + ".values");
        // A weight the lowering unsqueezed (a Linear on a 3-d input) is
        // stored with its leading 1: tract reads it as [G, M, K].
        auto logical = got.shape();
        while (logical.size() > values.shape().size() && logical.front() == 1)
            logical.erase(logical.begin());
        QCOMPARE(logical, values.shape());
        for (int64_t i = 0; i < got.numel(); ++i)
            QCOMPARE(got.asDouble(i), values.asDouble(i));
    }
}

std::string whyFailed(const CheckReport& c) {
    std::string why;
    for (const auto& o : c.outputs)
        why += o.name + ": max abs error " + std::to_string(o.maxAbsError) + "; ";
    for (const auto& p : c.structureProblems)
        why += p + "; ";
    return why + c.divergence.detail;
}

std::string graphText(const fs::path& archive) {
    const auto bytes = test::fileBytes(archive / "graph.nnef");
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

} // namespace

class WeightsQ4_0Test : public QObject {
    Q_OBJECT
    fs::path archive_;
    ExportReport report_;

private Q_SLOTS:
    void initTestCase() {
        if (test::fixtureInfo(kFixture).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        archive_ = test::freshDir("weights_q4_0") / "model.nnef";
        Session s;
        s.load(test::fixtureModel(kFixture));
        report_ = s.exportModel(archive_, q4Options());
    }

    void checkPassesWithOneQuantizationStep() {
        QVERIFY(report_.written);
        QVERIFY(report_.check.ran);
        QVERIFY2(report_.check.passed, whyFailed(report_.check).c_str());
    }

    void blocksAreTractsBytes() { compareBlocksWithNumpy(archive_); }

    // --compute f16: the blocks are still made from the f32 weights (not
    // from their f16 rounding), weights Q4_0 cannot hold are f16, the
    // embedding's gather names its f16 output, and the check passes.
    void f16GraphKeepsTheBlocks() {
        ExportOptions o = q4Options();
        o.compute = DType::F16;
        Session s;
        s.load(test::fixtureModel(kFixture));
        const fs::path out = test::freshDir("weights_q4_0_f16") / "model.nnef";
        const ExportReport& r = s.exportModel(out, o);
        QVERIFY2(r.check.passed, whyFailed(r.check).c_str());
        compareBlocksWithNumpy(out);
        for (const QString& name :
             test::fixtureInfo(kFixture).value("f32_weights").toObject().keys()) {
            const auto bytes = test::fileBytes(out / (name.toStdString() + ".dat"));
            QCOMPARE(u32(bytes, 44), 16u); // f16
        }
        const std::string text = graphText(out);
        QVERIFY2(text.find("tract_core_gather(emb_weight, tokens, axis = 0, datum_type = 'f16')") !=
                     std::string::npos,
                 text.c_str());
    }

    // tract (ops/array/gather.rs, >= 0.21.11) refuses a gather of Q4_0 data
    // that does not name its output type; so does the check.
    void gatherOfBlocksWithoutTypeIsRefused() {
        const std::string text = graphText(archive_);
        const std::string typed = ", datum_type = 'f32')";
        const auto at = text.find(typed);
        QVERIFY2(at != std::string::npos, text.c_str());
        const fs::path copy = test::freshDir("weights_q4_0_untyped") / "model.nnef";
        fs::copy(archive_, copy, fs::copy_options::recursive);
        std::ofstream(copy / "graph.nnef", std::ios::trunc)
            << text.substr(0, at) << ")" << text.substr(at + typed.size());
        Session s;
        s.load(test::fixtureModel(kFixture));
        const CheckReport& r = s.check(copy, q4Options());
        QVERIFY(!r.passed);
        QVERIFY2(r.divergence.detail.find("needs a datum_type") != std::string::npos,
                 whyFailed(r).c_str());
        QVERIFY(s.check(archive_, q4Options()).passed);
    }

    void ineligibleWeightsStayF32WithAWarning() {
        const QJsonObject left = test::fixtureInfo(kFixture).value("f32_weights").toObject();
        QVERIFY(!left.isEmpty());
        for (const QString& name : left.keys()) {
            const auto bytes = test::fileBytes(archive_ / (name.toStdString() + ".dat"));
            QCOMPARE(u32(bytes, 48), 0u); // Khronos float
            QCOMPARE(u32(bytes, 44), 32u);
            bool warned = false;
            for (const auto& w : report_.warnings)
                warned = warned || (w.find(name.toStdString()) != std::string::npos &&
                                    w.find("--weights-q4-0") != std::string::npos);
            QVERIFY2(warned, qPrintable(name));
        }
    }

    // The same archive without the rounding of the model: the check must see
    // the difference, else it would not be judging the rounded weights.
    void roundedWeightsDifferFromTheModel() {
        Session plain;
        plain.load(test::fixtureModel(kFixture));
        ExportOptions o = q4Options();
        o.weightsQ4_0 = false;
        const fs::path out = test::freshDir("weights_q4_0_plain") / "model.nnef";
        const auto r = plain.exportModel(out, o);
        QVERIFY(r.check.passed);
        const TensorData q = nnef::readDat(test::fileBytes(archive_ / "fc1.weight.dat"), "q4");
        const TensorData f = nnef::readDat(test::fileBytes(out / "fc1.weight.dat"), "f32");
        double maxDiff = 0;
        for (int64_t i = 0; i < f.numel(); ++i)
            maxDiff = std::max(maxDiff, std::fabs(q.asDouble(i) - f.asDouble(i)));
        QVERIFY2(maxDiff > 1e-4, qPrintable(QString::number(maxDiff)));
        QVERIFY(fs::file_size(archive_ / "fc1.weight.dat") * 5 <
                fs::file_size(out / "fc1.weight.dat"));
    }

    // Re-exporting from one session without the option gives the weights back.
    void sessionRestoresTheWeights() {
        Session s;
        s.load(test::fixtureModel(kFixture));
        const fs::path a = test::freshDir("weights_q4_0_again") / "a.nnef";
        QVERIFY(s.exportModel(a, q4Options()).check.passed);
        Session fresh;
        fresh.load(test::fixtureModel(kFixture));
        ExportOptions o = q4Options();
        o.weightsQ4_0 = false;
        s.harden(o);
        const fs::path b = test::freshDir("weights_q4_0_again") / "b.nnef";
        const fs::path c = test::freshDir("weights_q4_0_fresh") / "c.nnef";
        QVERIFY(s.exportModel(b, o).check.passed);
        QVERIFY(fresh.exportModel(c, o).check.passed);
        QVERIFY(test::fileBytes(b / "fc1.weight.dat") == test::fileBytes(c / "fc1.weight.dat"));
    }

    // Only the operations tract dequantizes Q4_0 in may read a marked weight:
    // one read by deconv (tract's has no block-quantized path) stays as it
    // is, named in the reasons; one read by matmul is marked.
    void weightsReadByOtherOperationsStayUnquantized() {
        std::vector<float> values(32 * 32, 0.25f);
        auto tensor = [&] {
            return TensorData::copyOf(
                DType::F32, {32, 32},
                std::as_bytes(std::span<const float>(values.data(), values.size())));
        };
        nnef::Document doc;
        const TensorData a = tensor(), b = tensor();
        doc.variables.push_back({"w_mm", "mm.weight", a, "parameter", "", false, false});
        doc.variables.push_back({"w_dc", "dc.weight", b, "parameter", "", false, false});
        doc.body.push_back(
            {"matmul", "", {nnef::Expr::id("x"), nnef::Expr::id("w_mm")}, {}, {"y"}});
        doc.body.push_back(
            {"deconv", "", {nnef::Expr::id("y"), nnef::Expr::id("w_dc")}, {}, {"z"}});
        std::vector<std::string> refused;
        const size_t marked =
            nnef::markQ4_0Variables(doc, {a.identity(), b.identity()}, {}, &refused);
        QCOMPARE(marked, size_t(1));
        QVERIFY(doc.variables[0].q4_0);
        QVERIFY(!doc.variables[1].q4_0);
        QCOMPARE(refused.size(), size_t(1));
        QVERIFY2(refused[0].find("dc.weight") != std::string::npos &&
                     refused[0].find("'deconv'") != std::string::npos,
                 refused[0].c_str());
    }

    // The check models tract here too: a Q4_0 variable read by anything but
    // a product, a convolution or a typed gather fails, naming the operand.
    void interpreterRefusesBlocksElsewhere() {
        interp::Executor exec(nullptr, nullptr, interp::TargetMode::Tract);
        interp::Value w = interp::Value::makeTensor(at::ones({32, 32}), true);
        w.blockQuantized = true;
        const interp::Value x = interp::Value::makeTensor(at::ones({1, 32}));
        QCOMPARE(exec.call("matmul", "", {{"A", x}, {"B", w}}).size(), size_t(1));
        try {
            exec.call("add", "", {{"x", x}, {"y", w}});
            QFAIL("add read Q4_0 blocks");
        } catch (const interp::InterpError& e) {
            QVERIFY2(std::string(e.what()).find("'y' is block-quantized") != std::string::npos,
                     e.what());
        }
    }

    void roundTripIsIdempotent() {
        std::vector<float> w(64);
        for (size_t i = 0; i < w.size(); ++i)
            w[i] = std::sin(static_cast<float>(i) * 0.37f) * (i % 7 == 0 ? 3.0f : 0.5f);
        nnef::roundTripQ4_0(w);
        const auto once = w;
        nnef::roundTripQ4_0(w);
        QVERIFY(once == w);
    }

    void refusedWhereTractCannotReadIt() {
        for (const char* target : {"tract@0.21.10", "khronos"}) {
            ExportOptions o = q4Options();
            o.target = TargetSpec::parse(target);
            Session s;
            s.load(test::fixtureModel(kFixture));
            const fs::path out = test::freshDir("weights_q4_0_refused") / "m.nnef";
            try {
                s.exportModel(out, o);
                QFAIL(target);
            } catch (const Error& e) {
                QCOMPARE(e.code(), ErrorCode::InvalidOption);
                QVERIFY2(e.message().find("--weights-q4-0") != std::string::npos,
                         e.message().c_str());
            }
            QVERIFY(!fs::exists(out));
        }
        ExportOptions ok = q4Options();
        ok.target = TargetSpec::parse("tract@0.21.11");
        validateOptions(ok);
    }
};

T2N_TEST_SUITE(WeightsQ4_0Test)
#include "tst_weights_q4_0.moc"
