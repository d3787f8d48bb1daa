// Spectra as tract computes them: stft, fft_fft / ifft / rfft / irfft on
// tract_core_stft and tract_core_fft, and the complex values they produce.
// t2n has no complex dtype: a complex tensor is recorded as its real view,
// the trailing axis of 2 (real, imaginary) that tract's Fft and Stft read and
// write (core/src/ops/fft.rs), so view_as_real / view_as_complex are
// identities and no complex datum type (tract's "complex" feature) is ever
// written. Nodes that read a complex value go to complexRegistry(): the few
// kinds below that know the trailing axis; the translator refuses the others.
// Khronos NNEF has no Fourier transform: refused.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>
#include <numbers>

namespace t2n::translate {

namespace {

Expr lit(double v) {
    return Context::scalarLiteral(v, DType::F32);
}

// Khronos has no FFT, and tract's operations must exist in the target.
void requireSpectral(Context& ctx, std::string_view op) {
    if (ctx.target().isKhronos())
        ctx.unsupported(
            fmt::format("{}: Khronos NNEF 1.0.5 has no Fourier transform", ctx.node().kind),
            "export for tract (--target tract), which has " + std::string(op));
    requireTract(ctx, op, ctx.node().kind);
}

// The number of axes a value has as PyTorch sees it (without the trailing 2).
int64_t logicalRank(const ir::Value& v) {
    return rankOf(v) - (v.complex ? 1 : 0);
}

// Input `i` as complex numbers on a trailing axis of 2: a real tensor gets a
// zero imaginary part (unsqueeze, then pad the new axis with one zero).
Expr complexOperand(Context& ctx, size_t i) {
    const ir::Value& v = ctx.in(i);
    if (v.dtype != DType::F32)
        ctx.unsupported(fmt::format("{} of a {} tensor", ctx.node().kind, dtypeName(v.dtype)),
                        "t2n writes tract's Fourier transforms on f32 tensors");
    if (v.complex)
        return ctx.input(i);
    const int64_t r = rankOf(v);
    Expr u = ctx.emitTemp("unsqueeze", {ctx.input(i)}, {{"axes", Expr::ints({r})}}, "re");
    return ctx.emitTemp("pad", {u},
                        {{"padding", paddingPairs({{0, 1}}, r)},
                         {"border", Expr::str("constant")},
                         {"value", lit(0.0)}},
                        "complex");
}

// The part (0: real, 1: imaginary) of complex `x` of rank `rank` (with its 2),
// keeping the trailing axis.
Expr part(Context& ctx, Expr x, int64_t rank, int64_t which, const std::string& tag) {
    return ctx.emitTemp("slice", {std::move(x)}, sliceArgs(rank - 1, which, which + 1), tag);
}

// ---- stft ----------------------------------------------------------------

// The stft window padded to n_fft on both sides (left (n_fft - win) / 2, as
// PyTorch; tract before 0.22.0 did not center a shorter window, so t2n always
// writes it at full length). No window: ones over win_length.
std::vector<float> stftWindow(Context& ctx, int64_t nFft, int64_t winLength) {
    std::vector<float> w(static_cast<size_t>(nFft), 0.0f);
    const int64_t left = (nFft - winLength) / 2;
    if (ctx.isNone(4)) {
        for (int64_t i = 0; i < winLength; ++i)
            w[static_cast<size_t>(left + i)] = 1.0f;
        return w;
    }
    const ir::Value& win = ctx.in(4);
    const auto* data = win.constant ? std::get_if<TensorData>(&*win.constant) : nullptr;
    if (!data || win.complex)
        ctx.unsupported("stft with a window computed from the input",
                        "t2n writes the window as a constant of tract_core_stft");
    if (data->numel() != winLength)
        ctx.unsupported(
            fmt::format("stft window of {} values for win_length {}", data->numel(), winLength));
    for (int64_t i = 0; i < winLength; ++i)
        w[static_cast<size_t>(left + i)] = static_cast<float>(data->asDouble(i));
    return w;
}

// stft(x, n_fft, hop, win_length, window, normalized, onesided, return_complex)
// on [B?, L]: tract_core_stft frames the complex signal (frame n_fft, stride
// hop) and transforms each windowed frame: [B?, frames, n_fft, 2]; onesided
// keeps bins 0..n_fft/2; normalized scales by n_fft^-1/2; PyTorch's layout is
// [B?, bins, frames]. Centering is the aten::pad torch.stft writes before.
void lowerStft(Context& ctx) {
    requireSpectral(ctx, "tract_core_stft");
    if (ctx.numInputs() != 8)
        ctx.unsupported("stft with center and pad_mode arguments",
                        "torch.stft of LibTorch 1.13 pads before aten::stft");
    const ir::Value& x = ctx.in(0);
    const int64_t nFft = ctx.intArg(1);
    const int64_t hop = ctx.isNone(2) ? nFft / 4 : ctx.intArg(2);
    const int64_t winLength = ctx.isNone(3) ? nFft : ctx.intArg(3);
    const bool normalized = ctx.boolArg(5);
    const bool onesided = ctx.isNone(6) ? !x.complex : ctx.boolArg(6);
    if (nFft < 1 || hop < 1 || winLength < 1 || winLength > nFft)
        ctx.unsupported(
            fmt::format("stft with n_fft {}, hop {}, win_length {}", nFft, hop, winLength));
    const int64_t axis = logicalRank(x) - 1; // the signal axis
    Expr signal = complexOperand(ctx, 0);
    Expr w = floatTable(ctx, stftWindow(ctx, nFft, winLength), {nFft}, "window");
    Expr s = ctx.emitTemp("tract_core_stft", {signal},
                          {{"axis", Expr::i(axis)},
                           {"frame", Expr::i(nFft)},
                           {"stride", Expr::i(hop)},
                           {"window", w}},
                          "frames");
    const int64_t rank = axis + 3; // [..., frames, n_fft, 2]
    if (onesided)
        s = ctx.emitTemp("slice", {s}, sliceArgs(axis + 1, 0, nFft / 2 + 1), "onesided");
    if (normalized)
        s = ctx.emitTemp("mul", {s, lit(1.0 / std::sqrt(static_cast<double>(nFft)))}, {},
                         "normalized");
    std::vector<int64_t> perm(static_cast<size_t>(rank));
    for (int64_t i = 0; i < rank; ++i)
        perm[static_cast<size_t>(i)] = i;
    std::swap(perm[static_cast<size_t>(axis)], perm[static_cast<size_t>(axis + 1)]);
    ctx.emitOut("transpose", {s}, {{"axes", Expr::ints(perm)}});
}

// ---- fft_* ---------------------------------------------------------------

// The scale PyTorch's norm argument puts on a transform of length n.
double fftScale(Context& ctx, size_t normArg, int64_t n, bool inverse) {
    const std::string norm = ctx.isNone(normArg) ? "backward" : ctx.stringArg(normArg);
    const double dn = static_cast<double>(n);
    if (norm == "ortho")
        return 1.0 / std::sqrt(dn);
    if (norm == "backward")
        return inverse ? 1.0 / dn : 1.0;
    if (norm == "forward")
        return inverse ? 1.0 : 1.0 / dn;
    ctx.unsupported(fmt::format("norm '{}'", norm));
}

// Complex `x` (rank `rank` with its 2) cut or zero-padded to `n` along `axis`,
// PyTorch's n argument, from its size `have` there.
Expr resized(Context& ctx, Expr x, int64_t rank, int64_t axis, int64_t have, int64_t n) {
    if (n < have)
        return ctx.emitTemp("slice", {x}, sliceArgs(axis, 0, n), "cut");
    if (n > have) {
        std::vector<std::pair<int64_t, int64_t>> pads(static_cast<size_t>(rank - axis), {0, 0});
        pads[0] = {0, n - have};
        return ctx.emitTemp("pad", {x},
                            {{"padding", paddingPairs(pads, axis)},
                             {"border", Expr::str("constant")},
                             {"value", lit(0.0)}},
                            "zero_padded");
    }
    return x;
}

// The transform axis (argument `dimArg`) and length (argument `nArg`, else
// the input's size there) of an fft_* node.
std::pair<int64_t, int64_t> fftAxis(Context& ctx, size_t nArg, size_t dimArg) {
    const ir::Value& x = ctx.in(0);
    const int64_t axis = ctx.axis(ctx.intArg(dimArg), logicalRank(x));
    if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(axis)].empty())
        ctx.unsupported(ctx.node().kind + " along a dynamic axis",
                        "t2n writes the transform length as a constant");
    const int64_t n = ctx.isNone(nArg) ? x.shape[static_cast<size_t>(axis)] : ctx.intArg(nArg);
    if (n < 1)
        ctx.unsupported(fmt::format("{} of length {}", ctx.node().kind, n));
    return {axis, n};
}

// fft_fft / fft_ifft(x, n, dim, norm): tract_core_fft on the complex input
// (tract's inverse is unnormalized, as rustfft's), then PyTorch's norm.
template <bool Inverse> void lowerFft(Context& ctx) {
    requireSpectral(ctx, "tract_core_fft");
    const auto [axis, n] = fftAxis(ctx, 1, 2);
    const int64_t rank = logicalRank(ctx.in(0)) + 1;
    Expr x = resized(ctx, complexOperand(ctx, 0), rank, axis,
                     ctx.in(0).shape[static_cast<size_t>(axis)], n);
    const double scale = fftScale(ctx, 3, n, Inverse);
    const Kwargs k{{"axis", Expr::i(axis)}, {"inverse", Expr::b(Inverse)}};
    if (scale == 1.0) {
        ctx.emitOut("tract_core_fft", {x}, k);
        return;
    }
    ctx.emitOut("mul", {ctx.emitTemp("tract_core_fft", {x}, k, "fft"), lit(scale)});
}

// fft_rfft(x, n, dim, norm) of a real x: the full transform, bins 0..n/2 kept.
void lowerRfft(Context& ctx) {
    requireSpectral(ctx, "tract_core_fft");
    if (ctx.in(0).complex)
        ctx.unsupported("fft_rfft of a complex tensor");
    const auto [axis, n] = fftAxis(ctx, 1, 2);
    const int64_t rank = logicalRank(ctx.in(0)) + 1;
    Expr x = resized(ctx, complexOperand(ctx, 0), rank, axis,
                     ctx.in(0).shape[static_cast<size_t>(axis)], n);
    Expr f = ctx.emitTemp("tract_core_fft", {x},
                          {{"axis", Expr::i(axis)}, {"inverse", Expr::b(false)}}, "fft");
    const double scale = fftScale(ctx, 3, n, false);
    if (scale == 1.0) {
        ctx.emitOut("slice", {f}, sliceArgs(axis, 0, n / 2 + 1));
        return;
    }
    Expr half = ctx.emitTemp("slice", {f}, sliceArgs(axis, 0, n / 2 + 1), "half");
    ctx.emitOut("mul", {half, lit(scale)});
}

// fft_irfft(x, n, dim, norm): the one-sided spectrum (bins 0..n/2, cut or
// zero-padded) extended to all n bins by Hermitian symmetry, X[n - k] =
// conj(X[k]) (a gather, then the mirrored imaginary parts negated), the
// inverse tract_core_fft, its real part. PyTorch ignores the imaginary parts
// of bins 0 and n/2: the real part ignores them too.
void lowerIrfft(Context& ctx) {
    requireSpectral(ctx, "tract_core_fft");
    const ir::Value& x = ctx.in(0);
    const int64_t axis = ctx.axis(ctx.intArg(2), logicalRank(x));
    if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(axis)].empty())
        ctx.unsupported("fft_irfft along a dynamic axis", "t2n writes the mirror as a table");
    const int64_t m = x.shape[static_cast<size_t>(axis)];
    const int64_t n = ctx.isNone(1) ? 2 * (m - 1) : ctx.intArg(1);
    if (n < 1)
        ctx.unsupported(fmt::format("fft_irfft of length {}", n));
    const int64_t rank = logicalRank(x) + 1, half = n / 2 + 1;
    Expr h = resized(ctx, complexOperand(ctx, 0), rank, axis, m, half);
    std::vector<int64_t> idx(static_cast<size_t>(n));
    std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
    shape[static_cast<size_t>(axis)] = n;
    shape.back() = 2;
    std::vector<float> sign(static_cast<size_t>(2 * n), 1.0f);
    for (int64_t k = 0; k < n; ++k) {
        idx[static_cast<size_t>(k)] = k < half ? k : n - k;
        if (k >= half)
            sign[static_cast<size_t>(2 * k + 1)] = -1.0f;
    }
    Expr full = ctx.emitTemp("tract_core_gather", {h, indexTable(ctx, idx, {n}, "mirror_index")},
                             {{"axis", Expr::i(axis)}}, "mirrored");
    full =
        ctx.emitTemp("mul", {full, floatTable(ctx, sign, shape, "mirror_sign")}, {}, "hermitian");
    Expr t = ctx.emitTemp("tract_core_fft", {full},
                          {{"axis", Expr::i(axis)}, {"inverse", Expr::b(true)}}, "ifft");
    Expr re = ctx.emitTemp("squeeze", {part(ctx, t, rank, 0, "real")},
                           {{"axes", Expr::ints({rank - 1})}}, "signal");
    ctx.emitOut("mul", {re, lit(fftScale(ctx, 3, n, true))});
}

// ---- identities of the representation ----------------------------------------

// view_as_real / view_as_complex: the same numbers with their trailing 2.
void lowerSameNumbers(Context& ctx) {
    if (ctx.in(0).dtype != DType::F32 && ctx.in(0).dtype != DType::F64)
        ctx.unsupported(
            fmt::format("{} of a {} tensor", ctx.node().kind, dtypeName(ctx.in(0).dtype)));
    ctx.bindOut(ctx.input(0));
}

// ---- kinds reading a complex value (complexRegistry) ---------------------------

// |z| = sqrt(re^2 + im^2): the sum of squares over the trailing axis.
void lowerComplexAbs(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    Expr sq = ctx.emitTemp("sqr", {ctx.input(0)}, {}, "squares");
    Expr sum = ctx.emitTemp("sum_reduce", {sq}, {{"axes", Expr::ints({r - 1})}}, "norm2");
    Expr root = ctx.emitTemp("sqrt", {sum}, {}, "modulus");
    ctx.emitOut("squeeze", {root}, {{"axes", Expr::ints({r - 1})}});
}

// A complex operand of `rank` (with its 2), or a real one as a multiplier with
// a unit trailing axis (broadcast over real and imaginary parts).
Expr mulOperand(Context& ctx, size_t i, int64_t rank) {
    const ir::Value& v = ctx.in(i);
    if (v.complex)
        return ctx.operand(ctx.node().inputs[i], rank);
    if (v.kind != ir::ValueKind::Tensor)
        return lit(ctx.floatArg(i));
    Expr r = ctx.operand(ctx.node().inputs[i], rank - 1, DType::F32);
    if (rankOf(v) == 0)
        return r;
    return ctx.emitTemp("unsqueeze", {r}, {{"axes", Expr::ints({rank - 1})}},
                        fmt::format("real{}", i));
}

// (a + bi)(c + di) = (ac - bd) + (ad + bc)i, parts sliced from the trailing
// axis and concatenated back; by a real factor: both parts scaled.
void lowerComplexMul(Context& ctx) {
    const int64_t r = rankOf(ctx.out());
    Expr a = mulOperand(ctx, 0, r), b = mulOperand(ctx, 1, r);
    if (!ctx.in(0).complex || !ctx.in(1).complex) {
        ctx.emitOut("mul", {a, b});
        return;
    }
    Expr ar = part(ctx, a, r, 0, "a_re"), ai = part(ctx, a, r, 1, "a_im");
    Expr br = part(ctx, b, r, 0, "b_re"), bi = part(ctx, b, r, 1, "b_im");
    Expr re = ctx.emitTemp(
        "sub", {ctx.emitTemp("mul", {ar, br}, {}, "ac"), ctx.emitTemp("mul", {ai, bi}, {}, "bd")},
        {}, "re");
    Expr im = ctx.emitTemp(
        "add", {ctx.emitTemp("mul", {ar, bi}, {}, "ad"), ctx.emitTemp("mul", {ai, br}, {}, "bc")},
        {}, "im");
    ctx.emitOut("concat", {Expr::array({re, im})}, {{"axis", Expr::i(r - 1)}});
}

// real / imag: one part of the trailing axis, the axis dropped.
template <int Which> void lowerComplexPart(Context& ctx) {
    if (!ctx.in(0).complex) // PyTorch has no imaginary part of a real tensor
        ctx.unsupported(ctx.node().kind + " of a real tensor");
    const int64_t r = rankOf(ctx.in(0));
    Expr p = part(ctx, ctx.input(0), r, Which, Which ? "imag" : "real");
    ctx.emitOut("squeeze", {p}, {{"axes", Expr::ints({r - 1})}});
}

// conj / conj_physical: the imaginary part negated (times [1, -1]); a real
// tensor is its own conjugate.
void lowerComplexConj(Context& ctx) {
    if (!ctx.in(0).complex) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> shape(static_cast<size_t>(r), 1);
    shape.back() = 2;
    ctx.emitOut("mul", {ctx.input(0), floatTable(ctx, {1.0f, -1.0f}, shape, "conjugate")});
}

// resolve_conj / resolve_neg: t2n records complex values resolved.
void lowerComplexIdentity(Context& ctx) {
    ctx.bindOut(ctx.input(0));
}

// reshape / view of a complex tensor: to its recorded shape, trailing 2 kept.
void lowerComplexReshape(Context& ctx) {
    const ir::Value& y = ctx.out();
    for (const auto& s : y.symbols)
        if (!s.empty())
            ctx.unsupported(ctx.node().kind + " of a complex tensor with a dynamic axis");
    ctx.emitOut("reshape", {ctx.input(0)}, {{"shape", Expr::ints(y.shape)}});
}

} // namespace

void registerSpectralOps(Registry& r) {
    r.beginFamily("spectral");
    r.add("aten::stft", lowerStft,
          "tract_core_stft; constant window (padded to n_fft), onesided, normalized; complex "
          "results as a trailing axis of 2",
          "tract_core_stft unsqueeze pad +slice +mul transpose !khronos");
    r.add("aten::fft_fft", lowerFft<false>, "tract_core_fft; n and norm; a static axis",
          "tract_core_fft +unsqueeze +pad +slice +mul !khronos");
    r.add("aten::fft_ifft", lowerFft<true>, "tract_core_fft inverse, scaled by norm; a static axis",
          "tract_core_fft +unsqueeze +pad +slice +mul !khronos");
    r.add("aten::fft_rfft", lowerRfft, "tract_core_fft, bins 0..n/2 kept; a static axis",
          "tract_core_fft unsqueeze pad slice +mul !khronos");
    r.add("aten::fft_irfft", lowerIrfft,
          "Hermitian extension (tract_core_gather), inverse tract_core_fft, real part; a static "
          "axis",
          "tract_core_fft tract_core_gather mul slice squeeze +unsqueeze +pad +slice !khronos");
    r.add("aten::view_as_real", lowerSameNumbers,
          "complex values are a trailing axis of 2: identity", "-");
    r.add("aten::view_as_complex", lowerSameNumbers,
          "complex values are a trailing axis of 2: identity", "-");
    r.add("aten::imag", lowerComplexPart<1>, "complex tensors", "slice squeeze");
    for (const char* k : {"aten::conj", "aten::_conj"})
        r.add(k, lowerComplexConj, "imaginary part negated; identity on real tensors", "+mul");
}

// Kinds that read a complex value (ir::Value::complex): the translator looks
// them up here instead of in the default registry.
void registerComplexOps(Registry& r) {
    r.beginFamily("complex");
    r.add("aten::abs", lowerComplexAbs, "sqrt of the sum of squares",
          "sqr sum_reduce sqrt squeeze");
    r.add("aten::mul", lowerComplexMul, "complex by complex or real",
          "mul +slice +sub +add +concat");
    r.add("aten::real", lowerComplexPart<0>, "", "slice squeeze");
    r.add("aten::conj_physical", lowerComplexConj, "", "mul");
    for (const char* k : {"aten::resolve_conj", "aten::resolve_neg"})
        r.add(k, lowerComplexIdentity, "", "-");
    for (const char* k : {"aten::reshape", "aten::view"})
        r.add(k, lowerComplexReshape, "static shapes", "reshape");
}

const Registry& complexRegistry() {
    static const Registry registry = [] {
        Registry r;
        registerComplexOps(r);
        // The spectral kinds know complex values themselves.
        registerSpectralOps(r);
        return r;
    }();
    return registry;
}

} // namespace t2n::translate
