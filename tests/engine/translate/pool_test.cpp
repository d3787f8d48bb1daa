// translate/lower_pool.cpp: max and average pooling, plain and adaptive, with
// their windows, strides, padding and ceil mode.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;
using t2n::test::seeded;

class TranslatePoolTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// max_pool2d 3x3 stride 2 padding 1: max_pool over the spatial axes only.
    void maxPool2d() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %three : int = prim::Constant[value=3]()
  %false : bool = prim::Constant[value=0]()
  %k : int[] = prim::ListConstruct(%three, %three)
  %s : int[] = prim::ListConstruct(%two, %two)
  %p : int[] = prim::ListConstruct(%one, %one)
  %d : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::max_pool2d(%x, %k, %s, %p, %d, %false)
  return (%y)
)IR",
                               {"x:1x2x9x9:f32"});
        EXPECT_NNEF("# CHECK: max_pool(\n# CHECK-SAME: size = [1, 1, 3, 3]", e);
    }

    /// avg_pool2d with ceil mode and padding excluded from the count.
    void avgPool2dCeil() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %two : int = prim::Constant[value=2]()
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %k : int[] = prim::ListConstruct(%two, %two)
  %p : int[] = prim::ListConstruct(%zero, %zero)
  %y : Tensor = aten::avg_pool2d(%x, %k, %k, %p, %true, %false, %none)
  return (%y)
)IR",
                               {"x:1x3x7x7:f32"});
        EXPECT_NNEF("# CHECK: avg_pool(", e);
    }

    /// count_include_pad=True with padding 1 and ceil mode, for tract 0.23.5
    /// (which divides every border by the real cells) and 0.23.9 (which
    /// counts a 'constant' border's padding, overhang included): the same
    /// archive, explicit zero padding then border 'ignore', gives PyTorch's
    /// numbers on both, and the check models each release's reading.
    void avgPoolCountingPaddingOnTract0235And0239() {
        for (const char* version : {"0.23.5", "0.23.9"}) {
            t2n::ExportOptions o;
            o.target.version = version;
            auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %three : int = prim::Constant[value=3]()
  %true : bool = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %k : int[] = prim::ListConstruct(%three, %three)
  %s : int[] = prim::ListConstruct(%two, %two)
  %p : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::avg_pool2d(%x, %k, %s, %p, %true, %true, %none)
  return (%y)
)IR",
                                   {"x:1x2x8x7:f32"}, {}, o);
            EXPECT_NNEF("# CHECK: pad(\n# CHECK-SAME: border = 'constant'\n"
                        "# CHECK: avg_pool(\n# CHECK-SAME: border = 'ignore'\n"
                        "# CHECK-NOT: border = 'constant'",
                        e);
        }
    }

    /// avg_pool2d with divisor_override: the window sums (box without
    /// normalize, where the border changes nothing on any release) divided
    /// by the given number.
    void avgPoolDivisorOverride() {
        for (const char* version : {"0.23.5", "0.23.9"}) {
            t2n::ExportOptions o;
            o.target.version = version;
            auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %three : int = prim::Constant[value=3]()
  %five : int = prim::Constant[value=5]()
  %false : bool = prim::Constant[value=0]()
  %true : bool = prim::Constant[value=1]()
  %k : int[] = prim::ListConstruct(%three, %three)
  %s : int[] = prim::ListConstruct(%two, %two)
  %p : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::avg_pool2d(%x, %k, %s, %p, %true, %false, %five)
  return (%y)
)IR",
                                   {"x:1x2x8x7:f32"}, {}, o);
            EXPECT_NNEF("# CHECK: box(\n# CHECK-SAME: normalize = false\n# CHECK: div(", e);
        }
    }

    /// adaptive_avg_pool2d to 1x1 is a mean over the spatial axes.
    void adaptiveAvgPoolToOne() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %size : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::adaptive_avg_pool2d(%x, %size)
  return (%y)
)IR",
                               {"x:2x3x5x5:f32"});
        EXPECT_NNEF("# CHECK: mean_reduce(\n# CHECK-SAME: axes = [2, 3]", e);
    }

    /// An unbatched [C, H, W] input: tract's pools read the first two axes as
    /// batch and channels, so a unit batch axis is put around the pool.
    void maxPoolOfAnUnbatchedInput() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %false : bool = prim::Constant[value=0]()
  %k : int[] = prim::ListConstruct(%two, %two)
  %p : int[] = prim::ListConstruct(%zero, %zero)
  %d : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::max_pool2d(%x, %k, %k, %p, %d, %false)
  return (%y)
)IR",
                               {"x:3x8x8:f32"});
        EXPECT_NNEF(
            "# CHECK: unsqueeze(\n# CHECK-SAME: axes = [0]\n# CHECK: max_pool(\n# CHECK-SAME: "
            "stride = [1, 1, 2, 2]\n# CHECK: squeeze(\n# CHECK-SAME: axes = [0]",
            e);
    }
};

T2N_TEST_SUITE(TranslatePoolTest)
#include "pool_test.moc"
