// translate/lower_scatter.cpp: scatter, scatter_add, index_add and one_hot as
// tract's scatter and one-hot operations. Indices come from argsort inside
// the snippet, so every one is valid and each write lands once (a scatter of
// a permutation) or adds up (index_add).
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateScatterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// scatter(self, 1, argsort(x), x): x written back sorted per row.
    void scatterAPermutation() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %base : Tensor):
  %dim : int = prim::Constant[value=1]()
  %desc : bool = prim::Constant[value=0]()
  %i : Tensor = aten::argsort(%x, %dim, %desc)
  %y : Tensor = aten::scatter(%base, %dim, %i, %x)
  return (%y)
)IR",
                               {"x:3x5:f32", "base:3x5:f32"});
        EXPECT_NNEF("# CHECK: tract_core_scatter_elements(", e);
    }

    /// scatter_add with the reduction tract has from 0.23.0 ...
    void scatterAddNeedsItsTract() {
        const char* ir = R"IR(
graph(%self : Tensor, %x : Tensor, %base : Tensor):
  %dim : int = prim::Constant[value=0]()
  %desc : bool = prim::Constant[value=1]()
  %i : Tensor = aten::argsort(%x, %dim, %desc)
  %y : Tensor = aten::scatter_add(%base, %dim, %i, %x)
  return (%y)
)IR";
        auto e = exportSnippet(ir, {"x:4x3:f32", "base:4x3:f32"});
        EXPECT_NNEF("# CHECK: tract_core_scatter_elements(\n# CHECK-SAME: reduction = 'add'", e);
        // ... and is refused, with the version to target, for an older one.
        t2n::ExportOptions old;
        old.target = t2n::TargetSpec::parse("tract@0.22.0");
        auto refused = exportSnippet(ir, {"x:4x3:f32", "base:4x3:f32"}, {}, old);
        QVERIFY2(refused.error.find("0.23.0") != std::string::npos, refused.error.c_str());
        QVERIFY2(refused.error.find("aten::scatter_add") != std::string::npos,
                 refused.error.c_str());
    }

    /// index_add on axis 0 with a 1-d index and alpha.
    void indexAddWithAlpha() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %w : Tensor, %src : Tensor):
  %zero : int = prim::Constant[value=0]()
  %desc : bool = prim::Constant[value=0]()
  %i : Tensor = aten::argsort(%w, %zero, %desc)
  %alpha : float = prim::Constant[value=0.5]()
  %y : Tensor = aten::index_add(%x, %zero, %i, %src, %alpha)
  return (%y)
)IR",
                               {"x:4x3:f32", "w:4:f32", "src:4x3:f32"});
        EXPECT_NNEF("# CHECK: tract_core_scatter_elements(", e);
    }

    /// one_hot of a permutation: an integer identity with its rows reordered.
    void oneHotOfAPermutation() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %w : Tensor):
  %zero : int = prim::Constant[value=0]()
  %desc : bool = prim::Constant[value=0]()
  %i : Tensor = aten::argsort(%w, %zero, %desc)
  %n : int = prim::Constant[value=5]()
  %y : Tensor = aten::one_hot(%i, %n)
  return (%y)
)IR",
                               {"w:5:f32"});
        EXPECT_NNEF("# CHECK: tract_core_one_hot(", e);
    }
};

T2N_TEST_SUITE(TranslateScatterTest)
#include "scatter_test.moc"
