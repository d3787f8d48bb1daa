// Layout operations: axis moves, flips and rolls, tiling, pixel shuffles,
// sliding frames (Tensor.unfold) and nearest / linear / bicubic resampling. Index
// patterns are computed at export time and applied with tract_core_gather;
// interpolation weights are constant tables.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace t2n::translate {

namespace {

// The output shape for a reshape, with 0 ("copy the input dimension") on
// leading axes whose symbol the input carries at the same place, so that a
// dynamic batch stays dynamic.
std::vector<int64_t> reshapeTarget(Context& ctx) {
    std::vector<int64_t> shape = ctx.out().shape;
    const auto& in = ctx.in(0).symbols;
    const auto& out = ctx.out().symbols;
    for (size_t i = 0; i < shape.size() && i < in.size() && i < out.size(); ++i) {
        if (out[i].empty() || out[i] != in[i])
            break;
        shape[i] = 0;
    }
    return shape;
}

void lowerReshapeToOutput(Context& ctx) {
    ctx.emitOut("reshape", {ctx.input(0)}, {{"shape", Expr::ints(reshapeTarget(ctx))}});
}

Expr gatherAxis(Context& ctx, Expr x, const std::vector<int64_t>& idx, int64_t axis,
                const std::string& suffix, bool last) {
    Expr table = indexTable(ctx, idx, {static_cast<int64_t>(idx.size())}, "index_" + suffix);
    return emitStep(ctx, last, "tract_core_gather", {x, table}, {{"axis", Expr::i(axis)}}, suffix);
}

// flip(x, dims): a reversed gather per axis.
void lowerFlip(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    std::vector<int64_t> dims = reduceAxes(ctx, ctx.intsArg(1), rankOf(x));
    Expr e = ctx.input(0);
    for (size_t k = 0; k < dims.size(); ++k) {
        const int64_t n = x.shape[static_cast<size_t>(dims[k])];
        std::vector<int64_t> idx(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
            idx[static_cast<size_t>(i)] = n - 1 - i;
        e = gatherAxis(ctx, e, idx, dims[k], fmt::format("flip{}", dims[k]), k + 1 == dims.size());
    }
    if (dims.empty())
        ctx.bindOut(e);
}

// Rolls `e` by `shift` along `axis` of size n: the last `shift` items first.
Expr rollAxis(Context& ctx, Expr e, int64_t shift, int64_t axis, int64_t n, bool last) {
    shift = ((shift % n) + n) % n;
    if (shift == 0) {
        if (last)
            ctx.bindOut(e);
        return e;
    }
    Expr tail = ctx.emitTemp("slice", {e}, sliceArgs(axis, n - shift, n), "tail");
    Expr head = ctx.emitTemp("slice", {e}, sliceArgs(axis, 0, n - shift), "head");
    return emitStep(ctx, last, "concat", {Expr::array({tail, head})}, {{"axis", Expr::i(axis)}},
                    "rolled");
}

// roll(x, shifts, dims); without dims over the flattened tensor.
void lowerRoll(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    std::vector<int64_t> shifts = ctx.intsArg(1);
    std::vector<int64_t> dims = ctx.numInputs() > 2 ? ctx.intsArg(2) : std::vector<int64_t>{};
    if (dims.empty()) {
        int64_t n = 1;
        for (int64_t d : x.shape)
            n *= d;
        Expr flat = ctx.emitTemp("reshape", {ctx.input(0)}, {{"shape", Expr::ints({n})}}, "flat");
        Expr r = rollAxis(ctx, flat, shifts.at(0), 0, n, false);
        ctx.emitOut("reshape", {r}, {{"shape", Expr::ints(x.shape)}});
        return;
    }
    if (dims.size() != shifts.size())
        ctx.unsupported("roll with different numbers of shifts and dims");
    Expr e = ctx.input(0);
    for (size_t k = 0; k < dims.size(); ++k) {
        const int64_t a = ctx.axis(dims[k], rankOf(x));
        e = rollAxis(ctx, e, shifts[k], a, x.shape[static_cast<size_t>(a)], k + 1 == dims.size());
    }
}

// movedim(x, source, destination), ints or int lists, as one transpose.
void lowerMovedim(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> src = ctx.intsArg(1), dst = ctx.intsArg(2);
    if (src.size() != dst.size())
        ctx.unsupported("movedim with different numbers of source and destination axes");
    std::vector<int64_t> perm(static_cast<size_t>(r), -1);
    std::vector<bool> used(static_cast<size_t>(r), false);
    for (size_t i = 0; i < src.size(); ++i) {
        const int64_t s = ctx.axis(src[i], r), d = ctx.axis(dst[i], r);
        perm[static_cast<size_t>(d)] = s;
        used[static_cast<size_t>(s)] = true;
    }
    int64_t next = 0;
    for (auto& p : perm) {
        if (p >= 0)
            continue;
        while (used[static_cast<size_t>(next)])
            ++next;
        p = next++;
    }
    ctx.emitOut("transpose", {ctx.input(0)}, {{"axes", Expr::ints(perm)}});
}

// tile(x, dims): dims padded with leading 1s; extra leading axes first.
void lowerTile(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> reps = ctx.intsArg(1);
    const int64_t n = std::max<int64_t>(r, static_cast<int64_t>(reps.size()));
    reps.insert(reps.begin(), static_cast<size_t>(n - static_cast<int64_t>(reps.size())), 1);
    Expr e = ctx.operand(ctx.node().inputs[0], n, ctx.out().dtype);
    ctx.emitOut("tile", {e}, {{"repeats", Expr::ints(reps)}});
}

// pixel_shuffle / pixel_unshuffle on [N, C, H, W]: reshape, transpose, reshape.
template <bool Shuffle> void lowerPixelShuffle(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    if (rankOf(x) != 4)
        ctx.unsupported("pixel (un)shuffle of a tensor that is not [N, C, H, W]");
    const int64_t f = ctx.intArg(1);
    const auto& o = ctx.out().shape;
    std::vector<int64_t> split, perm;
    if (Shuffle) {
        split = {0, o[1], f, f, x.shape[2], x.shape[3]};
        perm = {0, 1, 4, 2, 5, 3};
    } else {
        split = {0, x.shape[1], o[2], f, o[3], f};
        perm = {0, 1, 3, 5, 2, 4};
    }
    Expr s = ctx.emitTemp("reshape", {ctx.input(0)}, {{"shape", Expr::ints(split)}}, "split");
    Expr t = ctx.emitTemp("transpose", {s}, {{"axes", Expr::ints(perm)}}, "moved");
    ctx.emitOut("reshape", {t}, {{"shape", Expr::ints({0, o[1], o[2], o[3]})}});
}

// Tensor.unfold(dim, size, step): frames gathered as [.., frames, size, ..],
// the size axis then moved last.
void lowerUnfold(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const int64_t d = ctx.axis(ctx.intArg(1), r), size = ctx.intArg(2), step = ctx.intArg(3);
    const int64_t n = x.shape[static_cast<size_t>(d)];
    const int64_t frames = (n - size) / step + 1;
    std::vector<int64_t> idx;
    for (int64_t w = 0; w < frames; ++w)
        for (int64_t k = 0; k < size; ++k)
            idx.push_back(w * step + k);
    Expr table = indexTable(ctx, idx, {frames, size}, "frames");
    const bool last = d == r - 1;
    Expr g = emitStep(ctx, last, "tract_core_gather", {ctx.input(0), table}, {{"axis", Expr::i(d)}},
                      "frames");
    if (last)
        return;
    std::vector<int64_t> perm;
    for (int64_t i = 0; i <= r; ++i)
        if (i != d + 1)
            perm.push_back(i);
    perm.push_back(d + 1);
    ctx.emitOut("transpose", {g}, {{"axes", Expr::ints(perm)}});
}

// --- resampling ------------------------------------------------------------------

// The scale factors given to an upsample node, one per spatial axis (0 when
// absent): the `.vec` overloads take a float list, the others one optional
// float per axis starting at `first`.
std::vector<double> scaleFactors(Context& ctx, size_t first, size_t spatial) {
    std::vector<double> out(spatial, 0.0);
    if (ctx.numInputs() <= first || ctx.isNone(first))
        return out;
    const ir::Value& v = ctx.in(first);
    if (v.constant)
        if (auto* l = std::get_if<std::vector<double>>(&*v.constant)) {
            for (size_t i = 0; i < spatial && i < l->size(); ++i)
                out[i] = (*l)[i];
            return out;
        }
    for (size_t i = 0; i < spatial && first + i < ctx.numInputs(); ++i)
        if (!ctx.isNone(first + i))
            out[i] = ctx.floatArg(first + i);
    return out;
}

// PyTorch's source-index scale (area_pixel_compute_scale, in float).
float sourceScale(int64_t in, int64_t out, double factor, bool alignCorners) {
    if (alignCorners)
        return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
    if (factor > 0)
        return static_cast<float>(1.0 / factor);
    return static_cast<float>(in) / static_cast<float>(out);
}

// The spatial axes a resampling computes: those whose size changes, or all
// of them with align_corners (which moves samples even at the same size).
std::vector<int64_t> resampledAxes(const ir::Value& x, const ir::Value& out, bool all) {
    std::vector<int64_t> axes;
    for (size_t a = 2; a < x.shape.size(); ++a)
        if (all || x.shape[a] != out.shape[a])
            axes.push_back(static_cast<int64_t>(a));
    return axes;
}

// upsample_nearest{1,2,3}d(x, output_size?, scale_factors?) and the per-axis
// scales overloads: a gather per resized axis.
void lowerUpsampleNearest(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const size_t spatial = static_cast<size_t>(r - 2);
    auto factors = scaleFactors(ctx, 2, spatial);
    const std::vector<int64_t> axes = resampledAxes(x, ctx.out(), false);
    Expr e = ctx.input(0);
    for (size_t k = 0; k < axes.size(); ++k) {
        const int64_t a = axes[k];
        const int64_t in = x.shape[static_cast<size_t>(a)],
                      out = ctx.out().shape[static_cast<size_t>(a)];
        const float s = sourceScale(in, out, factors[static_cast<size_t>(a - 2)], false);
        std::vector<int64_t> idx;
        for (int64_t i = 0; i < out; ++i)
            idx.push_back(
                std::min(static_cast<int64_t>(std::floor(static_cast<float>(i) * s)), in - 1));
        e = gatherAxis(ctx, e, idx, a, fmt::format("nearest{}", a), k + 1 == axes.size());
    }
    if (axes.empty())
        ctx.bindOut(e);
}

// Separable resampling, align_corners at argument 2 and the scales from
// argument 3: `step(e, axis, in, out, scale, align, last)` resamples one axis
// of `e` (in -> out items, PyTorch's source scale), as the output when last.
template <class Step> void resampleAxes(Context& ctx, const char* what, Step step) {
    const ir::Value& x = ctx.in(0);
    const bool align = ctx.boolArg(2);
    auto factors = scaleFactors(ctx, 3, static_cast<size_t>(rankOf(x) - 2));
    if (ctx.out().dtype != DType::F32)
        ctx.unsupported(fmt::format("{} resampling of a non-f32 tensor", what));
    const std::vector<int64_t> axes = resampledAxes(x, ctx.out(), align);
    Expr e = ctx.input(0);
    for (size_t k = 0; k < axes.size(); ++k) {
        const int64_t a = axes[k];
        const int64_t in = x.shape[static_cast<size_t>(a)],
                      out = ctx.out().shape[static_cast<size_t>(a)];
        const float s = sourceScale(in, out, factors[static_cast<size_t>(a - 2)], align);
        e = step(e, a, in, out, s, align, k + 1 == axes.size());
    }
    if (axes.empty())
        ctx.bindOut(e);
}

// A weight table over axis `a` (of `out` items) of a rank-r tensor.
Expr axisWeights(Context& ctx, const std::vector<float>& w, int64_t r, int64_t a,
                 const std::string& hint) {
    std::vector<int64_t> shape(static_cast<size_t>(r), 1);
    shape[static_cast<size_t>(a)] = static_cast<int64_t>(w.size());
    return floatTable(ctx, w, shape, hint);
}

// upsample_linear1d / bilinear2d / trilinear3d (x, output_size?, align_corners,
// scale_factors?): separable linear interpolation, one axis at a time.
void lowerUpsampleLinear(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    resampleAxes(
        ctx, "linear",
        [&](Expr e, int64_t a, int64_t in, int64_t out, float s, bool align, bool last) {
            std::vector<int64_t> i0, i1;
            std::vector<float> w0, w1;
            for (int64_t i = 0; i < out; ++i) {
                float src = align ? static_cast<float>(i) * s
                                  : std::max((static_cast<float>(i) + 0.5f) * s - 0.5f, 0.0f);
                int64_t lo = std::min(static_cast<int64_t>(std::floor(src)), in - 1);
                int64_t hi = std::min(lo + 1, in - 1);
                float l1 = src - static_cast<float>(lo);
                i0.push_back(lo);
                i1.push_back(hi);
                w0.push_back(1.0f - l1);
                w1.push_back(l1);
            }
            const std::string tag = fmt::format("axis{}", a);
            Expr lo = gatherAxis(ctx, e, i0, a, "lo_" + tag, false);
            Expr hi = gatherAxis(ctx, e, i1, a, "hi_" + tag, false);
            Expr a0 = ctx.emitTemp("mul", {lo, axisWeights(ctx, w0, r, a, "weight_lo_" + tag)}, {},
                                   "wlo_" + tag);
            Expr a1 = ctx.emitTemp("mul", {hi, axisWeights(ctx, w1, r, a, "weight_hi_" + tag)}, {},
                                   "whi_" + tag);
            return emitStep(ctx, last, "add", {a0, a1}, {}, "lerp_" + tag);
        });
}

// PyTorch's cubic convolution weights (A = -0.75) of the four taps around a
// source position at fraction t past its floor (get_cubic_upsample_coefficients).
std::array<float, 4> cubicWeights(float t) {
    const float a = -0.75f;
    auto near = [&](float x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
    auto far = [&](float x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
    return {far(t + 1.0f), near(t), near(1.0f - t), far(2.0f - t)};
}

// upsample_bicubic2d(x, output_size?, align_corners, scales...): separable
// cubic convolution, one axis at a time: four gathers of the taps (indices
// clamped to the edges, as PyTorch reads them) and their weight tables.
void lowerUpsampleBicubic(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    resampleAxes(
        ctx, "bicubic",
        [&](Expr e, int64_t a, int64_t in, int64_t out, float s, bool align, bool last) {
            std::array<std::vector<int64_t>, 4> idx;
            std::array<std::vector<float>, 4> w;
            for (int64_t i = 0; i < out; ++i) {
                // area_pixel_compute_source_index for cubic: no clamping at 0.
                const float src =
                    align ? static_cast<float>(i) * s : (static_cast<float>(i) + 0.5f) * s - 0.5f;
                const auto base = static_cast<int64_t>(std::floor(src));
                const auto c = cubicWeights(src - static_cast<float>(base));
                for (size_t j = 0; j < 4; ++j) {
                    idx[j].push_back(
                        std::clamp<int64_t>(base - 1 + static_cast<int64_t>(j), 0, in - 1));
                    w[j].push_back(c[j]);
                }
            }
            Expr sum;
            for (size_t j = 0; j < 4; ++j) {
                const std::string tag = fmt::format("tap{}_axis{}", j, a);
                Expr tap = gatherAxis(ctx, e, idx[j], a, tag, false);
                Expr term = ctx.emitTemp(
                    "mul", {tap, axisWeights(ctx, w[j], r, a, "weight_" + tag)}, {}, "w" + tag);
                sum = j == 0 ? term
                             : emitStep(ctx, j == 3 && last, "add", {sum, term}, {},
                                        fmt::format("cubic{}_axis{}", j, a));
            }
            return sum;
        });
}

} // namespace

void registerLayoutOps(Registry& r) {
    r.beginFamily("shape");
    r.add("aten::reshape_as", lowerReshapeToOutput, "reshape to the recorded shape");
    r.add("aten::view_as", lowerReshapeToOutput, "reshape to the recorded shape");
    r.add("aten::unflatten", lowerReshapeToOutput, "reshape to the recorded shape");
    r.add("aten::flip", lowerFlip, "a reversed tract_core_gather per axis; static axes");
    r.add("aten::roll", lowerRoll, "slices and concat; static axes");
    r.add("aten::movedim", lowerMovedim, "one transpose");
    r.add("aten::tile", lowerTile);
    r.add("aten::pixel_shuffle", lowerPixelShuffle<true>, "[N, C, H, W]");
    r.add("aten::pixel_unshuffle", lowerPixelShuffle<false>, "[N, C, H, W]");
    r.add("aten::unfold", lowerUnfold, "frames gathered with tract_core_gather; static axis");
    r.beginFamily("resample");
    for (const char* k :
         {"aten::upsample_nearest1d", "aten::upsample_nearest2d", "aten::upsample_nearest3d"})
        r.add(k, lowerUpsampleNearest, "static sizes; a gather per resized axis");
    for (const char* k :
         {"aten::upsample_linear1d", "aten::upsample_bilinear2d", "aten::upsample_trilinear3d"})
        r.add(k, lowerUpsampleLinear,
              "f32, static sizes, align_corners or not; separable gathers and weights");
    r.add("aten::upsample_bicubic2d", lowerUpsampleBicubic,
          "f32, static sizes, align_corners or not; four gathers and weights per axis",
          "tract_core_gather mul add");
}

} // namespace t2n::translate
