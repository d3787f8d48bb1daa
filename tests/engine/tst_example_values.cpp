// Example input values from files (.npy, .npz member, .pt): NumPy and
// torch.save write the same array from Debian's Python, the engine reads
// each back bit for bit, takes shape and dtype from the file, and the model
// run on it gives the output PyTorch computed in Python.
#include "load/example_values.h"
#include "load/module_loader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"
#include "t2n/session.h"

#include <QTest>

using namespace t2n::test;

namespace {
const QString kModel = "naming_blocks";

t2n::InputSpec fileSpec(const std::filesystem::path& dir, const std::string& text) {
    return t2n::InputSpec::parse("image=@" + (dir / text).string());
}
} // namespace

class ExampleValuesTest : public QObject {
    Q_OBJECT
    std::filesystem::path dir_;

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo(kModel).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        dir_ = freshDir("example_values");
        const QString script = R"PY(
import sys, numpy as np, torch
d, model = sys.argv[1], sys.argv[2]
x = np.random.default_rng(7).standard_normal((2, 3, 6, 5)).astype(np.float32)
np.save(d + "/x.npy", x)
np.savez_compressed(d + "/x.npz", other=np.zeros(3, np.int64), image=x)
np.save(d + "/i.npy", np.arange(12, dtype=np.int64).reshape(3, 4))
torch.save(torch.from_numpy(x), d + "/x.pt")
open(d + "/garbage.npy", "wb").write(b"not numpy at all")
np.save(d + "/fortran.npy", np.asfortranarray(np.ones((2, 3), np.float32)))
m = torch.jit.load(model)
with torch.no_grad():
    np.save(d + "/out.npy", m(torch.from_numpy(x)).numpy())
)PY";
        auto r = run(python(), {"-c", script, QString::fromStdString(dir_.string()),
                                QString::fromStdString(fixtureModel(kModel).string())});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    /// The text form: NAME=@FILE[#MEMBER], round trip through toString().
    void specTextForm() {
        auto s = t2n::InputSpec::parse("x=@data/in.npz#member");
        QCOMPARE(s.name, std::string("x"));
        QCOMPARE(s.valuesFile, std::string("data/in.npz"));
        QCOMPARE(s.valuesMember, std::string("member"));
        QCOMPARE(t2n::InputSpec::parse(s.toString()), s);
        QVERIFY_THROWS_EXCEPTION(t2n::Error, t2n::InputSpec::parse("=@a.npy"));
    }

    /// .npy, .npz (named member or the input's name) and .pt give the same bits;
    /// shape and dtype come from the file.
    void sameTensorEveryFormat() {
        auto pt = t2n::load::readExampleValues(fileSpec(dir_, "x.pt"));
        QCOMPARE(pt.sizes().vec(), (std::vector<int64_t>{2, 3, 6, 5}));
        for (const char* f : {"x.npy", "x.npz#image", "x.npz"}) {
            auto t = t2n::load::readExampleValues(fileSpec(dir_, f));
            QVERIFY2(t.scalar_type() == at::kFloat && torch::equal(t, pt), f);
        }
        auto specs = t2n::load::withFileShapes({fileSpec(dir_, "i.npy")});
        QCOMPARE(specs[0].shape, (std::vector<int64_t>{3, 4}));
        QCOMPARE(specs[0].dtype, t2n::DType::I64);
        auto ints = t2n::load::makeExampleInputs(specs, 0)[0];
        QCOMPARE(ints.sum().item<int64_t>(), int64_t(66)); // 0 + 1 + ... + 11
    }

    /// Bad files are usage errors naming the input and the file.
    void badFilesRefused_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("part");
        QTest::newRow("missing") << "nope.npy"
                                 << "cannot be read";
        QTest::newRow("member") << "x.npz#nope"
                                << "no member 'nope' (members: other, image)";
        QTest::newRow("fortran") << "fortran.npy"
                                 << "Fortran order";
        QTest::newRow("not npy") << "garbage.npy"
                                 << "not a .npy file";
        QTest::newRow("suffix") << "x.txt"
                                << "unknown file type";
    }
    void badFilesRefused() {
        QFETCH(QString, file);
        QFETCH(QString, part);
        try {
            t2n::load::readExampleValues(fileSpec(dir_, file.toStdString()));
            QFAIL("accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.code(), t2n::ErrorCode::Usage);
            QVERIFY2(e.message().find(part.toStdString()) != std::string::npos,
                     e.message().c_str());
            QVERIFY(e.message().find("'image'") != std::string::npos);
        }
    }

    /// The model on the file's values gives PyTorch's output from Python, and an export
    /// with `image=@x.npy` checks out against the model on those values.
    void modelOutputsMatchPython() {
        auto m = t2n::load::loadTorchScript(fixtureModel(kModel));
        auto in = t2n::load::makeExampleInputs({fileSpec(dir_, "x.npy")}, 0);
        torch::NoGradGuard noGrad;
        auto got = m.forward({in[0]}).toTensor();
        auto expect = t2n::load::readExampleValues(fileSpec(dir_, "out.npy"));
        QVERIFY(torch::allclose(got, expect, 1e-5, 1e-6));

        t2n::Session s;
        s.load(fixtureModel(kModel));
        t2n::ExportOptions o;
        o.inputs = {fileSpec(dir_, "x.npy")};
        auto report = s.exportModel(dir_ / "out.nnef.tgz", o);
        QVERIFY(report.check.ran);
        QVERIFY2(report.check.passed, report.toJson().c_str());
    }

    /// forward()'s signature: the argument names, Tensor types.
    void forwardSignature() {
        t2n::Session s;
        s.load(fixtureModel(kModel));
        auto sig = s.forwardSignature();
        auto names = s.forwardArgumentNames();
        QCOMPARE(sig.size(), names.size());
        QCOMPARE(sig.size(), size_t(1));
        QCOMPARE(sig[0].name, names[0]);
        QVERIFY(sig[0].isTensor);
        QVERIFY2(sig[0].type.starts_with("Tensor") || sig[0].type.starts_with("Float"),
                 sig[0].type.c_str());
    }
};

T2N_TEST_SUITE(ExampleValuesTest)
#include "tst_example_values.moc"
