// Sampling at computed positions: affine_grid_generator (the sampling grid
// of an affine transform: a constant table of normalized positions times
// theta) and grid_sampler / grid_sampler_2d (bilinear or nearest, zeros /
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

Expr lit(double v, DType t) {
    return Context::scalarLiteral(v, t);
}

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

// grid_sampler / grid_sampler_2d(x [N, C, H, W], grid [N, Ho, Wo, 2], mode,
// padding_mode, align_corners). mode 0 bilinear, 1 nearest (half to even);
// padding 0 zeros, 1 border, 2 reflection.
void lowerGridSampler(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& grid = ctx.in(1);
    const int64_t mode = ctx.intArg(2), padding = ctx.intArg(3);
    const bool align = ctx.boolArg(4);
    if (rankOf(x) != 4)
        ctx.unsupported("grid_sampler of other than a 4-d input (3-d sampling)");
    if (mode != 0 && mode != 1)
        ctx.unsupported("grid_sampler in bicubic mode", "bilinear and nearest are translated");
    if (padding < 0 || padding > 2)
        ctx.unsupported(fmt::format("grid_sampler padding mode {}", padding));
    if (x.dtype != DType::F32 || grid.dtype != DType::F32)
        ctx.unsupported("grid_sampler of non-f32 tensors");
    auto fixed = [](const ir::Value& v, size_t a) {
        return v.symbols.empty() || v.symbols[a].empty();
    };
    if (!fixed(x, 1) || !fixed(x, 2) || !fixed(x, 3) || !fixed(grid, 1) || !fixed(grid, 2))
        ctx.unsupported("grid_sampler over dynamic channel or spatial axes");
    const int64_t c = x.shape[1], h = x.shape[2], w = x.shape[3];
    const int64_t ho = grid.shape[1], wo = grid.shape[2], p = ho * wo;
    const DType t = DType::F32;
    // The coordinates as [N, 1, P].
    auto coordinate = [&](int64_t i, const std::string& tag) {
        Expr s = ctx.emitTemp("slice", {ctx.input(1)}, sliceArgs(3, i, i + 1), tag + "_slice");
        return ctx.emitTemp("reshape", {s}, {{"shape", Expr::ints({0, 1, p})}}, tag);
    };
    Expr ix = sourceIndex(ctx, coordinate(0, "gx"), w, padding, align, "ix");
    Expr iy = sourceIndex(ctx, coordinate(1, "gy"), h, padding, align, "iy");
    Expr flat =
        ctx.emitTemp("reshape", {ctx.input(0)}, {{"shape", Expr::ints({0, c, h * w})}}, "flat");
    // The value at integer position (cx, cy) ([N, 1, P] floats), 0 outside.
    auto corner = [&](Expr cx, Expr cy, const std::string& tag) {
        Expr inside =
            ctx.emitTemp("and",
                         {ctx.emitTemp("and",
                                       {ctx.emitTemp("ge", {cx, lit(0.0, t)}, {}, tag + "_x_low"),
                                        ctx.emitTemp("le", {cx, lit(static_cast<double>(w - 1), t)},
                                                     {}, tag + "_x_high")},
                                       {}, tag + "_x_in"),
                          ctx.emitTemp("and",
                                       {ctx.emitTemp("ge", {cy, lit(0.0, t)}, {}, tag + "_y_low"),
                                        ctx.emitTemp("le", {cy, lit(static_cast<double>(h - 1), t)},
                                                     {}, tag + "_y_high")},
                                       {}, tag + "_y_in")},
                         {}, tag + "_inside");
        Expr kx = ctx.emitTemp("clamp", {cx, lit(0.0, t), lit(static_cast<double>(w - 1), t)}, {},
                               tag + "_x");
        Expr ky = ctx.emitTemp("clamp", {cy, lit(0.0, t), lit(static_cast<double>(h - 1), t)}, {},
                               tag + "_y");
        Expr offset = ctx.emitTemp(
            "add",
            {ctx.emitTemp("mul", {ky, lit(static_cast<double>(w), t)}, {}, tag + "_row"), kx}, {},
            tag + "_offset");
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
        result = corner(ctx.emitTemp("tract_core_round_even", {ix}, {}, "nx"),
                        ctx.emitTemp("tract_core_round_even", {iy}, {}, "ny"), "nearest");
    } else {
        Expr x0 = ctx.emitTemp("floor", {ix}, {}, "x0"), y0 = ctx.emitTemp("floor", {iy}, {}, "y0");
        Expr x1 = ctx.emitTemp("add", {x0, lit(1.0, t)}, {}, "x1");
        Expr y1 = ctx.emitTemp("add", {y0, lit(1.0, t)}, {}, "y1");
        Expr fx1 = ctx.emitTemp("sub", {x1, ix}, {}, "fx1"),
             fx0 = ctx.emitTemp("sub", {ix, x0}, {}, "fx0");
        Expr fy1 = ctx.emitTemp("sub", {y1, iy}, {}, "fy1"),
             fy0 = ctx.emitTemp("sub", {iy, y0}, {}, "fy0");
        struct Corner {
            Expr cx, cy, wx, wy;
            const char* tag;
        };
        const Corner corners[] = {{x0, y0, fx1, fy1, "nw"},
                                  {x1, y0, fx0, fy1, "ne"},
                                  {x0, y1, fx1, fy0, "sw"},
                                  {x1, y1, fx0, fy0, "se"}};
        for (const Corner& k : corners) {
            Expr weight = ctx.emitTemp("mul", {k.wx, k.wy}, {}, std::string(k.tag) + "_weight");
            Expr term = ctx.emitTemp("mul", {corner(k.cx, k.cy, k.tag), weight}, {},
                                     std::string(k.tag) + "_term");
            result = &k == corners
                         ? term
                         : ctx.emitTemp("add", {result, term}, {}, std::string(k.tag) + "_sum");
        }
    }
    ctx.emitOut("reshape", {result}, {{"shape", Expr::ints({0, c, ho, wo})}});
}

} // namespace

void registerGridSampleOps(Registry& r) {
    r.beginFamily("resample");
    r.add("aten::affine_grid_generator", lowerAffineGrid,
          "2-d and 3-d, static sizes; a constant base grid times theta",
          "unsqueeze mul sum_reduce reshape");
    const char* sampling = "slice reshape add mul sub abs floor div eq select clamp ge le and tile "
                           "tract_core_gather_elements +tract_core_round_even";
    for (const char* k : {"aten::grid_sampler", "aten::grid_sampler_2d"})
        r.add(k, lowerGridSampler,
              "4-d input, static sizes; bilinear or nearest; zeros, border or reflection padding; "
              "tract_core_gather_elements (every tract version)",
              sampling);
}

} // namespace t2n::translate
