// translate/lower_spectral.cpp and lower_complex.cpp: stft, istft and the
// fft_* kinds on tract_core_stft / tract_core_fft, complex values as a
// trailing axis of 2 (abs, mul, real, conj, view_as_real / view_as_complex,
// shape operations), and the refusals: Khronos, a tract older than the
// operations, a kind that does not know complex values, dynamic istft frames.
// The fixtures of tests/fixtures/ops_spectral.py cover the rest with PyTorch.
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

// stft then istft of a [B, L] signal: n_fft 16, hop 4, the module's window,
// onesided; istft's center trims n_fft / 2 on each side (the stft was not
// padded, so the ends are lost: LibTorch computes the same).
const char* const kIstftRoundTrip = R"IR(
graph(%self : Tensor, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="window"](%self)
  %n : int = prim::Constant[value=16]()
  %hop : int = prim::Constant[value=4]()
  %f : bool = prim::Constant[value=0]()
  %t : bool = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %s : Tensor = aten::stft(%x, %n, %hop, %n, %w, %f, %t, %t)
  %y : Tensor = aten::istft(%s, %n, %hop, %n, %w, %t, %f, %t, %none, %f)
  return (%y)
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

    /// rfft2 of a real [B, H, W] signal and irfft2 back with s and norm
    /// "ortho" (Fourier neural operators), fftn over every axis of a real
    /// tensor, ifftn over two axes of a complex one (issue 40).
    void twoAndNDimensionalTransforms() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %z : Tensor):
  %none : NoneType = prim::Constant()
  %m2 : int = prim::Constant[value=-2]()
  %m1 : int = prim::Constant[value=-1]()
  %six : int = prim::Constant[value=6]()
  %eight : int = prim::Constant[value=8]()
  %d : int[] = prim::ListConstruct(%m2, %m1)
  %s : int[] = prim::ListConstruct(%six, %eight)
  %ortho : str = prim::Constant[value="ortho"]()
  %r : Tensor = aten::fft_rfft2(%x, %none, %d, %none)
  %rr : Tensor = aten::view_as_real(%r)
  %i : Tensor = aten::fft_irfft2(%r, %s, %d, %ortho)
  %f : Tensor = aten::fft_fftn(%x, %none, %none, %none)
  %fr : Tensor = aten::view_as_real(%f)
  %c : Tensor = aten::view_as_complex(%z)
  %v : Tensor = aten::fft_ifftn(%c, %none, %d, %none)
  %vr : Tensor = aten::view_as_real(%v)
  return (%rr, %i, %fr, %vr)
)IR",
                               {"x:2x6x8:f32", "z:3x4x5x2:f32"});
        EXPECT_NNEF(
            "# CHECK: tract_core_fft(\n# CHECK: tract_core_gather(\n# CHECK: tract_core_fft(", e);
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
    /// complex tensor, naming the node (exp would take the 2 for an axis).
    void complexExpIsRefused() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %f : Tensor = aten::fft_fft(%x, %none, %one, %none)
  %t : Tensor = aten::exp(%f)
  %r : Tensor = aten::view_as_real(%t)
  return (%r)
)IR",
                               {"x:3x8:f32"});
        QVERIFY2(e.error.find("aten::exp of a complex tensor") != std::string::npos &&
                     e.error.find("complex (tract only)") != std::string::npos,
                 e.error.c_str());
    }

    /// Shape operations read their axes against the complex tensor's rank:
    /// transpose(-1, 0) of a complex [3, 8] swaps its two axes, not the 2.
    void complexTransposeKeepsTheTrailingAxis() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor):
  %none : NoneType = prim::Constant()
  %zero : int = prim::Constant[value=0]()
  %m1 : int = prim::Constant[value=-1]()
  %f : Tensor = aten::fft_fft(%x, %none, %m1, %none)
  %t : Tensor = aten::transpose(%f, %m1, %zero)
  %r : Tensor = aten::view_as_real(%t)
  return (%r)
)IR",
                               {"x:3x8:f32"});
        EXPECT_NNEF("# CHECK: transpose(\n# CHECK-SAME: axes = [1, 0, 2]", e);
    }

    /// Khronos NNEF has no complex numbers: complex(x, y) is refused too.
    void khronosRefusesComplexValues() {
        t2n::ExportOptions o;
        o.target.kind = t2n::TargetKind::Khronos;
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %y : Tensor):
  %z : Tensor = aten::complex(%x, %y)
  %r : Tensor = aten::view_as_real(%z)
  return (%r)
)IR",
                               {"x:2x3:f32", "y:2x3:f32"}, {}, o);
        QVERIFY2(e.error.find("aten::complex of a complex tensor: Khronos NNEF 1.0.5 has no "
                              "complex numbers") != std::string::npos,
                 e.error.c_str());
    }

    /// istft(stft(x)), n_fft 16, hop 4, hann window.
    void istftRoundTrip() {
        auto e = exportSnippet(kIstftRoundTrip, {"x:2x64:f32"}, hann(16));
        EXPECT_NNEF("# CHECK: tract_core_stft(\n# CHECK: tract_core_fft(\n# CHECK-SAME: inverse = "
                    "true\n# CHECK: reshape(",
                    e);
        qInfo("istft round trip: max abs error %g", maxAbsError(e));
    }

    /// The overlap-add is written for a number of frames known at export.
    void istftOfDynamicFramesIsRefused() {
        t2n::ExportOptions o;
        o.dynamicAxes.push_back(t2n::DynamicAxis::parse("x:1=L"));
        // 67 samples: 13 frames, 14 with the probe's 68 (64 and 65 give 13 both,
        // and the frame axis would not look dynamic).
        auto e = exportSnippet(kIstftRoundTrip, {"x:2x67:f32"}, hann(16), o);
        QVERIFY2(e.error.find("istft of a spectrum with a dynamic axis") != std::string::npos,
                 e.error.c_str());
    }

    /// istft of a spectrum given as pairs (view_as_complex), no window (a
    /// rectangular one), centered: exported for tract, refused for Khronos.
    void istftOfPairsAndKhronos() {
        const char* ir = R"IR(
graph(%self : Tensor, %z : Tensor):
  %n : int = prim::Constant[value=8]()
  %hop : int = prim::Constant[value=3]()
  %f : bool = prim::Constant[value=0]()
  %t : bool = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %c : Tensor = aten::view_as_complex(%z)
  %y : Tensor = aten::istft(%c, %n, %hop, %n, %none, %t, %f, %t, %none, %f)
  return (%y)
)IR";
        auto e = exportSnippet(ir, {"z:5x7x2:f32"});
        EXPECT_NNEF("# CHECK: tract_core_fft(\n# CHECK-SAME: inverse = true", e);
        qInfo("istft of pairs: max abs error %g", maxAbsError(e));
        t2n::ExportOptions o;
        o.target.kind = t2n::TargetKind::Khronos;
        auto k = exportSnippet(ir, {"z:5x7x2:f32"}, {}, o);
        QVERIFY2(k.error.find("aten::istft: Khronos NNEF 1.0.5 has no Fourier transform") !=
                     std::string::npos,
                 k.error.c_str());
    }

    /// Complex tensors are padded with zeros only: reflect is refused.
    void complexReflectPadIsRefused() {
        auto e = exportSnippet(R"IR(
graph(%self : Tensor, %x : Tensor, %y : Tensor):
  %one : int = prim::Constant[value=1]()
  %mode : str = prim::Constant[value="reflect"]()
  %none : NoneType = prim::Constant()
  %pads : int[] = prim::ListConstruct(%one, %one)
  %z : Tensor = aten::complex(%x, %y)
  %p : Tensor = aten::pad(%z, %pads, %mode, %none)
  %r : Tensor = aten::view_as_real(%p)
  return (%r)
)IR",
                               {"x:2x6:f32", "y:2x6:f32"});
        QVERIFY2(e.error.find("aten::pad of a complex tensor in mode 'reflect'") !=
                     std::string::npos,
                 e.error.c_str());
    }
};

T2N_TEST_SUITE(TranslateSpectralTest)
#include "spectral_test.moc"
