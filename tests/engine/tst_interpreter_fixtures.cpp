// Reference interpreter, end to end: every fixture model is exported by the
// t2n command line, read back with readModel, run by the interpreter on the
// example inputs stored next to it (<name>.io.npz) and compared with the
// stored TorchScript outputs at tract's 'approximate' level
// (|expected - got| <= 1e-4 + 5e-4 |got|). Known exporter mismatches are
// listed with their cause (QEXPECT_FAIL): fixing one makes its row XPASS.
#include "engine/interp_test_util.h"
#include "suite_macros.h"
#include "support.h"

#include <QDir>
#include <QJsonArray>
#include <QTest>

#include <fmt/format.h>

#include <cstring>
#include <fstream>

using namespace interp_test;
namespace fs = std::filesystem;

namespace {

/// A .npy file (NPY 1.0 / 2.0, C order) as a tensor.
at::Tensor readNpy(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
        throw std::runtime_error("not a .npy file: " + path.string());
    const int major = static_cast<unsigned char>(bytes[6]);
    std::size_t headerLen = 0, offset = 0;
    if (major == 1) {
        headerLen =
            static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
        offset = 10;
    } else {
        uint32_t len = 0;
        std::memcpy(&len, bytes.data() + 8, 4);
        headerLen = len;
        offset = 12;
    }
    const std::string header(bytes.data() + offset, headerLen);
    auto field = [&](const std::string& key) {
        auto at = header.find("'" + key + "'");
        if (at == std::string::npos)
            throw std::runtime_error("npy header without " + key);
        return header.substr(header.find(':', at) + 1);
    };
    std::string descr = field("descr");
    descr = descr.substr(descr.find('\'') + 1);
    descr = descr.substr(0, descr.find('\''));
    if (field("fortran_order").find("True") < field("fortran_order").find(','))
        throw std::runtime_error("fortran-ordered npy");
    std::string shapeText = field("shape");
    shapeText = shapeText.substr(shapeText.find('(') + 1);
    shapeText = shapeText.substr(0, shapeText.find(')'));
    std::vector<int64_t> shape;
    for (std::size_t p = 0; p < shapeText.size();) {
        while (p < shapeText.size() && !std::isdigit(static_cast<unsigned char>(shapeText[p])))
            ++p;
        if (p >= shapeText.size())
            break;
        std::size_t q = p;
        while (q < shapeText.size() && std::isdigit(static_cast<unsigned char>(shapeText[q])))
            ++q;
        shape.push_back(std::stoll(shapeText.substr(p, q - p)));
        p = q;
    }
    static const std::map<std::string, c10::ScalarType> types{
        {"<f4", at::kFloat}, {"<f8", at::kDouble}, {"<f2", at::kHalf},
        {"<i8", at::kLong},  {"<i4", at::kInt},    {"<i2", at::kShort},
        {"|i1", at::kChar},  {"|u1", at::kByte},   {"|b1", at::kBool}};
    auto type = types.find(descr);
    if (type == types.end())
        throw std::runtime_error("unsupported npy dtype " + descr);
    at::Tensor t = at::empty(shape, type->second);
    const std::size_t need = static_cast<std::size_t>(t.numel()) * t.element_size();
    if (bytes.size() < offset + headerLen + need)
        throw std::runtime_error("short npy data: " + path.string());
    std::memcpy(t.data_ptr(), bytes.data() + offset + headerLen, need);
    return t;
}

/// Every array of an .npz, by name (numpy writes them, t2n reads them back).
std::map<std::string, at::Tensor> readNpz(const fs::path& npz, const fs::path& scratch) {
    fs::create_directories(scratch);
    const auto r = t2n::test::run(
        t2n::test::python(),
        {"-c",
         "import numpy as np, sys\nd = np.load(sys.argv[1])\nfor k in d.files: "
         "np.save(sys.argv[2] + '/' + k + '.npy', np.array(d[k], order='C'))",
         QString::fromStdString(npz.string()), QString::fromStdString(scratch.string())});
    if (r.exitCode != 0)
        throw std::runtime_error("numpy could not read " + npz.string() + ": " +
                                 r.err.toStdString());
    std::map<std::string, at::Tensor> out;
    for (const auto& entry : fs::directory_iterator(scratch))
        if (entry.path().extension() == ".npy")
            out[entry.path().stem().string()] = readNpy(entry.path());
    return out;
}

/// tract's 'approximate' level (atol 1e-4, rtol 5e-4) or another: empty
/// string when `got` passes.
std::string mismatch(const at::Tensor& expected, const at::Tensor& got, double atol = 1e-4,
                     double rtol = 5e-4) {
    if (!expected.sizes().equals(got.sizes()))
        return fmt::format("shape {} instead of {}", t2n::interp::describeShape(got.sizes()),
                           t2n::interp::describeShape(expected.sizes()));
    const bool floats = expected.is_floating_point() && got.is_floating_point();
    if (!floats && expected.scalar_type() != got.scalar_type())
        return fmt::format("dtype {} instead of {}", t2n::interp::describeTensor(got),
                           t2n::interp::describeTensor(expected));
    const at::Tensor e = expected.to(at::kDouble), g = got.to(at::kDouble);
    at::Tensor ok = floats ? at::abs(e - g) <= atol + rtol * at::abs(g) : e == g;
    if (floats)
        ok = ok | (at::isnan(e) & at::isnan(g)) | (e == g);
    const int64_t bad = (~ok).sum().item<int64_t>();
    if (bad == 0)
        return {};
    const at::Tensor diff = at::where(ok, at::zeros_like(e), at::abs(e - g));
    const int64_t worst = diff.flatten().argmax().item<int64_t>();
    return fmt::format("{} of {} elements differ; worst at flat index {}: expected {}, got {}", bad,
                       e.numel(), worst, e.flatten()[worst].item<double>(),
                       g.flatten()[worst].item<double>());
}

/// Runs the exported model in `mode` on the stored inputs; "" when every
/// output matches the stored TorchScript output.
std::string runAndCompare(const t2n::nnef::LoadedModel& model,
                          const std::map<std::string, at::Tensor>& io, TargetMode mode,
                          double atol = 1e-4, double rtol = 5e-4) {
    std::string failure;
    try {
        t2n::interp::Interpreter interp(model, interp_test::mode(mode));
        std::map<std::string, at::Tensor> inputs;
        for (const auto& in : interp.inputNames())
            inputs[in] = io.at(in);
        const auto result = interp.run(inputs);
        for (const auto& out : interp.outputNames()) {
            auto expected = io.find(out);
            if (expected == io.end())
                failure += fmt::format("no stored value for output '{}'; ", out);
            else if (auto why = mismatch(expected->second, result.outputs.at(out), atol, rtol);
                     !why.empty())
                failure += fmt::format("{}: {}; ", out, why);
        }
    } catch (const t2n::Error& e) {
        failure = e.render();
    }
    return failure;
}

// tract's 'very' bounds, for fixtures that state that level (with a reason)
// instead of 'approximate'.
std::pair<double, double> fixtureBounds(const QString& name) {
    auto level = t2n::test::fixtureInfo(name).value("check_tolerance").toObject().value("level");
    if (level.toString() == "very")
        return {5e-2, 1e-2};
    return {1e-4, 5e-4};
}

} // namespace

class InterpreterFixturesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (!fs::exists(t2n::test::fixturesDir() / "fixtures.json"))
            QSKIP("the fixture models are not generated (ctest -R fixtures.generate)");
        if (!fs::exists(t2n::test::t2nBinary()))
            QSKIP("the t2n command line is not built");
    }

    void exportedFixturesMatch_data() {
        QTest::addColumn<QString>("name");
        // The single-operator fixtures are checked on every export (against
        // LibTorch) by export_fixtures; here the whole models meet the eager
        // PyTorch outputs that the fixture generator stored.
        for (const QString kind : {"torchvision", "naming"})
            for (const auto& n : t2n::test::fixtureNames(kind))
                if (fs::exists(t2n::test::fixturesDir() / (n.toStdString() + ".io.npz")))
                    QTest::newRow(qPrintable(n)) << n;
    }

    void exportedFixturesMatch() {
        QFETCH(QString, name);
        const fs::path dir = t2n::test::freshDir("interp_" + name);
        const fs::path archive = dir / "model.nnef.tar";
        QStringList args{"export", QString::fromStdString(t2n::test::fixtureModel(name).string())};
        args << t2n::test::fixtureInputArgs(name) << "-o"
             << QString::fromStdString(archive.string()) << "--log-level"
             << "error"
             << "--no-check";
        const auto exported =
            t2n::test::run(QString::fromStdString(t2n::test::t2nBinary().string()), args);
        if (exported.exitCode != 0)
            QSKIP(qPrintable("t2n export failed: " + exported.err.trimmed()));

        const auto model = t2n::nnef::readModel(archive);
        const auto io =
            readNpz(t2n::test::fixturesDir() / (name.toStdString() + ".io.npz"), dir / "io");
        auto [atol, rtol] = fixtureBounds(name);
        const std::string failure = runAndCompare(model, io, Tract, atol, rtol);
        QVERIFY2(failure.empty(), failure.c_str());
    }
};

T2N_TEST_SUITE(InterpreterFixturesTest)
#include "tst_interpreter_fixtures.moc"
