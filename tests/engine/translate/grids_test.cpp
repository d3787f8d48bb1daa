// translate/lower_grids.cpp: meshgrid as reshapes and tiles; searchsorted as
// comparisons counted against boundaries of a static length.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateGridsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Both grids of two vectors, 'ij' and 'xy'.
    void meshgridBothIndexings() {
        for (const char* indexing : {"ij", "xy"}) {
            std::string ir = R"IR(
graph(%self : Tensor, %a : Tensor, %b : Tensor):
  %l : Tensor[] = prim::ListConstruct(%a, %b)
  %ix : str = prim::Constant[value="INDEXING"]()
  %g : Tensor[] = aten::meshgrid(%l, %ix)
  %g0 : Tensor, %g1 : Tensor = prim::ListUnpack(%g)
  return (%g0, %g1)
)IR";
            ir.replace(ir.find("INDEXING"), 8, indexing);
            auto e = exportSnippet(ir.c_str(), {"a:3:f32", "b:4:f32"});
            EXPECT_NNEF("# CHECK: tile(", e);
        }
    }

    /// searchsorted of values into sorted boundaries, left and right.
    void searchsortedLeftAndRight() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %b : Tensor, %v : Tensor):
  %zero : int = prim::Constant[value=0]()
  %f : bool = prim::Constant[value=0]()
  %t : bool = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %sb : Tensor, %si : Tensor = aten::sort(%b, %zero, %f)
  %left : Tensor = aten::searchsorted(%sb, %v, %f, %f, %none, %none)
  %right : Tensor = aten::searchsorted(%sb, %v, %f, %t, %none, %none)
  return (%left, %right)
)IR",
                               {"b:6:f32", "v:2x5:f32"});
        EXPECT_NNEF("# CHECK: sum_reduce(", e);
    }
};

T2N_TEST_SUITE(TranslateGridsTest)
#include "grids_test.moc"
