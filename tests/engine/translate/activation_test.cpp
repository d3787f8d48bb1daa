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
