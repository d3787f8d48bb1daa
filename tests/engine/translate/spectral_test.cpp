// translate/lower_spectral.cpp: stft and the fft_* kinds on tract_core_stft /
// tract_core_fft, complex values as a trailing axis of 2 (abs, mul, real,
// conj, view_as_real / view_as_complex), and the refusals: Khronos, a tract
// older than the operations, a kind that does not know complex values.
#include "engine/translate/translate_test_util.h"
#include "suite_macros.h"

#include <ATen/ATen.h>

using t2n::test::exportSnippet;

namespace {

// The largest difference the check measured over the outputs.
double maxAbsError(const t2n::test::SnippetExport& e) {
    double m = 0;
    for (const auto& o : e.report.check.outputs)
        m = std::max(m, o.maxAbsError);
    return m;
}

// |stft| with n_fft 8 and no window (a rectangular one over n_fft).
const char* const kRectangularStft = R"IR(
graph(%self : Tensor, %x : Tensor):
  %n : int = prim::Constant[value=8]()
  %none : NoneType = prim::Constant()
  %f : bool = prim::Constant[value=0]()
  %t : bool = prim::Constant[value=1]()
  %s : Tensor = aten::stft(%x, %n, %none, %none, %none, %f, %t, %t)
  %a : Tensor = aten::abs(%s)
  return (%a)
)IR";

// A hann window of 16 as the module's parameter, torchaudio's layout.
t2n::test::Params hann(int64_t n) {
    return {{"window", at::hann_window(n)}};
}

} // namespace

class TranslateSpectralTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// torchaudio's Spectrogram(power=2) as torch.stft traces it: reflect
    /// padding by n_fft / 2 (center=True), a hann window, onesided, complex
    /// result, then abs and pow.
    void powerSpectrogram() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="window"](%self)
  %n : int = prim::Constant[value=16]()
  %half : int = prim::Constant[value=8]()
  %hop : int = prim::Constant[value=4]()
  %f : bool = prim::Constant[value=0]()
  %t : bool = prim::Constant[value=1]()
  %two : float = prim::Constant[value=2.]()
  %none : NoneType = prim::Constant()
  %mode : str = prim::Constant[value="reflect"]()
  %one : int = prim::Constant[value=1]()
  %pads : int[] = prim::ListConstruct(%half, %half)
  %x3 : Tensor = aten::unsqueeze(%x, %one)
  %padded : Tensor = aten::pad(%x3, %pads, %mode, %none)
  %p2 : Tensor = aten::squeeze(%padded, %one)
  %s : Tensor = aten::stft(%p2, %n, %hop, %n, %w, %f, %t, %t)
  %a : Tensor = aten::abs(%s)
  %p : Tensor = aten::pow(%a, %two)
  return (%p)
)IR",
                               {"x:2x100:f32"}, hann(16));
        EXPECT_NNEF("# CHECK: pad(\n# CHECK: tract_core_stft(\n# CHECK-SAME: frame = 16, stride = 4"
                    "\n# CHECK: slice(\n# CHECK: transpose(\n# CHECK: sqr(\n# CHECK: sqrt(",
                    e);
        qInfo("power spectrogram: max abs error %g", maxAbsError(e));
    }

    /// A window shorter than n_fft (centered with zeros), normalized, a 1-d
    /// signal, no onesided cut; view_as_real of the complex result.
    void shortWindowNormalizedTwoSided() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="window"](%self)
  %n : int = prim::Constant[value=16]()
  %win : int = prim::Constant[value=10]()
  %hop : int = prim::Constant[value=5]()
  %f : bool = prim::Constant[value=0]()
  %t : bool = prim::Constant[value=1]()
  %s : Tensor = aten::stft(%x, %n, %hop, %win, %w, %t, %f, %t)
  %r : Tensor = aten::view_as_real(%s)
  return (%r)
)IR",
                               {"x:60:f32"}, hann(10));
        EXPECT_NNEF("# CHECK: tract_core_stft(\n# CHECK: mul(\n# CHECK: transpose(", e);
    }

    /// No window: a rectangular one over win_length.
    void stftWithoutWindow() {
        auto e = exportSnippet(kRectangularStft, {"x:3x40:f32"});
        EXPECT_NNEF("# CHECK: tract_core_stft(", e);
    }

    /// fft of a real signal along axis 1, and ifft of complex input given as
    /// pairs (view_as_complex), with norm "ortho" and a longer n.
    void fftAndIfft() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %z : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %m1 : int = prim::Constant[value=-1]()
  %n : int = prim::Constant[value=12]()
  %ortho : str = prim::Constant[value="ortho"]()
  %f : Tensor = aten::fft_fft(%x, %none, %one, %none)
  %fr : Tensor = aten::view_as_real(%f)
  %c : Tensor = aten::view_as_complex(%z)
  %i : Tensor = aten::fft_ifft(%c, %n, %m1, %ortho)
  %ir : Tensor = aten::view_as_real(%i)
  return (%fr, %ir)
)IR",
                               {"x:3x10x4:f32", "z:5x9x2:f32"});
        EXPECT_NNEF("# CHECK: tract_core_fft(\n# CHECK-SAME: inverse = false\n# CHECK: "
                    "tract_core_fft(\n# CHECK-SAME: inverse = true",
                    e);
    }

    /// rfft cut to n = 6, norm "forward"; then the spectrum times a complex
    /// one (conj of itself: |X|^2), its real part, and abs times a real factor.
    void rfftAndComplexProducts() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %g : Tensor):
  %none : NoneType = prim::Constant()
  %m1 : int = prim::Constant[value=-1]()
  %n : int = prim::Constant[value=6]()
  %fwd : str = prim::Constant[value="forward"]()
  %r : Tensor = aten::fft_rfft(%x, %n, %m1, %fwd)
  %c : Tensor = aten::conj(%r)
  %rc : Tensor = aten::resolve_conj(%c)
  %p : Tensor = aten::mul(%r, %rc)
  %re : Tensor = aten::real(%p)
  %s : Tensor = aten::mul(%r, %g)
  %sr : Tensor = aten::view_as_real(%s)
  return (%re, %sr)
)IR",
                               {"x:2x9:f32", "g:2x4:f32"});
        EXPECT_NNEF("# CHECK: tract_core_fft(\n# CHECK: concat(", e);
    }

    /// Khronos NNEF has no Fourier transform.
    void khronosIsRefused() {
        t2n::ExportOptions o;
        o.target.kind = t2n::TargetKind::Khronos;
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %m1 : int = prim::Constant[value=-1]()
  %f : Tensor = aten::fft_fft(%x, %none, %m1, %none)
  %a : Tensor = aten::abs(%f)
  return (%a)
)IR",
                               {"x:2x8:f32"}, {}, o);
        QVERIFY2(e.error.find("Khronos NNEF 1.0.5 has no Fourier transform") != std::string::npos,
                 e.error.c_str());
    }

    /// tract 0.18 has no tract_core_stft: refused, naming the version that has it.
    void oldTractIsRefused() {
        t2n::ExportOptions o;
        o.target.version = "0.18.0";
        auto e = exportSnippet(kRectangularStft, {"x:40:f32"}, {}, o);
        QVERIFY2(e.error.find("tract_core_stft") != std::string::npos &&
                     e.error.find("0.19.0") != std::string::npos,
                 e.error.c_str());
    }

    /// A kind that does not know the trailing axis of 2 is refused on a
    /// complex tensor, naming the node (transpose would swap the wrong axes).
    void complexTransposeIsRefused() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %f : Tensor = aten::fft_fft(%x, %none, %one, %none)
  %t : Tensor = aten::transpose(%f, %zero, %one)
  %r : Tensor = aten::view_as_real(%t)
  return (%r)
)IR",
                               {"x:3x8:f32"});
        QVERIFY2(e.error.find("aten::transpose of a complex tensor") != std::string::npos,
                 e.error.c_str());
    }
};

T2N_TEST_SUITE(TranslateSpectralTest)
#include "spectral_test.moc"
