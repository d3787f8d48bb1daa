// Spectra as tract computes them: stft, istft, fft_fft / ifft / rfft / irfft
// on tract_core_stft and tract_core_fft, and the complex values they produce.
// t2n has no complex dtype: a complex tensor is recorded as its real view,
// the trailing axis of 2 (real, imaginary) that tract's Fft and Stft read and
// write (core/src/ops/fft.rs), so view_as_real / view_as_complex are
// identities and no complex datum type (tract's "complex" feature) is ever
// written. Nodes that read a complex value go to complexRegistry()
// (lower_complex.cpp), which lists these kinds too; the translator refuses
// the others. Khronos NNEF has no Fourier transform: refused.
#include "translate/complex_util.h"
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numbers>

namespace t2n::translate {

namespace {

// Khronos has no FFT, and tract's operations must exist in the target.
void requireSpectral(Context& ctx, std::string_view op) {
    if (ctx.target().isKhronos())
        ctx.unsupported(
            fmt::format("{}: Khronos NNEF 1.0.5 has no Fourier transform", ctx.node().kind),
            "export for tract (--target tract), which has " + std::string(op));
    requireTract(ctx, op, ctx.node().kind);
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

// ---- lengths that follow a symbol -------------------------------------------
// What a transform along a dynamic axis may add: the norm's division by the
// run-time length (a copy when there is none).
const std::string kDynamicLength = " +tract_core_cast +sqrt +div +copy";

// tract's Fft plans its transform from the input's length when it runs
// (core/src/ops/fft.rs): a transform along an axis that follows a symbol
// needs no constant. What t2n computes from the length (the bins rfft keeps,
// the mirror of an inverse real transform, the norm's scale) is written from
// the length's size expression. Cutting or zero-padding to another length (n
// or s other than the axis's own) is refused along a dynamic axis: the pad
// would be a difference of two sizes t2n does not follow.

// Values of argument `i` (an int, or item `item` of an int list) at the
// example and probe sizes.
std::pair<std::optional<int64_t>, std::optional<int64_t>> argSizes(Context& ctx, size_t i,
                                                                   int64_t item) {
    const ir::Value& v = ctx.in(i);
    auto pick = [&](const std::optional<ir::Constant>& c) -> std::optional<int64_t> {
        if (!c)
            return std::nullopt;
        if (auto* n = std::get_if<int64_t>(&*c); n && item < 0)
            return *n;
        if (auto* l = std::get_if<std::vector<int64_t>>(&*c);
            l && item >= 0 && static_cast<size_t>(item) < l->size())
            return (*l)[static_cast<size_t>(item)];
        return std::nullopt;
    };
    return {pick(v.constant), pick(v.probeConstant)};
}

// Refuses a transform length (`example`, `probe`) along dynamic `axis` of
// input 0 that is not `bins(size)` of the axis's size at both sizes.
template <typename Bins>
void requireOwnLength(Context& ctx, int64_t axis, std::optional<int64_t> example,
                      std::optional<int64_t> probe, Bins bins, const std::string& what) {
    const ir::Value& x = ctx.in(0);
    const auto a = static_cast<size_t>(axis);
    const bool atExample = example && *example == bins(x.shape[a]);
    const bool atProbe = !probe || (a < x.probeShape.size() && *probe == bins(x.probeShape[a]));
    if (atExample && atProbe)
        return;
    const std::string symbol =
        a < x.symbols.size() && !x.symbols[a].empty() ? x.symbols[a] : std::string();
    if (symbol.empty())
        ctx.unsupported(fmt::format("{} along static axis {} to a {} that changes with the "
                                    "dynamic axes",
                                    ctx.node().kind, axis, what),
                        "keep that length fixed, or transform a dynamic axis at its own length");
    ctx.unsupported(
        fmt::format("{} along dynamic axis {} ({}) to {}{}: t2n cuts or zero-pads "
                    "only a static axis",
                    ctx.node().kind, axis, symbol, what,
                    example ? fmt::format(" ({} at the example size {})", *example, x.shape[a])
                            : std::string()),
        fmt::format("transform axis {} at its own length, or declare that axis "
                    "static (leave {} out of --dynamic-axis)",
                    axis, symbol));
}

// `y` scaled as PyTorch's norm scales a transform of run-time length `n` (an
// integer expression), bound to output 0: 1/n or 1/sqrt(n) as a division by
// the length cast to f32.
void emitDynamicScale(Context& ctx, Expr y, Expr n, size_t normArg, bool inverse) {
    const std::string norm = ctx.isNone(normArg) ? "backward" : ctx.stringArg(normArg);
    if (norm != "ortho" && norm != "backward" && norm != "forward")
        ctx.unsupported(fmt::format("norm '{}'", norm));
    if ((norm == "backward" && !inverse) || (norm == "forward" && inverse)) {
        ctx.emitOut("copy", {y});
        return;
    }
    Expr length = ctx.emitTemp("tract_core_cast", {n}, {{"to", Expr::str("f32")}}, "length");
    if (norm == "ortho")
        length = ctx.emitTemp("sqrt", {length}, {}, "sqrt_length");
    ctx.emitOut("div", {y, length});
}

// slice(x, axis, 0, end) with an integer expression for end.
Expr sliceTo(Context& ctx, Expr x, int64_t axis, Expr end, const std::string& tag) {
    return ctx.emitTemp("slice", {std::move(x)},
                        {{"axes", Expr::ints({axis})},
                         {"begin", Expr::ints({0})},
                         {"end", Expr::array({std::move(end)})}},
                        tag);
}

// n / 2 + 1, the bins of a real transform of length n.
Expr binsOf(Expr n) {
    return Expr::binary("+", Expr::binary("/", std::move(n), Expr::i(2)), Expr::i(1));
}

// The n real samples whose one-sided spectrum is complex `h` (`rank` axes
// with its 2, exactly n / 2 + 1 bins `m` along `axis`, both run-time sizes):
// h followed by conj(h[n - m]), ..., conj(h[1]) (a gather of
// tract_core_range(n - m, 0, -1), its imaginary parts negated), the inverse
// tract_core_fft, its real part. inverseRealDft's table form for a length
// known only when the graph runs.
Expr inverseRealDftDynamic(Context& ctx, Expr h, int64_t rank, int64_t axis, Expr n, Expr m) {
    if (rank < 2 || axis >= rank - 1)
        ctx.unsupported(fmt::format("inverse transform along axis {} of rank {}", axis, rank));
    Expr idx =
        ctx.emitTemp("tract_core_range",
                     {Expr::binary("-", std::move(n), std::move(m)), Expr::i(0), Expr::i(-1)}, {},
                     "mirror_index");
    Expr mirrored =
        ctx.emitTemp("tract_core_gather", {h, idx}, {{"axis", Expr::i(axis)}}, "mirrored");
    std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
    shape.back() = 2;
    mirrored = ctx.emitTemp("mul", {mirrored, floatTable(ctx, {1.0f, -1.0f}, shape, "conj_sign")},
                            {}, "conjugated");
    Expr full = ctx.emitTemp("concat", {Expr::array({std::move(h), std::move(mirrored)})},
                             {{"axis", Expr::i(axis)}}, "hermitian");
    Expr t = ctx.emitTemp("tract_core_fft", {full},
                          {{"axis", Expr::i(axis)}, {"inverse", Expr::b(true)}}, "ifft");
    return ctx.emitTemp("squeeze", {complexPart(ctx, t, rank, 0, "real")},
                        {{"axes", Expr::ints({rank - 1})}}, "signal");
}

// The transform axis (argument `dimArg`) and length (argument `nArg`, else
// the input's size there) of an fft_* node.
std::pair<int64_t, int64_t> fftAxis(Context& ctx, size_t nArg, size_t dimArg) {
    const ir::Value& x = ctx.in(0);
    const int64_t axis = ctx.axis(ctx.intArg(dimArg), logicalRank(x));
    if (dynamicAxis(x, axis)) { // the axis's own length, read when the graph runs
        if (!ctx.isNone(nArg)) {
            auto [example, probe] = argSizes(ctx, nArg, -1);
            requireOwnLength(
                ctx, axis, example, probe, [](int64_t m) { return m; }, "length n");
        }
        return {axis, x.shape[static_cast<size_t>(axis)]};
    }
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
    const Kwargs k{{"axis", Expr::i(axis)}, {"inverse", Expr::b(Inverse)}};
    if (dynamicAxis(ctx.in(0), axis)) {
        Expr f = ctx.emitTemp("tract_core_fft", {complexOperand(ctx, 0)}, k, "fft");
        emitDynamicScale(ctx, f, ctx.dimExpr(ctx.node().inputs[0], axis), 3, Inverse);
        return;
    }
    Expr x = resized(ctx, complexOperand(ctx, 0), rank, axis,
                     ctx.in(0).shape[static_cast<size_t>(axis)], n);
    const double scale = fftScale(ctx, 3, n, Inverse);
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
    if (dynamicAxis(ctx.in(0), axis)) {
        const Expr length = ctx.dimExpr(ctx.node().inputs[0], axis);
        Expr f = ctx.emitTemp("tract_core_fft", {complexOperand(ctx, 0)},
                              {{"axis", Expr::i(axis)}, {"inverse", Expr::b(false)}}, "fft");
        emitDynamicScale(ctx, sliceTo(ctx, f, axis, binsOf(length), "half"), length, 3, false);
        return;
    }
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

// The n real samples whose one-sided spectrum is complex `x` (`rank` axes
// with its 2, `m` bins along `axis`, cut or zero-padded to bins 0..n/2):
// the spectrum extended to all n bins by Hermitian symmetry, X[n - k] =
// conj(X[k]) (a gather, then the mirrored imaginary parts negated), the
// inverse tract_core_fft (unscaled), its real part with the 2 dropped.
// PyTorch ignores the imaginary parts of bins 0 and n/2: the real part
// ignores them too.
Expr inverseRealDft(Context& ctx, Expr x, int64_t rank, int64_t axis, int64_t m, int64_t n) {
    if (rank < 2 || axis >= rank - 1) // a complex value has its 2 last
        ctx.unsupported(fmt::format("inverse transform along axis {} of rank {}", axis, rank));
    const int64_t half = n / 2 + 1;
    Expr h = resized(ctx, std::move(x), rank, axis, m, half);
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
    return ctx.emitTemp("squeeze", {complexPart(ctx, t, rank, 0, "real")},
                        {{"axes", Expr::ints({rank - 1})}}, "signal");
}

// fft_irfft(x, n, dim, norm): inverseRealDft scaled by norm.
void lowerIrfft(Context& ctx) {
    requireSpectral(ctx, "tract_core_fft");
    const ir::Value& x = ctx.in(0);
    const int64_t axis = ctx.axis(ctx.intArg(2), logicalRank(x));
    // n that follows a symbol: the bins are n / 2 + 1 of it even where the
    // probes gave one number (T = 16 and 17 both have 9 bins).
    const bool symbolicN = !ctx.isNone(1) && ctx.isSymbolic(1);
    if (dynamicAxis(x, axis) || symbolicN) {
        // m bins of a length n with n / 2 + 1 = m: PyTorch's default 2 (m - 1),
        // or an n that follows the same symbol.
        Expr m = ctx.dimExpr(ctx.node().inputs[0], axis);
        Expr n = Expr::binary("*", Expr::binary("-", m, Expr::i(1)), Expr::i(2));
        if (!ctx.isNone(1)) {
            auto [example, probe] = argSizes(ctx, 1, -1);
            requireOwnLength(
                ctx, axis, example ? std::optional(*example / 2 + 1) : std::nullopt,
                probe ? std::optional(*probe / 2 + 1) : std::nullopt,
                [](int64_t bins) { return bins; }, "length n with n / 2 + 1 bins");
            n = ctx.sizeArg(1);
            if (!dynamicAxis(x, axis))
                m = binsOf(n);
        }
        Expr re =
            inverseRealDftDynamic(ctx, complexOperand(ctx, 0), logicalRank(x) + 1, axis, n, m);
        emitDynamicScale(ctx, re, n, 3, true);
        return;
    }
    const int64_t m = x.shape[static_cast<size_t>(axis)];
    const int64_t n = ctx.isNone(1) ? 2 * (m - 1) : ctx.intArg(1);
    if (n < 1)
        ctx.unsupported(fmt::format("fft_irfft of length {}", n));
    Expr re = inverseRealDft(ctx, complexOperand(ctx, 0), logicalRank(x) + 1, axis, m, n);
    ctx.emitOut("mul", {re, lit(fftScale(ctx, 3, n, true))});
}

// The two axes (argument 2, default the last two) and lengths (argument 1,
// s, else `fallback` of each axis's size) of fft_rfft2 / fft_irfft2.
struct Axes2 {
    int64_t a0, a1, n0, n1;
};
Axes2 fftAxes2(Context& ctx, bool inverse) {
    const ir::Value& x = ctx.in(0);
    const int64_t lr = logicalRank(x);
    const std::vector<int64_t> dims = ctx.isNone(2) ? std::vector<int64_t>{-2, -1} : ctx.intsArg(2);
    if (dims.size() != 2)
        ctx.unsupported(fmt::format("{} over {} axes", ctx.node().kind, dims.size()));
    Axes2 a{ctx.axis(dims[0], lr), ctx.axis(dims[1], lr), 0, 0};
    if (a.a0 >= a.a1)
        ctx.unsupported(ctx.node().kind + " with its axes out of order");
    const int64_t m0 = x.shape[static_cast<size_t>(a.a0)], m1 = x.shape[static_cast<size_t>(a.a1)];
    if (!ctx.isNone(1) && ctx.isSymbolic(1)) {
        // s follows a symbol (s=(h, w) from x.size()): its example values
        // here, its expressions in lengths2; along a static axis its item
        // must not change.
        for (int item : {0, 1}) {
            auto [example, probe] = argSizes(ctx, 1, item);
            const int64_t axis = item == 0 ? a.a0 : a.a1;
            if (!example || (!dynamicAxis(x, axis) && probe && probe != example))
                ctx.unsupported(
                    fmt::format("{}: s[{}] changes with the dynamic axes but transforms static "
                                "axis {} ({} at the example size)",
                                ctx.node().kind, item, axis, example.value_or(-1)),
                    "transform a dynamic axis at its own length, or keep s[" +
                        std::to_string(item) + "] fixed");
            (item == 0 ? a.n0 : a.n1) = *example;
        }
    } else if (!ctx.isNone(1)) {
        const auto s = ctx.intsArg(1);
        if (s.size() != 2)
            ctx.unsupported(fmt::format("{} with {} sizes", ctx.node().kind, s.size()));
        a.n0 = s[0];
        a.n1 = s[1];
    } else {
        a.n0 = m0;
        a.n1 = inverse ? 2 * (m1 - 1) : m1;
    }
    if (a.n0 < 1 || a.n1 < 1)
        ctx.unsupported(fmt::format("{} of sizes {}x{}", ctx.node().kind, a.n0, a.n1));
    // Along a dynamic axis, s must be the axis's own length (the inverse's
    // last: n / 2 + 1 of it the axis's bins).
    for (int item : {0, 1}) {
        const int64_t axis = item == 0 ? a.a0 : a.a1;
        if (!dynamicAxis(x, axis) || ctx.isNone(1))
            continue;
        auto [example, probe] = argSizes(ctx, 1, item);
        const bool bins = inverse && item == 1;
        auto half = [&](std::optional<int64_t> v) {
            return v && bins ? std::optional(*v / 2 + 1) : v;
        };
        requireOwnLength(
            ctx, axis, half(example), half(probe), [](int64_t m) { return m; },
            bins ? fmt::format("s[{}] with s[{}] / 2 + 1 bins", item, item)
                 : fmt::format("s[{}]", item));
    }
    return a;
}

// The two transform lengths of fft_rfft2 / fft_irfft2 as integer expressions
// (literals along static axes): s's items when given, else each axis's
// size (the inverse's last: 2 (m - 1)).
std::pair<Expr, Expr> lengths2(Context& ctx, const Axes2& a, bool inverse) {
    const ir::Value& x = ctx.in(0);
    const ir::ValueId id = ctx.node().inputs[0];
    if (!ctx.isNone(1) && ctx.isSymbolic(1)) {
        auto s = ctx.sizesArg(1);
        return {s.at(0), s.at(1)};
    }
    Expr n0 = dynamicAxis(x, a.a0) ? ctx.dimExpr(id, a.a0) : Expr::i(a.n0);
    Expr n1 = Expr::i(a.n1);
    if (dynamicAxis(x, a.a1)) {
        n1 = ctx.dimExpr(id, a.a1);
        if (inverse)
            n1 = Expr::binary("*", Expr::binary("-", n1, Expr::i(1)), Expr::i(2));
    }
    return {n0, n1};
}

// fft_rfft2(x, s, dim, norm) of a real x: the full transform along the last
// axis with bins 0..n/2 kept, then the full transform along the first
// (Fourier neural operators).
void lowerRfft2(Context& ctx) {
    requireSpectral(ctx, "tract_core_fft");
    if (ctx.in(0).complex)
        ctx.unsupported("fft_rfft2 of a complex tensor");
    const Axes2 a = fftAxes2(ctx, false);
    const ir::Value& x = ctx.in(0);
    const int64_t rank = logicalRank(x) + 1;
    if (dynamicAxis(x, a.a0) || dynamicAxis(x, a.a1)) {
        auto [n0, n1] = lengths2(ctx, a, false);
        Expr c = complexOperand(ctx, 0);
        if (!dynamicAxis(x, a.a1))
            c = resized(ctx, c, rank, a.a1, x.shape[static_cast<size_t>(a.a1)], a.n1);
        if (!dynamicAxis(x, a.a0))
            c = resized(ctx, c, rank, a.a0, x.shape[static_cast<size_t>(a.a0)], a.n0);
        Expr f = ctx.emitTemp("tract_core_fft", {c},
                              {{"axis", Expr::i(a.a1)}, {"inverse", Expr::b(false)}}, "fft_last");
        f = sliceTo(ctx, f, a.a1, binsOf(n1), "half");
        f = ctx.emitTemp("tract_core_fft", {f},
                         {{"axis", Expr::i(a.a0)}, {"inverse", Expr::b(false)}}, "fft_first");
        emitDynamicScale(ctx, f, Expr::binary("*", n0, n1), 3, false);
        return;
    }
    Expr c = complexOperand(ctx, 0);
    c = resized(ctx, c, rank, a.a1, x.shape[static_cast<size_t>(a.a1)], a.n1);
    c = resized(ctx, c, rank, a.a0, x.shape[static_cast<size_t>(a.a0)], a.n0);
    Expr f = ctx.emitTemp("tract_core_fft", {c},
                          {{"axis", Expr::i(a.a1)}, {"inverse", Expr::b(false)}}, "fft_last");
    f = ctx.emitTemp("slice", {f}, sliceArgs(a.a1, 0, a.n1 / 2 + 1), "half");
    const double scale = fftScale(ctx, 3, a.n0 * a.n1, false);
    const Kwargs first{{"axis", Expr::i(a.a0)}, {"inverse", Expr::b(false)}};
    if (scale == 1.0) {
        ctx.emitOut("tract_core_fft", {f}, first);
        return;
    }
    ctx.emitOut("mul", {ctx.emitTemp("tract_core_fft", {f}, first, "fft_first"), lit(scale)});
}

// fft_irfft2(x, s, dim, norm): the inverse transform along the first axis,
// then the inverse real transform along the last (inverseRealDft), scaled.
void lowerIrfft2(Context& ctx) {
    requireSpectral(ctx, "tract_core_fft");
    const Axes2 a = fftAxes2(ctx, true);
    const ir::Value& x = ctx.in(0);
    const int64_t rank = logicalRank(x) + 1;
    if (dynamicAxis(x, a.a0) || dynamicAxis(x, a.a1)) {
        auto [n0, n1] = lengths2(ctx, a, true);
        Expr c = complexOperand(ctx, 0);
        if (!dynamicAxis(x, a.a0))
            c = resized(ctx, c, rank, a.a0, x.shape[static_cast<size_t>(a.a0)], a.n0);
        c = ctx.emitTemp("tract_core_fft", {c},
                         {{"axis", Expr::i(a.a0)}, {"inverse", Expr::b(true)}}, "ifft_first");
        Expr re =
            dynamicAxis(x, a.a1)
                ? inverseRealDftDynamic(ctx, c, rank, a.a1, n1,
                                        ctx.dimExpr(ctx.node().inputs[0], a.a1))
                : inverseRealDft(ctx, c, rank, a.a1, x.shape[static_cast<size_t>(a.a1)], a.n1);
        emitDynamicScale(ctx, re, Expr::binary("*", n0, n1), 3, true);
        return;
    }
    Expr c =
        resized(ctx, complexOperand(ctx, 0), rank, a.a0, x.shape[static_cast<size_t>(a.a0)], a.n0);
    c = ctx.emitTemp("tract_core_fft", {c}, {{"axis", Expr::i(a.a0)}, {"inverse", Expr::b(true)}},
                     "ifft_first");
    Expr re = inverseRealDft(ctx, c, rank, a.a1, x.shape[static_cast<size_t>(a.a1)], a.n1);
    ctx.emitOut("mul", {re, lit(fftScale(ctx, 3, a.n0 * a.n1, true))});
}

// fft_fftn / fft_ifftn(x, s, dim, norm): tract_core_fft along each axis in
// turn (dim; else the last len(s) axes; else every axis), each cut or
// zero-padded to its length in s, then PyTorch's norm over the product of
// the lengths. Static axes.
template <bool Inverse> void lowerFftn(Context& ctx) {
    requireSpectral(ctx, "tract_core_fft");
    const ir::Value& x = ctx.in(0);
    const int64_t lr = logicalRank(x);
    const std::vector<int64_t> sizes = ctx.isNone(1) ? std::vector<int64_t>{} : ctx.intsArg(1);
    std::vector<int64_t> dims;
    if (!ctx.isNone(2))
        for (int64_t d : ctx.intsArg(2))
            dims.push_back(ctx.axis(d, lr));
    else
        for (int64_t a = sizes.empty() ? 0 : lr - std::ssize(sizes); a < lr; ++a)
            dims.push_back(a);
    if (!sizes.empty() && sizes.size() != dims.size())
        ctx.unsupported(fmt::format("{} with {} sizes for {} axes", ctx.node().kind, sizes.size(),
                                    dims.size()));
    const int64_t rank = lr + 1;
    Expr c = complexOperand(ctx, 0);
    int64_t total = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
        const int64_t a = dims[i];
        if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(a)].empty())
            ctx.unsupported(ctx.node().kind + " along a dynamic axis",
                            "t2n writes the transform lengths as constants");
        const int64_t have = x.shape[static_cast<size_t>(a)];
        const int64_t n = sizes.empty() ? have : sizes[i];
        if (n < 1)
            ctx.unsupported(fmt::format("{} of length {}", ctx.node().kind, n));
        c = resized(ctx, c, rank, a, have, n);
        c = ctx.emitTemp("tract_core_fft", {c},
                         {{"axis", Expr::i(a)}, {"inverse", Expr::b(Inverse)}}, "fft");
        total *= n;
    }
    const double scale = fftScale(ctx, 3, total, Inverse);
    if (scale == 1.0)
        ctx.bindOut(c);
    else
        ctx.emitOut("mul", {c, lit(scale)});
}

// ---- istft ---------------------------------------------------------------

// Overlap-add of `frames` frames of n samples, frame t at t * hop, along the
// last two axes of `y` ([P..., frames, n], p leading axes, static). Each
// frame, zero-padded to m = ceil(n / hop) hops, is m chunks of one hop:
// chunk i of every frame, shifted by i hops, lands where PyTorch's
// overlap-add puts it, and the m shifted copies are summed. The result,
// [P..., (frames + m - 1) hop], holds the n + hop (frames - 1) samples of the
// signal then zeros; `length` receives its size.
Expr overlapAdd(Context& ctx, Expr y, const std::vector<int64_t>& lead, int64_t frames, int64_t n,
                int64_t hop, int64_t& length) {
    const int64_t m = (n + hop - 1) / hop, steps = frames + m - 1;
    const auto p = static_cast<int64_t>(lead.size());
    auto shape = [&](std::initializer_list<int64_t> tail) {
        std::vector<int64_t> s = lead;
        s.insert(s.end(), tail);
        return Expr::ints(s);
    };
    auto pad = [&](Expr x, int64_t axis, int64_t rank, int64_t before, int64_t after,
                   const std::string& tag) {
        std::vector<std::pair<int64_t, int64_t>> pads(static_cast<size_t>(rank - axis), {0, 0});
        pads[0] = {before, after};
        return ctx.emitTemp("pad", {std::move(x)},
                            {{"padding", paddingPairs(pads, axis)},
                             {"border", Expr::str("constant")},
                             {"value", lit(0.0)}},
                            tag);
    };
    length = steps * hop;
    if (m * hop > n)
        y = pad(y, p + 1, p + 2, 0, m * hop - n, "whole_hops");
    Expr chunks = ctx.emitTemp("reshape", {y}, {{"shape", shape({frames, m, hop})}}, "chunks");
    Expr sum;
    for (int64_t i = 0; i < m; ++i) {
        const std::string tag = fmt::format("chunk{}", i);
        Expr c = m == 1 ? chunks : ctx.emitTemp("slice", {chunks}, sliceArgs(p + 1, i, i + 1), tag);
        c = ctx.emitTemp("reshape", {c}, {{"shape", shape({frames, hop})}}, tag + "_hop");
        if (m > 1)
            c = pad(c, p, p + 2, i, m - 1 - i, tag + "_placed");
        sum = i == 0 ? c : ctx.emitTemp("add", {sum, c}, {}, tag + "_sum");
    }
    return ctx.emitTemp("reshape", {sum}, {{"shape", shape({length})}}, "overlap_added");
}

// istft(x, n_fft, hop, win_length, window, center, normalized, onesided,
// length, return_complex) of a complex [B?, bins, frames] spectrum, as
// LibTorch 1.13 computes it: each frame's real inverse transform (a two-sided
// spectrum's first n_fft/2 + 1 bins, as PyTorch's c2r), scaled by 1/n_fft
// (n_fft^-1/2 normalized) and windowed, overlap-added, trimmed (n_fft/2 each
// side when centered, or to `length`), divided by the overlap-added squared
// window (computed here: window and sizes are constants), zero-padded when
// `length` runs past the signal.
void lowerIstft(Context& ctx) {
    requireSpectral(ctx, "tract_core_fft");
    const ir::Value& x = ctx.in(0);
    if (ctx.numInputs() != 10)
        ctx.unsupported("istft without LibTorch 1.13's ten arguments");
    if (!x.complex)
        ctx.unsupported("istft of a real tensor", "LibTorch 1.13 reads a complex spectrum");
    if (ctx.boolArg(9))
        ctx.unsupported("istft with return_complex=True",
                        "t2n writes the real signal of a one-sided or Hermitian spectrum");
    const int64_t l = logicalRank(x);
    if (l != 2 && l != 3)
        ctx.unsupported(fmt::format("istft of a spectrum of {} axes", l));
    for (const auto& s : x.symbols)
        if (!s.empty())
            ctx.unsupported("istft of a spectrum with a dynamic axis",
                            "t2n writes the overlap-add for a number of frames known at export: "
                            "export with fixed input sizes");
    const int64_t nFft = ctx.intArg(1);
    const int64_t hop = ctx.isNone(2) ? nFft / 4 : ctx.intArg(2);
    const int64_t winLength = ctx.isNone(3) ? nFft : ctx.intArg(3);
    const bool center = ctx.boolArg(5), normalized = ctx.boolArg(6);
    const int64_t bins = x.shape[static_cast<size_t>(l - 2)];
    const int64_t frames = x.shape[static_cast<size_t>(l - 1)];
    const bool onesided = ctx.isNone(7) ? bins != nFft : ctx.boolArg(7);
    if (nFft < 1 || winLength < 1 || winLength > nFft || hop < 1 || hop > winLength || frames < 1 ||
        bins != (onesided ? nFft / 2 + 1 : nFft))
        ctx.unsupported(fmt::format("istft of {} bins x {} frames with n_fft {}, hop {}, "
                                    "win_length {}{}",
                                    bins, frames, nFft, hop, winLength,
                                    onesided ? ", onesided" : ""));
    const std::vector<float> w = stftWindow(ctx, nFft, winLength);
    const std::vector<int64_t> lead(x.shape.begin(), x.shape.begin() + (l - 2));
    const auto p = static_cast<int64_t>(lead.size());

    // Frames before bins, each frame's samples, scaled and windowed.
    std::vector<int64_t> perm{0, 1, 2, 3};
    perm.resize(static_cast<size_t>(l + 1));
    std::swap(perm[static_cast<size_t>(p)], perm[static_cast<size_t>(p + 1)]);
    Expr s = ctx.emitTemp("transpose", {ctx.input(0)}, {{"axes", Expr::ints(perm)}}, "frames");
    Expr y = inverseRealDft(ctx, s, l + 1, p + 1, bins, nFft);
    const double scale =
        1.0 / (normalized ? std::sqrt(static_cast<double>(nFft)) : static_cast<double>(nFft));
    std::vector<float> ws(w.size());
    for (size_t k = 0; k < w.size(); ++k)
        ws[k] = static_cast<float>(w[k] * scale);
    std::vector<int64_t> wShape(static_cast<size_t>(p + 1), 1);
    wShape.push_back(nFft);
    y = ctx.emitTemp("mul", {y, floatTable(ctx, ws, wShape, "istft_window")}, {}, "windowed");
    int64_t written = 0; // the overlap-added samples, zeros after `total`
    y = overlapAdd(ctx, y, lead, frames, nFft, hop, written);

    // Trimmed and divided by the envelope (PyTorch refuses below 1e-11).
    const int64_t total = nFft + hop * (frames - 1);
    const int64_t start = center ? nFft / 2 : 0;
    const int64_t end = !ctx.isNone(8) ? start + ctx.intArg(8) : center ? total - nFft / 2 : total;
    const int64_t stop = std::min(end, total);
    if (stop <= start)
        ctx.unsupported(fmt::format("istft keeping samples {}..{} of {}", start, end, total));
    std::vector<double> env(static_cast<size_t>(total), 0.0);
    for (int64_t t = 0; t < frames; ++t)
        for (int64_t k = 0; k < nFft; ++k)
            env[static_cast<size_t>(t * hop + k)] +=
                static_cast<double>(w[static_cast<size_t>(k)]) * w[static_cast<size_t>(k)];
    std::vector<float> inv;
    for (int64_t j = start; j < stop; ++j) {
        if (std::abs(env[static_cast<size_t>(j)]) < 1e-11)
            ctx.unsupported("istft whose window overlap-adds to zero (the NOLA condition fails)",
                            "PyTorch refuses this window and hop too");
        inv.push_back(static_cast<float>(1.0 / env[static_cast<size_t>(j)]));
    }
    if (start > 0 || stop < written)
        y = ctx.emitTemp("slice", {y}, sliceArgs(p, start, stop), "trimmed");
    std::vector<int64_t> eShape(static_cast<size_t>(p), 1);
    eShape.push_back(stop - start);
    Expr envelope = floatTable(ctx, inv, eShape, "istft_envelope");
    if (end <= total) {
        ctx.emitOut("mul", {y, envelope});
        return;
    }
    std::vector<std::pair<int64_t, int64_t>> pads{{0, end - total}};
    ctx.emitOut("pad", {ctx.emitTemp("mul", {y, envelope}, {}, "signal")},
                {{"padding", paddingPairs(pads, p)},
                 {"border", Expr::str("constant")},
                 {"value", lit(0.0)}});
}

// ---- identities of the representation ----------------------------------------

// view_as_real / view_as_complex: the same numbers with their trailing 2.
void lowerSameNumbers(Context& ctx) {
    if (ctx.in(0).dtype != DType::F32 && ctx.in(0).dtype != DType::F64)
        ctx.unsupported(
            fmt::format("{} of a {} tensor", ctx.node().kind, dtypeName(ctx.in(0).dtype)));
    ctx.bindOut(ctx.input(0));
}

} // namespace

void registerSpectralOps(Registry& r) {
    r.beginFamily("spectral");
    r.add("aten::stft", lowerStft,
          "tract_core_stft; constant window (padded to n_fft), onesided, normalized; complex "
          "results as a trailing axis of 2",
          "tract_core_stft unsqueeze pad +slice +mul transpose !khronos");
    r.add("aten::fft_fft", lowerFft<false>,
          "tract_core_fft; n and norm (a dynamic axis at its own length, the norm from it)",
          "tract_core_fft +unsqueeze +pad +slice +mul" + kDynamicLength + " !khronos");
    r.add("aten::fft_ifft", lowerFft<true>,
          "tract_core_fft inverse, scaled by norm (a dynamic axis at its own length)",
          "tract_core_fft +unsqueeze +pad +slice +mul" + kDynamicLength + " !khronos");
    r.add("aten::fft_rfft", lowerRfft,
          "tract_core_fft, bins 0..n/2 kept (a dynamic axis at its own length)",
          "tract_core_fft +unsqueeze +pad +slice +mul" + kDynamicLength + " !khronos");
    r.add("aten::fft_irfft", lowerIrfft,
          "Hermitian extension (tract_core_gather; along a dynamic axis of tract_core_range), "
          "inverse tract_core_fft, real part",
          "tract_core_fft tract_core_gather mul slice squeeze +unsqueeze +pad +slice +concat "
          "+tract_core_range" +
              kDynamicLength + " !khronos");
    r.add("aten::fft_fftn", lowerFftn<false>,
          "tract_core_fft along each axis in turn; s, dim, norm; static axes",
          "tract_core_fft +unsqueeze +pad +slice +mul !khronos");
    r.add("aten::fft_ifftn", lowerFftn<true>,
          "inverse tract_core_fft along each axis in turn, scaled by norm; s, dim; static axes",
          "tract_core_fft +unsqueeze +pad +slice +mul !khronos");
    r.add("aten::fft_rfft2", lowerRfft2,
          "tract_core_fft along the last axis (bins 0..n/2 kept), then along the first; s, dim, "
          "norm (dynamic axes at their own lengths)",
          "tract_core_fft +unsqueeze +pad slice +mul" + kDynamicLength + " !khronos");
    r.add("aten::fft_irfft2", lowerIrfft2,
          "inverse tract_core_fft along the first axis, Hermitian extension (tract_core_gather) "
          "and inverse tract_core_fft along the last, real part; s, dim, norm (dynamic axes at "
          "their own lengths)",
          "tract_core_fft tract_core_gather mul slice squeeze +unsqueeze +pad +concat "
          "+tract_core_range" +
              kDynamicLength + " !khronos");
    r.add("aten::istft", lowerIstft,
          "inverse real tract_core_fft per frame, windowed overlap-add (static frames), "
          "constant window envelope; center, length; a real result",
          "tract_core_fft tract_core_gather transpose mul slice squeeze reshape +pad +add "
          "!khronos");
    r.add("aten::view_as_real", lowerSameNumbers,
          "complex values are a trailing axis of 2: identity", "-");
    r.add("aten::view_as_complex", lowerSameNumbers,
          "complex values are a trailing axis of 2: identity", "-");
    r.add("aten::imag", lowerComplexImag, "complex tensors", "slice squeeze");
    for (const char* k : {"aten::conj", "aten::_conj"})
        r.add(k, lowerComplexConj, "imaginary part negated; identity on real tensors", "+mul");
}

} // namespace t2n::translate
