// translate/lower_quantized.cpp on IR snippets: quantize_per_tensor rounds as
// PyTorch does (x * (1/scale) half to even, the zero point added after), so
// at exact ties with odd zero points the archive holds PyTorch's integers and
// not those of tract's cast; the requantizing quantized::cat and mul land on
// PyTorch's integers too, and quantized::add, which tract computes from its
// own requantization, stays within one quantization step (docs/quantized.md).
// The expected values are LibTorch's, run by the check on the same inputs.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

#include <string>

using t2n::test::exportSnippet;
using t2n::test::SnippetExport;

namespace {

/// The check's comparison of the snippet's one output.
const t2n::OutputComparison& onlyOutput(const SnippetExport& e) {
    return e.report.check.outputs.at(0);
}

/// Inputs rounded to multiples of 1/8: with scales of 1/4 and 1/2 about half
/// of x / scale are exact ties (k + 0.5).
constexpr const char* kEighths = R"IR(
  %eight : float = prim::Constant[value=8.]()
  %x8 : Tensor = aten::mul(%x, %eight)
  %xr : Tensor = aten::round(%x8)
  %xt : Tensor = aten::div(%xr, %eight)
)IR";

std::string snippet(const std::string& head, const std::string& body) {
    return head + kEighths + body;
}

} // namespace

class TranslateQuantizedTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// quint8, scale 1/4, zero point 3 (odd): tract's cast would round
    /// x / scale + 3 and differ on every tie; the archive rounds first.
    void quantizeQuint8AtTiesIsExact() {
        const std::string ir = snippet("graph(%self : Tensor, %x : Tensor):", R"IR(
  %scale : float = prim::Constant[value=0.25]()
  %zp : int = prim::Constant[value=3]()
  %quint8 : int = prim::Constant[value=13]()
  %q : Tensor = aten::quantize_per_tensor(%xt, %scale, %zp, %quint8)
  %y : Tensor = aten::dequantize(%q)
  return (%y)
)IR");
        auto e = exportSnippet(ir.c_str(), {"x:4x64:f32"});
        QVERIFY2(e.error.empty() && !e.report.check.outputs.empty(), e.error.c_str());
        const auto& out = onlyOutput(e);
        QCOMPARE(out.quantStep, 0.25);
        QCOMPARE(out.maxAbsError, 0.0);
        QCOMPARE(out.offByOne, int64_t{0});
        EXPECT_NNEF("# CHECK: tract_core_round_even(\n# CHECK: tract_core_cast(", e);
    }

    /// qint8 with zero point -5 (odd) and scale 1/2: ties at every odd
    /// multiple of 1/4, values below -59.5 clamp to -128.
    void quantizeQint8AtTiesIsExact() {
        const std::string ir = snippet("graph(%self : Tensor, %x : Tensor):", R"IR(
  %scale : float = prim::Constant[value=0.5]()
  %zp : int = prim::Constant[value=-5]()
  %qint8 : int = prim::Constant[value=12]()
  %q : Tensor = aten::quantize_per_tensor(%xt, %scale, %zp, %qint8)
  %y : Tensor = aten::dequantize(%q)
  return (%y)
)IR");
        auto e = exportSnippet(ir.c_str(), {"x:4x64:f32"});
        QVERIFY2(e.error.empty() && !e.report.check.outputs.empty(), e.error.c_str());
        QCOMPARE(onlyOutput(e).maxAbsError, 0.0);
        EXPECT_NNEF("# CHECK: tract_core_round_even(", e);
    }

    /// quantized::cat requantizes two tensors of other scales into the
    /// output's: PyTorch's integers, element for element.
    void catRequantizesAsPyTorch() {
        const std::string ir = snippet("graph(%self : Tensor, %x : Tensor):", R"IR(
  %s1 : float = prim::Constant[value=0.125]()
  %s2 : float = prim::Constant[value=0.25]()
  %zp1 : int = prim::Constant[value=1]()
  %zp2 : int = prim::Constant[value=7]()
  %quint8 : int = prim::Constant[value=13]()
  %a : Tensor = aten::quantize_per_tensor(%xt, %s1, %zp1, %quint8)
  %neg : Tensor = aten::neg(%xt)
  %b : Tensor = aten::quantize_per_tensor(%neg, %s2, %zp2, %quint8)
  %list : Tensor[] = prim::ListConstruct(%a, %b)
  %dim : int = prim::Constant[value=1]()
  %so : float = prim::Constant[value=0.5]()
  %zpo : int = prim::Constant[value=9]()
  %c : Tensor = quantized::cat(%list, %dim, %so, %zpo)
  %y : Tensor = aten::dequantize(%c)
  return (%y)
)IR");
        auto e = exportSnippet(ir.c_str(), {"x:3x40:f32"});
        QVERIFY2(e.error.empty() && !e.report.check.outputs.empty(), e.error.c_str());
        QCOMPARE(onlyOutput(e).maxAbsError, 0.0);
        EXPECT_NNEF("# CHECK: concat(", e);
    }

    /// quantized::mul: the product of the real values, requantized as PyTorch
    /// does. a = m / 8 and b = (m + 1) / 8, so a * b / (1/16) = m (m + 1) / 4
    /// is a tie whenever m (m + 1) = 2 mod 4.
    void mulRequantizesAsPyTorch() {
        const std::string ir = snippet("graph(%self : Tensor, %x : Tensor):", R"IR(
  %s : float = prim::Constant[value=0.125]()
  %zp : int = prim::Constant[value=5]()
  %quint8 : int = prim::Constant[value=13]()
  %a : Tensor = aten::quantize_per_tensor(%xt, %s, %zp, %quint8)
  %so : float = prim::Constant[value=0.0625]()
  %zpo : int = prim::Constant[value=3]()
  %eighth : float = prim::Constant[value=0.125]()
  %one : int = prim::Constant[value=1]()
  %next : Tensor = aten::add(%xt, %eighth, %one)
  %b : Tensor = aten::quantize_per_tensor(%next, %s, %zp, %quint8)
  %m : Tensor = quantized::mul(%a, %b, %so, %zpo)
  %y : Tensor = aten::dequantize(%m)
  return (%y)
)IR");
        auto e = exportSnippet(ir.c_str(), {"x:2x50:f32"});
        QVERIFY2(e.error.empty() && !e.report.check.outputs.empty(), e.error.c_str());
        QCOMPARE(onlyOutput(e).maxAbsError, 0.0);
        EXPECT_NNEF("# CHECK: mul(", e);
    }

    /// quantized::add of operands of two quantized types: tract refuses its
    /// own add there ("No super type for QU8(...) and QU8(...)"), so the real
    /// values are added and requantized as PyTorch rounds: within one step of
    /// PyTorch, as the criterion for a quantized operation says; the report
    /// counts the steps. Operands of one type keep tract's add.
    void addAsQnnpack() {
        const std::string ir = snippet("graph(%self : Tensor, %x : Tensor, %z : Tensor):", R"IR(
  %s1 : float = prim::Constant[value=0.03]()
  %s2 : float = prim::Constant[value=0.05]()
  %zp1 : int = prim::Constant[value=129]()
  %zp2 : int = prim::Constant[value=121]()
  %quint8 : int = prim::Constant[value=13]()
  %a : Tensor = aten::quantize_per_tensor(%x, %s1, %zp1, %quint8)
  %b : Tensor = aten::quantize_per_tensor(%z, %s2, %zp2, %quint8)
  %so : float = prim::Constant[value=0.07]()
  %zpo : int = prim::Constant[value=127]()
  %c : Tensor = quantized::add(%a, %b, %so, %zpo)
  %y : Tensor = aten::dequantize(%c)
  return (%y)
)IR");
        auto e = exportSnippet(ir.c_str(), {"x:2x3x8x8:f32", "z:2x3x8x8:f32"});
        QVERIFY2(e.error.empty() && !e.report.check.outputs.empty(), e.error.c_str());
        // qnnpack's fixed-point add on the stored integers, in f64.
        EXPECT_NNEF("# CHECK: tract_core_cast(quantize_per_tensor, to = 'u8')\n"
                    "# CHECK: to = 'f64'\n"
                    "# CHECK: tract_core_cast(quantize_per_tensor_1, to = 'u8')\n"
                    "# CHECK: fixed_point_sum = add(\n# CHECK: round(",
                    e);
        const auto& out = onlyOutput(e);
        QVERIFY(qFuzzyCompare(out.quantStep, 0.07));
        QCOMPARE(out.maxErrorSteps, 0.0);
        QCOMPARE(out.offByMore, int64_t{0});

        std::string sameType = ir;
        sameType.replace(sameType.find("0.05"), 4, "0.03");
        sameType.replace(sameType.find("121"), 3, "129");
        auto one = exportSnippet(sameType.c_str(), {"x:2x3x8x8:f32", "z:2x3x8x8:f32"});
        QVERIFY2(one.error.empty() && !one.report.check.outputs.empty(), one.error.c_str());
        EXPECT_NNEF("# CHECK-NOT: real_sum\n# CHECK: fixed_point_sum = add(", one);
        QCOMPARE(onlyOutput(one).maxErrorSteps, 0.0);
    }
};

T2N_TEST_SUITE(TranslateQuantizedTest)
#include "quantized_test.moc"
