// translate/lower_grid_sample.cpp: affine_grid (a constant base grid times
// theta) and grid_sample as gathers of the corner pixels, weighted.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

class TranslateGridSampleTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// F.affine_grid then F.grid_sample, bilinear with zero padding: random
    /// thetas send part of the grid outside the image, where zeros count.
    void affineGridThenBilinearZeros() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %theta : Tensor):
  %size : int[] = prim::Constant[value=[2, 3, 5, 6]]()
  %false : bool = prim::Constant[value=0]()
  %grid : Tensor = aten::affine_grid_generator(%theta, %size, %false)
  %bilinear : int = prim::Constant[value=0]()
  %zeros : int = prim::Constant[value=0]()
  %y : Tensor = aten::grid_sampler(%x, %grid, %bilinear, %zeros, %false)
  return (%y)
)IR",
                               {"x:2x3x7x8:f32", "theta:2x2x3:f32"});
        EXPECT_NNEF("# CHECK: tract_core_gather_elements(", e);
    }

    /// Nearest with border padding and aligned corners, on a grid given as
    /// an input (coordinates from N(0, 1): about a third fall outside).
    void nearestBorderAlignedCorners() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %grid : Tensor):
  %nearest : int = prim::Constant[value=1]()
  %border : int = prim::Constant[value=1]()
  %true : bool = prim::Constant[value=1]()
  %y : Tensor = aten::grid_sampler(%x, %grid, %nearest, %border, %true)
  return (%y)
)IR",
                               {"x:1x2x6x6:f32", "grid:1x4x5x2:f32"});
        EXPECT_NNEF("# CHECK: tract_core_gather_elements(", e);
    }

    /// Bilinear with reflection padding: out-of-range coordinates fold back.
    void bilinearReflection() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %grid : Tensor):
  %bilinear : int = prim::Constant[value=0]()
  %reflection : int = prim::Constant[value=2]()
  %false : bool = prim::Constant[value=0]()
  %y : Tensor = aten::grid_sampler(%x, %grid, %bilinear, %reflection, %false)
  return (%y)
)IR",
                               {"x:1x1x5x7:f32", "grid:1x3x3x2:f32"});
        EXPECT_NNEF("# CHECK: tract_core_gather_elements(", e);
    }
};

T2N_TEST_SUITE(TranslateGridSampleTest)
#include "grid_sample_test.moc"
