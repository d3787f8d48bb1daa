// translate/lower_special_values.cpp: infinities and NaN made inside the
// snippet (x / (x - x) is ±inf, log of a negative is NaN), then tested,
// replaced and skipped by the family's selects and comparisons.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

using t2n::test::exportSnippet;

namespace {
// %s: +inf where x > 0, NaN where x < 0 (-inf + NaN); %nan: log(x).
constexpr const char* kSpecialValues = R"IR(
  %one : int = prim::Constant[value=1]()
  %zero : Tensor = aten::sub(%x, %x, %one)
  %inf : Tensor = aten::div(%x, %zero)
  %nan : Tensor = aten::log(%x)
  %s : Tensor = aten::add(%inf, %nan, %one)
)IR";

std::string snippet(const std::string& body) {
    return "graph(%self : Tensor, %x : Tensor):" + std::string(kSpecialValues) + body;
}
} // namespace

class TranslateSpecialValuesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// nan_to_num with PyTorch's defaults: NaN -> 0, inf -> the largest f32.
    void nanToNumDefaults() {
        const std::string ir = snippet(R"IR(
  %none : NoneType = prim::Constant()
  %y : Tensor = aten::nan_to_num(%s, %none, %none, %none)
  return (%y)
)IR");
        auto e = exportSnippet(ir.c_str(), {"x:3x4:f32"});
        EXPECT_NNEF("# CHECK: select(", e);
    }

    /// isinf, isposinf and isfinite on the same values (boolean outputs).
    void classify() {
        const std::string ir = snippet(R"IR(
  %a : Tensor = aten::isinf(%s)
  %b : Tensor = aten::isposinf(%inf)
  %c : Tensor = aten::isfinite(%nan)
  return (%a, %b, %c)
)IR");
        auto e = exportSnippet(ir.c_str(), {"x:2x5:f32"});
        EXPECT_NNEF("# CHECK: graph", e);
        QCOMPARE(e.report.check.outputs.size(), size_t(3));
    }

    /// nansum and fmax skip the NaN that log made.
    void nanAwareReductions() {
        const std::string ir = snippet(R"IR(
  %dims : int[] = prim::ListConstruct(%one)
  %keep : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %sum : Tensor = aten::nansum(%nan, %dims, %keep, %none)
  %m : Tensor = aten::fmax(%nan, %x)
  return (%sum, %m)
)IR");
        auto e = exportSnippet(ir.c_str(), {"x:3x6:f32"});
        EXPECT_NNEF("# CHECK: sum_reduce(", e);
    }
};

T2N_TEST_SUITE(TranslateSpecialValuesTest)
#include "special_values_test.moc"
