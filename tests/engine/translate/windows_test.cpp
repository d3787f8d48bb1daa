// translate/lower_windows.cpp: window functions and eye whose length follows
// a dynamic axis, computed in the graph from tract_core_range.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

#include <initializer_list>

using t2n::test::exportSnippet;

namespace {
t2n::ExportOptions dynamicAxes(std::initializer_list<const char*> axes) {
    t2n::ExportOptions o;
    for (const char* a : axes)
        o.dynamicAxes.push_back(t2n::DynamicAxis::parse(a));
    return o;
}
} // namespace

class TranslateWindowsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Each row of x scaled by a Hann window as long as x has rows.
    void hannWindowOfADynamicLength() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %n : int = aten::size(%x, %zero)
  %w : Tensor = aten::hann_window(%n, %none, %none, %none, %none)
  %c : Tensor = aten::unsqueeze(%w, %one)
  %y : Tensor = aten::mul(%x, %c)
  return (%y)
)IR",
                               {"x:6x3:f32"}, {}, dynamicAxes({"x:0=N"}));
        EXPECT_NNEF("# CHECK: tract_core_range(\n# CHECK: cos(", e);
    }

    /// x plus an identity of its own (dynamic) size.
    void eyeOfADynamicSize() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %n : int = aten::size(%x, %zero)
  %i : Tensor = aten::eye(%n, %none, %none, %none, %none)
  %y : Tensor = aten::add(%x, %i, %one)
  return (%y)
)IR",
                               {"x:4x4:f32"}, {}, dynamicAxes({"x:0=N", "x:1=N"}));
        EXPECT_NNEF("# CHECK: tract_core_range(\n# CHECK: eq(", e);
    }
};

T2N_TEST_SUITE(TranslateWindowsTest)
#include "windows_test.moc"
