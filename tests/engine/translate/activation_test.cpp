// translate/lower_activation.cpp: each activation becomes its NNEF operation
// (or tract's composition of them) and computes what TorchScript computes.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateActivationTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// relu, sigmoid and tanh are NNEF primitives of the same names.
    void reluSigmoidTanh() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %a : Tensor = aten::relu(%x)
  %b : Tensor = aten::sigmoid(%a)
  %c : Tensor = aten::tanh(%x)
  return (%b, %c)
)IR",
                               {"x:2x3x4:f32"});
        EXPECT_NNEF(R"(
# CHECK: relu(
# CHECK: sigmoid(
# CHECK: tanh(
)",
                    e);
    }

    /// Exact (erf) gelu and tanh-approximated gelu both match TorchScript.
    void gelu() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : str = prim::Constant[value="none"]()
  %tanh : str = prim::Constant[value="tanh"]()
  %a : Tensor = aten::gelu(%x, %none)
  %b : Tensor = aten::gelu(%x, %tanh)
  return (%a, %b)
)IR",
                               {"x:4x8:f32"});
        EXPECT_NNEF("# CHECK: tract_core_erf(\n# CHECK: tanh(", e);
    }

    /// For Khronos, which has no erf, exact gelu and erf itself are written
    /// with standard operations (Abramowitz & Stegun 7.1.26) and still match
    /// TorchScript at the approximate level, on inputs out to |x| = 6.
    void erfForKhronos() {
        t2n::ExportOptions khronos;
        khronos.target = t2n::TargetSpec::parse("khronos");
        khronos.checkIoNamesQuantityMatch = false;
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : str = prim::Constant[value="none"]()
  %three : float = prim::Constant[value=3.]()
  %wide : Tensor = aten::mul(%x, %three)
  %a : Tensor = aten::gelu(%wide, %none)
  %b : Tensor = aten::erf(%wide)
  return (%a, %b)
)IR",
                               {"x:4x64:f32"}, {}, khronos);
        EXPECT_NNEF("# CHECK-NOT: tract_core_erf\n# CHECK: exp(\n# CHECK: sign(", e);
        for (const auto& out : e.report.check.outputs)
            QVERIFY2(out.maxAbsError < 1e-6, out.name.c_str());
    }

    /// softmax over a negative axis becomes NNEF softmax over the positive one.
    void softmaxLastAxis() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %dim : int = prim::Constant[value=-1]()
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::softmax(%x, %dim, %none)
  return (%y)
)IR",
                               {"x:2x3x5:f32"});
        EXPECT_NNEF("# CHECK: softmax(\n# CHECK-SAME: axes = [2]", e);
    }

    /// leaky_relu keeps its slope; hardswish and hardsigmoid are composed.
    void leakyReluAndHardActivations() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %slope : float = prim::Constant[value=0.2]()
  %a : Tensor = aten::leaky_relu(%x, %slope)
  %b : Tensor = aten::hardswish(%x)
  %c : Tensor = aten::hardsigmoid(%x)
  return (%a, %b, %c)
)IR",
                               {"x:3x7:f32"});
        EXPECT_NNEF("# CHECK: leaky_relu(\n# CHECK: tract_core_hard_swish(", e);
    }

    /// log_softmax: tract's own operation for the newest tract t2n knows.
    void logSoftmax() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %dim : int = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::log_softmax(%x, %dim, %none)
  return (%y)
)IR",
                               {"x:2x6:f32"});
        EXPECT_NNEF("# CHECK: tract_core_log_softmax(\n# CHECK-SAME: axes = [1]", e);
    }
};

T2N_TEST_SUITE(TranslateActivationTest)
#include "activation_test.moc"
