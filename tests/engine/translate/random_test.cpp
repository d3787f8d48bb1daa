// translate/lower_random.cpp (issue 26): random draws inside forward are
// written with tract's own tract_onnx_random (tract_onnx registry), never
// frozen into a constant, and the check compares what depends on a draw by
// shape, dtype, range and moments (check/compare.h, compareDistributions).
// Khronos NNEF has no random operation: refused by name.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

#include <fstream>

using t2n::test::exportSnippet;
using t2n::test::SnippetExport;

namespace {

t2n::ExportOptions target(const char* spec) {
    t2n::ExportOptions o;
    o.target = t2n::TargetSpec::parse(spec);
    return o;
}

/// The check compared `output` by distribution, over `independent` values.
std::string distributionProblem(const SnippetExport& e, const std::string& output,
                                int64_t independent, const std::string& source) {
    for (const auto& o : e.report.check.outputs) {
        if (o.name != output)
            continue;
        const auto& d = o.distribution;
        if (!d.applied)
            return output + " was compared element by element";
        if (d.independent != independent)
            return output + " counts " + std::to_string(d.independent) + " independent values";
        if (!d.valuesCompared)
            return output + ": values not compared";
        if (d.source.find(source) == std::string::npos)
            return output + " names the draw '" + d.source + "'";
        if (o.note.find("compared by shape, dtype, range and moments: it depends on a random "
                        "draw") == std::string::npos)
            return output + "'s note: " + o.note;
        return {};
    }
    return output + " is not in the report";
}

} // namespace

class TranslateRandomTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// torch.rand(x.shape) + x: a uniform draw of the static shape, in the
    /// tract_onnx registry; the output compared by its distribution.
    void randOfAShape() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %size : int[] = aten::size(%x)
  %r : Tensor = aten::rand(%size, %none, %none, %none, %none)
  %y : Tensor = aten::add(%r, %x, %one)
  return (%y)
)IR",
                               {"x:64x64:f32"});
        EXPECT_NNEF("# CHECK: extension tract_registry tract_onnx;\n"
                    "# CHECK: tract_onnx_random(datum_type = 'f32', shape = [64, 64], dist = "
                    "'uniform', parameters = [0.0, 1.0])\n"
                    "# CHECK-NOT: variable",
                    e);
        const std::string problem =
            distributionProblem(e, e.report.outputs.at(0), 4096, "aten::rand");
        QVERIFY2(problem.empty(), problem.c_str());
    }

    /// x + 0.1 * randn_like(x), a bare randn(2, 3) output beside it (too few
    /// values: shape and dtype only), and normal(2.0, 3.0, size) whose mean
    /// and std are the draw's parameters.
    void randnLikeRandnAndNormal() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %three : int = prim::Constant[value=3]()
  %32 : int = prim::Constant[value=32]()
  %tenth : float = prim::Constant[value=0.1]()
  %mean : float = prim::Constant[value=2.]()
  %std : float = prim::Constant[value=3.]()
  %n : Tensor = aten::randn_like(%x, %none, %none, %none, %none, %none)
  %s : Tensor = aten::mul(%n, %tenth)
  %y : Tensor = aten::add(%x, %s, %one)
  %small : int[] = prim::ListConstruct(%two, %three)
  %z : Tensor = aten::randn(%small, %none, %none, %none, %none)
  %big : int[] = prim::ListConstruct(%32, %32)
  %w : Tensor = aten::normal(%mean, %std, %big, %none, %none, %none, %none, %none)
  return (%y, %z, %w)
)IR",
                               {"x:64x64:f32"});
        EXPECT_NNEF("# CHECK: tract_onnx_random(datum_type = 'f32', shape = [64, 64], dist = "
                    "'normal', parameters = [0.0, 1.0])\n"
                    "# CHECK: tract_onnx_random(datum_type = 'f32', shape = [2, 3], dist = "
                    "'normal', parameters = [0.0, 1.0])\n"
                    "# CHECK: tract_onnx_random(datum_type = 'f32', shape = [32, 32], dist = "
                    "'normal', parameters = [2.0, 3.0])",
                    e);
        const auto& outs = e.report.outputs;
        std::string problem = distributionProblem(e, outs.at(0), 4096, "aten::randn_like");
        QVERIFY2(problem.empty(), problem.c_str());
        problem = distributionProblem(e, outs.at(2), 1024, "aten::normal");
        QVERIFY2(problem.empty(), problem.c_str());
        const auto& small = e.report.check.outputs.at(1);
        QVERIFY2(small.distribution.applied && !small.distribution.valuesCompared &&
                     small.note.find("6 independent values are too few") != std::string::npos,
                 small.note.c_str());
        const auto& w = e.report.check.outputs.at(2).distribution;
        QVERIFY2(std::abs(w.got.mean - 2.0) < 0.6 && std::abs(w.got.std - 3.0) < 0.4,
                 e.report.check.outputs.at(2).note.c_str());
        QVERIFY(e.report.toJson().find("\"compared_by\": \"distribution\"") != std::string::npos);
    }

    /// empty(...).uniform_(-1, 1) and zeros(...).normal_(0.5, 2): a draw of the
    /// operand's shape; normal(mean tensor, std): the mean plus a draw; the
    /// functional uniform hardening makes of uniform_ (it was folded into a
    /// constant: a kind missing from the list of draws).
    void inPlaceSamplersAndTensorMean() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %64 : int = prim::Constant[value=64]()
  %lo : float = prim::Constant[value=-1.]()
  %hi : float = prim::Constant[value=1.]()
  %half : float = prim::Constant[value=0.5]()
  %two : float = prim::Constant[value=2.]()
  %size : int[] = prim::ListConstruct(%64, %64)
  %empty : Tensor = aten::empty(%size, %none, %none, %none, %none, %none)
  %u : Tensor = aten::uniform_(%empty, %lo, %hi, %none)
  %a : Tensor = aten::add(%u, %x, %one)
  %zeros : Tensor = aten::zeros(%size, %none, %none, %none, %none)
  %n : Tensor = aten::normal_(%zeros, %half, %two, %none)
  %b : Tensor = aten::mul(%n, %x)
  %c : Tensor = aten::normal(%x, %half, %none)
  %empty2 : Tensor = aten::empty(%size, %none, %none, %none, %none, %none)
  %f : Tensor = aten::uniform(%empty2, %half, %two, %none)
  %d : Tensor = aten::sub(%f, %x, %one)
  return (%a, %b, %c, %d)
)IR",
                               {"x:64x64:f32"});
        EXPECT_NNEF("# CHECK: dist = 'uniform', parameters = [-1.0, 1.0])\n"
                    "# CHECK: dist = 'normal', parameters = [0.5, 2.0])\n"
                    "# CHECK: dist = 'normal', parameters = [0.0, 0.5])\n"
                    "# CHECK: add(\n"
                    "# CHECK: dist = 'uniform', parameters = [0.5, 2.0])",
                    e);
        for (size_t i = 0; i < 4; ++i) {
            const std::string problem =
                distributionProblem(e, e.report.outputs.at(i), 4096, "aten::");
            QVERIFY2(problem.empty(), problem.c_str());
        }
    }

    /// rand_like(x) with a dynamic batch: the draw's shape follows the symbol,
    /// and the check compares at both sizes.
    void dynamicBatch() {
        t2n::ExportOptions o;
        o.dynamicAxes = {t2n::DynamicAxis::parse("x:0=B")};
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %r : Tensor = aten::rand_like(%x, %none, %none, %none, %none, %none)
  %y : Tensor = aten::add(%r, %x, %one)
  return (%y)
)IR",
                               {"x:16x64:f32"}, {}, o);
        EXPECT_NNEF("# CHECK: tract_onnx_random(datum_type = 'f32', shape = [B, 64]", e);
        int compared = 0;
        for (const auto& out : e.report.check.outputs)
            compared += out.distribution.applied && out.distribution.valuesCompared ? 1 : 0;
        QVERIFY2(compared == 2, e.report.toJson().c_str()); // the example size and another
    }

    /// --compute f16: drawn in f32 and cast (tract's own f16 normal path
    /// samples a uniform distribution).
    void halfDrawsAreF32DrawsCast() {
        t2n::ExportOptions o;
        o.compute = t2n::DType::F16;
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %n : Tensor = aten::randn_like(%x, %none, %none, %none, %none, %none)
  %y : Tensor = aten::add(%n, %x, %one)
  return (%y)
)IR",
                               {"x:64x64:f32"}, {}, o);
        EXPECT_NNEF("# CHECK: tract_onnx_random(datum_type = 'f32', shape = [64, 64], dist = "
                    "'normal'\n"
                    "# CHECK: tract_core_cast(randn_like_draw, to = 'f16')",
                    e);
        const std::string problem =
            distributionProblem(e, e.report.outputs.at(0), 4096, "aten::randn_like");
        QVERIFY2(problem.empty(), problem.c_str());
    }

    /// With a tract binary: the io bundle leaves the output out, tract runs
    /// with the tract_onnx registry, --allow-missing-outputs and
    /// --save-outputs, and its saved draws are compared with the model's by
    /// distribution. A fake tract (Python) stands for it: one that draws as
    /// the model does passes, one that draws twice as wide fails.
    void tractCliComparesItsDraws_data() {
        QTest::addColumn<double>("scale");
        QTest::addColumn<bool>("passes");
        QTest::newRow("the model's law") << 1.0 << true;
        QTest::newRow("twice as wide") << 2.0 << false;
    }
    void tractCliComparesItsDraws() {
        QFETCH(double, scale);
        QFETCH(bool, passes);
        const auto dir = t2n::test::freshDir("translate-random-tract");
        const auto fake = dir / "tract";
        std::ofstream(fake)
            << "#!" << t2n::test::python().toStdString() << "\n"
            << "import sys, numpy as np\n"
               "a = sys.argv[1:]\n"
               "if a == ['--version']:\n"
               "    print('tract 0.21.13'); sys.exit(0)\n"
               "for flag in ('--nnef-tract-onnx', '--allow-missing-outputs'):\n"
               "    assert flag in a, flag\n"
               "io = np.load(a[a.index('--input-from-bundle') + 1])\n"
               "assert 'output_0' not in io.files, io.files\n"
               "x = io['x']\n"
               "np.savez_compressed(a[a.index('--save-outputs') + 1], output_0=(x + "
            << scale << " * np.random.rand(*x.shape)).astype(np.float32))\n";
        std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
        t2n::ExportOptions o;
        o.tractBinary = fake.string();
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %size : int[] = aten::size(%x)
  %r : Tensor = aten::rand(%size, %none, %none, %none, %none)
  %y : Tensor = aten::add(%r, %x, %one)
  return (%y)
)IR",
                               {"x:64x64:f32"}, {}, o);
        QVERIFY2(e.error.empty(), e.error.c_str());
        const std::string& tract = e.report.check.tract;
        if (passes) {
            QVERIFY2(e.checkFailure().empty(), e.checkFailure().c_str());
            QCOMPARE(QString::fromStdString(tract),
                     QString("tract: passed; 1 output that depends on a random draw compared by "
                             "shape, dtype, range and moments"));
        } else {
            QVERIFY(!e.report.check.passed);
            QVERIFY2(tract.find("tract: failed (its random draws differ from the model's by "
                                "distribution: 'output_0': failed with 4096 independent "
                                "values: mean") != std::string::npos,
                     tract.c_str());
        }
        QVERIFY2(e.report.check.tractCommand.find("--save-outputs") != std::string::npos,
                 e.report.check.tractCommand.c_str());
    }

    /// The semantic bisect runs the graph after every pass: the draws repeat
    /// from one seed there, so a correct chain changes nothing (every pass
    /// differed before).
    void bisectRepeatsTheDraws() {
        const auto dir = t2n::test::freshDir("translate-random-bisect");
        torch::jit::Module m("__torch__.Noisy");
        m.define("def forward(self, x):\n"
                 "    y = x + torch.rand(x.shape)\n"
                 "    if x.dim() == 2:\n"
                 "        y = y * 2.0\n"
                 "    return y + torch.randn_like(x)\n");
        m.save((dir / "noisy.pt").string());
        t2n::Session s;
        s.load(dir / "noisy.pt");
        t2n::ExportOptions o;
        o.inputs = {t2n::InputSpec::parse("x:8x8:f32")};
        const t2n::BisectReport r = s.bisectHardening(o);
        QVERIFY(r.steps.size() >= 5);
        QVERIFY2(r.firstChanged == -1, r.summary().c_str());
    }

    /// Refusals by name: Khronos (no random operation), a tract older than
    /// tract_onnx_random, integer draws, and a number taken from a draw
    /// (float(torch.rand(1)) would freeze one sample).
    void refusals_data() {
        QTest::addColumn<QString>("ir");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("why");
        const char* rand = R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %size : int[] = aten::size(%x)
  %r : Tensor = aten::rand(%size, %none, %none, %none, %none)
  %y : Tensor = aten::add(%r, %x, %one)
  return (%y)
)IR";
        QTest::newRow("khronos") << rand << "khronos"
                                 << "aten::rand is not supported for Khronos";
        QTest::newRow("tract 0.18.5") << rand << "tract@0.18.5"
                                      << "aten::rand needs tract_onnx_random (tract 0.19.0";
        QTest::newRow("a number from a draw") << R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %size : int[] = prim::ListConstruct(%one)
  %r : Tensor = aten::rand(%size, %none, %none, %none, %none)
  %f : float = aten::Float(%r)
  %y : Tensor = aten::mul(%x, %f)
  return (%y)
)IR"
                                              << "tract"
                                              << "aten::Float computes a number from a random draw";
        QTest::newRow("randint") << R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %five : int = prim::Constant[value=5]()
  %size : int[] = aten::size(%x)
  %r : Tensor = aten::randint(%five, %size, %none, %none, %none, %none)
  %y : Tensor = aten::add(%x, %r, %one)
  return (%y)
)IR"
                                 << "tract"
                                 << "aten::randint is not supported: it draws random values";
    }
    void refusals() {
        QFETCH(QString, ir);
        QFETCH(QString, target);
        QFETCH(QString, why);
        const std::string text = ir.toStdString();
        auto e = exportSnippet(text.c_str(), {"x:4x4:f32"}, {}, ::target(qPrintable(target)));
        QVERIFY2(e.error.find(why.toStdString()) != std::string::npos, e.error.c_str());
        QVERIFY2(e.error.find("[translate]") != std::string::npos, e.error.c_str());
    }
};

T2N_TEST_SUITE(TranslateRandomTest)
#include "random_test.moc"
