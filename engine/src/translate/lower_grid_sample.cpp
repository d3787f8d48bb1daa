// Sampling at computed positions: affine_grid_generator (the sampling grid
// of an affine transform: a constant table of normalized positions times
// theta) and grid_sampler / _2d / _3d (bilinear or nearest, zeros /
// border / reflection padding, align_corners or not), after PyTorch 1.13's
// GridSampler.h. tract_core_grid_sample exists only from tract 0.23.3; this
// lowering uses operations of every version instead: the source positions
// are computed from the grid, the corners read with
// tract_core_gather_elements over the flattened image, and weighted.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace t2n::translate {

namespace {

// PyTorch's linspace_from_neg_one in f32: linspace(-1, 1, n), times (n - 1) / n
// without align_corners; [0] for n <= 1.
std::vector<float> normalizedPositions(int64_t n, bool align) {
    if (n <= 1)
        return {0.0f};
    std::vector<float> out(static_cast<size_t>(n));
    const float step = 2.0f / static_cast<float>(n - 1);
    for (int64_t i = 0; i < n; ++i) {
        float v = i < n / 2 ? -1.0f + step * static_cast<float>(i)
                            : 1.0f - step * static_cast<float>(n - 1 - i);
        if (!align)
            v = v * static_cast<float>(n - 1) / static_cast<float>(n);
        out[static_cast<size_t>(i)] = v;
    }
    return out;
}

// affine_grid_generator(theta [N, k, k + 1], size [N, C, (D,) H, W],
// align_corners): the base grid [P, k + 1] (x fastest, then y, then z, and a
// 1) times theta transposed, summed over the last axis: [N, (D,) H, W, k].
void lowerAffineGrid(Context& ctx) {
    const std::vector<int64_t> size = ctx.intsArg(1);
    const bool align = ctx.boolArg(2);
    if (size.size() != 4 && size.size() != 5)
        ctx.unsupported("affine_grid_generator of other than 2-d or 3-d sizes");
    if (ctx.out().dtype != DType::F32)
        ctx.unsupported("affine_grid_generator of a non-f32 theta");
    const size_t k = size.size() - 2;     // spatial axes
    std::vector<std::vector<float>> axes; // x (W), y (H), z (D)
    for (size_t a = 0; a < k; ++a)
        axes.push_back(normalizedPositions(size[size.size() - 1 - a], align));
    int64_t points = 1;
    for (size_t a = 2; a < size.size(); ++a)
        points *= size[a];
    std::vector<float> base;
    base.reserve(static_cast<size_t>(points) * (k + 1));
    for (int64_t p = 0; p < points; ++p) {
        int64_t rest = p;
        for (size_t a = 0; a < k; ++a) {
            const auto n = static_cast<int64_t>(axes[a].size());
            base.push_back(axes[a][static_cast<size_t>(rest % n)]);
            rest /= n;
        }
        base.push_back(1.0f);
    }
    const auto kk = static_cast<int64_t>(k);
    Expr grid = floatTable(ctx, base, {1, points, 1, kk + 1}, "base_grid");
    Expr theta = ctx.emitTemp("unsqueeze", {ctx.input(0)}, {{"axes", Expr::ints({1})}}, "theta");
    Expr products = ctx.emitTemp("mul", {grid, theta}, {}, "products");
    Expr sums = ctx.emitTemp("sum_reduce", {products}, {{"axes", Expr::ints({3})}}, "sums");
    std::vector<int64_t> shape{0};
    for (size_t a = 2; a < size.size(); ++a)
        shape.push_back(size[a]);
    shape.push_back(kk);
    ctx.emitOut("reshape", {sums}, {{"shape", Expr::ints(shape)}});
}

// One coordinate of the grid, [N, 1, P] in pixels of an axis of `n`: PyTorch's
// grid_sampler_compute_source_index (unnormalize, then the padding mode).
Expr sourceIndex(Context& ctx, Expr g, int64_t n, int64_t padding, bool align,
                 const std::string& tag) {
    const DType t = DType::F32;
    const double size = static_cast<double>(n);
    Expr one = ctx.emitTemp("add", {g, lit(1.0, t)}, {}, tag + "_plus_one");
    Expr c = align
                 ? ctx.emitTemp("mul", {one, lit((size - 1) / 2, t)}, {}, tag + "_pixels")
                 : ctx.emitTemp(
                       "mul",
                       {ctx.emitTemp("sub",
                                     {ctx.emitTemp("mul", {one, lit(size, t)}, {}, tag + "_scaled"),
                                      lit(1.0, t)},
                                     {}, tag + "_shifted"),
                        lit(0.5, t)},
                       {}, tag + "_pixels");
    if (padding == 2) {
        // reflect_coordinates over [lo, hi] = [0, n - 1] (align) or [-0.5, n - 0.5].
        const double lo = align ? 0.0 : -0.5, span = align ? size - 1 : size;
        if (span <= 0)
            return lit(0.0, t);
        Expr in = ctx.emitTemp("abs", {ctx.emitTemp("sub", {c, lit(lo, t)}, {}, tag + "_from_lo")},
                               {}, tag + "_distance");
        Expr flips =
            ctx.emitTemp("floor", {ctx.emitTemp("div", {in, lit(span, t)}, {}, tag + "_spans")}, {},
                         tag + "_flips");
        Expr extra = ctx.emitTemp(
            "sub", {in, ctx.emitTemp("mul", {flips, lit(span, t)}, {}, tag + "_whole")}, {},
            tag + "_extra");
        Expr half = ctx.emitTemp(
            "floor", {ctx.emitTemp("mul", {flips, lit(0.5, t)}, {}, tag + "_half_flips")}, {},
            tag + "_pairs");
        Expr even = ctx.emitTemp(
            "eq", {flips, ctx.emitTemp("mul", {half, lit(2.0, t)}, {}, tag + "_even_flips")}, {},
            tag + "_even");
        c = ctx.emitTemp("select",
                         {even, ctx.emitTemp("add", {extra, lit(lo, t)}, {}, tag + "_forward"),
                          ctx.emitTemp("sub", {lit(span + lo, t), extra}, {}, tag + "_backward")},
                         {}, tag + "_reflected");
    }
    if (padding >= 1)
        c = ctx.emitTemp("clamp", {c, lit(0.0, t), lit(size - 1, t)}, {}, tag + "_clipped");
    return c;
}

// grid_sampler / grid_sampler_2d / grid_sampler_3d(x [N, C, (D,) H, W], grid
// [N, (Do,) Ho, Wo, k], mode, padding_mode, align_corners), k = 2 or 3 spatial
// axes, grid coordinate d sampling axis rank - 1 - d (x: W, y: H, z: D). mode
// 0 is (bi/tri)linear over the 2^k corners, 1 nearest (half to even); padding
// 0 zeros, 1 border, 2 reflection.
void lowerGridSampler(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& grid = ctx.in(1);
    const int64_t mode = ctx.intArg(2), padding = ctx.intArg(3);
    const bool align = ctx.boolArg(4);
    const int64_t rank = rankOf(x), k = rank - 2;
    if (rank != 4 && rank != 5)
        ctx.unsupported("grid_sampler of other than a 4-d or 5-d input");
    if (mode != 0 && mode != 1)
        ctx.unsupported("grid_sampler in bicubic mode", "bilinear and nearest are translated");
    if (padding < 0 || padding > 2)
        ctx.unsupported(fmt::format("grid_sampler padding mode {}", padding));
    if (x.dtype != DType::F32 || grid.dtype != DType::F32)
        ctx.unsupported("grid_sampler of non-f32 tensors");
    for (size_t a = 1; a < static_cast<size_t>(rank); ++a)
        if ((!x.symbols.empty() && !x.symbols[a].empty()) ||
            (a < static_cast<size_t>(rank - 1) && !grid.symbols.empty() &&
             !grid.symbols[a].empty()))
            ctx.unsupported("grid_sampler over dynamic channel or spatial axes");
    const int64_t c = x.shape[1];
    const DType t = DType::F32;
    // Per grid coordinate d: the size of the axis it samples and its stride in
    // the flattened image.
    std::vector<int64_t> size, stride;
    int64_t pixels = 1, points = 1;
    for (int64_t d = 0; d < k; ++d) {
        size.push_back(x.shape[static_cast<size_t>(rank - 1 - d)]);
        stride.push_back(pixels);
        pixels *= size.back();
        points *= grid.shape[static_cast<size_t>(1 + d)];
    }
    // The coordinates as [N, 1, P], in pixels.
    std::vector<Expr> at;
    for (int64_t d = 0; d < k; ++d) {
        const std::string tag = std::string(1, "xyz"[d]);
        Expr s = ctx.emitTemp("slice", {ctx.input(1)}, sliceArgs(rank - 1, d, d + 1), "g" + tag);
        Expr g = ctx.emitTemp("reshape", {s}, {{"shape", Expr::ints({0, 1, points})}},
                              "g" + tag + "_points");
        at.push_back(sourceIndex(ctx, g, size[static_cast<size_t>(d)], padding, align, "i" + tag));
    }
    Expr flat =
        ctx.emitTemp("reshape", {ctx.input(0)}, {{"shape", Expr::ints({0, c, pixels})}}, "flat");
    // The value at integer position `pos` ([N, 1, P] floats each), 0 outside.
    auto corner = [&](const std::vector<Expr>& pos, const std::string& tag) {
        Expr inside, offset;
        for (int64_t d = 0; d < k; ++d) {
            const auto du = static_cast<size_t>(d);
            const std::string dt = tag + "_" + std::string(1, "xyz"[d]);
            const double last = static_cast<double>(size[du] - 1);
            Expr in = ctx.emitTemp("and",
                                   {ctx.emitTemp("ge", {pos[du], lit(0.0, t)}, {}, dt + "_low"),
                                    ctx.emitTemp("le", {pos[du], lit(last, t)}, {}, dt + "_high")},
                                   {}, dt + "_in");
            inside = d == 0 ? in : ctx.emitTemp("and", {inside, in}, {}, dt + "_inside");
            Expr kept =
                ctx.emitTemp("clamp", {pos[du], lit(0.0, t), lit(last, t)}, {}, dt + "_kept");
            Expr step = stride[du] == 1
                            ? kept
                            : ctx.emitTemp("mul", {kept, lit(static_cast<double>(stride[du]), t)},
                                           {}, dt + "_step");
            offset = d == 0 ? step : ctx.emitTemp("add", {offset, step}, {}, dt + "_offset");
        }
        Expr index = ctx.emitTemp(
            "tile",
            {ctx.emitTemp("tract_core_cast", {offset}, {{"to", Expr::str("i64")}}, tag + "_index")},
            {{"repeats", Expr::ints({1, c, 1})}}, tag + "_indices");
        Expr v = ctx.emitTemp("tract_core_gather_elements", {flat, index}, {{"axis", Expr::i(2)}},
                              tag + "_value");
        return ctx.emitTemp("select", {inside, v, lit(0.0, t)}, {}, tag + "_read");
    };
    Expr result;
    if (mode == 1) {
        std::vector<Expr> nearest;
        for (int64_t d = 0; d < k; ++d)
            nearest.push_back(ctx.emitTemp("tract_core_round_even", {at[static_cast<size_t>(d)]},
                                           {}, fmt::format("n{}", "xyz"[d])));
        result = corner(nearest, "nearest");
    } else {
        // Per coordinate: the corners below and above, and their weights
        // (the distance to the other one).
        std::vector<Expr> lo, hi, wlo, whi;
        for (int64_t d = 0; d < k; ++d) {
            const auto du = static_cast<size_t>(d);
            const std::string tag = std::string(1, "xyz"[d]);
            lo.push_back(ctx.emitTemp("floor", {at[du]}, {}, tag + "0"));
            hi.push_back(ctx.emitTemp("add", {lo[du], lit(1.0, t)}, {}, tag + "1"));
            wlo.push_back(ctx.emitTemp("sub", {hi[du], at[du]}, {}, "w" + tag + "0"));
            whi.push_back(ctx.emitTemp("sub", {at[du], lo[du]}, {}, "w" + tag + "1"));
        }
        for (int64_t m = 0; m < (int64_t{1} << k); ++m) {
            std::vector<Expr> pos;
            Expr weight;
            std::string tag = "c";
            for (int64_t d = 0; d < k; ++d) {
                const auto du = static_cast<size_t>(d);
                const bool up = (m >> d) & 1;
                tag += up ? '1' : '0';
                pos.push_back(up ? hi[du] : lo[du]);
                weight = d == 0 ? (up ? whi[du] : wlo[du])
                                : ctx.emitTemp("mul", {weight, up ? whi[du] : wlo[du]}, {},
                                               fmt::format("weight{}_{}", m, d));
            }
            Expr term = ctx.emitTemp("mul", {corner(pos, tag), weight}, {}, tag + "_term");
            result = m == 0 ? term : ctx.emitTemp("add", {result, term}, {}, tag + "_sum");
        }
    }
    std::vector<int64_t> shape{0, c};
    for (int64_t d = 0; d < k; ++d)
        shape.push_back(grid.shape[static_cast<size_t>(1 + d)]);
    ctx.emitOut("reshape", {result}, {{"shape", Expr::ints(shape)}});
}

} // namespace

void registerGridSampleOps(Registry& r) {
    r.beginFamily("resample");
    r.add("aten::affine_grid_generator", lowerAffineGrid,
          "2-d and 3-d, static sizes; a constant base grid times theta",
          "unsqueeze mul sum_reduce reshape");
    const char* sampling = "slice reshape add mul sub abs floor div eq select clamp ge le and tile "
                           "tract_core_gather_elements +tract_core_round_even";
    for (const char* k : {"aten::grid_sampler", "aten::grid_sampler_2d", "aten::grid_sampler_3d"})
        r.add(k, lowerGridSampler,
              "2-d and 3-d, static sizes; bilinear or nearest; zeros, border or reflection "
              "padding; tract_core_gather_elements (every tract version)",
              sampling);
}

} // namespace t2n::translate
