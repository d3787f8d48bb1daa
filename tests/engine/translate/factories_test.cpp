// translate/lower_factories.cpp: factories whose size follows a dynamic axis
// are computed in the graph (tract_core_range, tract_core_broadcast); with
// static sizes they are folded into constants.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

namespace {
t2n::ExportOptions batchIsDynamic() {
    t2n::ExportOptions o;
    o.dynamicAxes = {t2n::DynamicAxis::parse("x:0=B")};
    return o;
}
} // namespace

class TranslateFactoriesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// arange(x.size(0)) with a dynamic batch: a range of B in the graph (x
    /// also feeds an output: an input only measured is refused as unused).
    void arangeOfADynamicSize() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %n : int = aten::size(%x, %zero)
  %r : Tensor = aten::arange(%n, %none, %none, %none, %none)
  %y : Tensor = aten::relu(%x)
  return (%r, %y)
)IR",
                               {"x:4x3:f32"}, {}, batchIsDynamic());
        EXPECT_NNEF("# CHECK: external<scalar>(shape = [B, 3])\n# CHECK: tract_core_range(", e);
    }

    /// zeros([x.size(0), 3]) + x with a dynamic batch: a broadcast of B rows.
    void zerosOfADynamicSize() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %three : int = prim::Constant[value=3]()
  %none : NoneType = prim::Constant()
  %n : int = aten::size(%x, %zero)
  %size : int[] = prim::ListConstruct(%n, %three)
  %z : Tensor = aten::zeros(%size, %none, %none, %none, %none)
  %y : Tensor = aten::add(%z, %x, %one)
  return (%y)
)IR",
                               {"x:4x3:f32"}, {}, batchIsDynamic());
        EXPECT_NNEF("# CHECK: tract_core_broadcast(", e);
    }

    /// full_like of a static input: folded, nothing computed at run time.
    void fullLikeStaticIsFolded() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %v : float = prim::Constant[value=2.5]()
  %none : NoneType = prim::Constant()
  %f : Tensor = aten::full_like(%x, %v, %none, %none, %none, %none, %none)
  %y : Tensor = aten::mul(%f, %x)
  return (%y)
)IR",
                               {"x:2x3:f32"});
        EXPECT_NNEF("# CHECK-NOT: tract_core_broadcast\n# CHECK: mul(", e);
    }
};

T2N_TEST_SUITE(TranslateFactoriesTest)
#include "factories_test.moc"
