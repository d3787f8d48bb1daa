// Max, average and adaptive pooling. NNEF pools take size, stride and
// padding over every axis (batch and channels included). PyTorch's
// ceil_mode becomes extra padding at the end of each axis, sized from the
// recorded output shape; those cells are excluded ('ignore' border).
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>

#include <algorithm>

namespace t2n::translate {

namespace {

struct PoolWindow {
    int64_t pre = 0; // leading non-spatial axes
    std::vector<int64_t> kernel, stride, dilation;
    std::vector<std::pair<int64_t, int64_t>> padding;
};

// Padding (p, p + extra) where extra covers the last window that ceil_mode
// (or PyTorch's rule that a window must start inside the input) adds.
PoolWindow makeWindow(Context& ctx, size_t spatial, std::vector<int64_t> kernel,
                      std::vector<int64_t> stride, std::vector<int64_t> pad,
                      std::vector<int64_t> dilation) {
    PoolWindow w;
    const ir::Value& x = ctx.in(0);
    w.pre = rankOf(x) - static_cast<int64_t>(spatial);
    if (w.pre < 1)
        ctx.unsupported(
            fmt::format("pooling over {} axes of a rank-{} tensor", spatial, rankOf(x)));
    w.kernel = expandInts(std::move(kernel), spatial, 1);
    w.stride = stride.empty() ? w.kernel : expandInts(std::move(stride), spatial, 1);
    w.dilation = expandInts(std::move(dilation), spatial, 1);
    pad = expandInts(std::move(pad), spatial, 0);
    for (size_t i = 0; i < spatial; ++i) {
        const auto axis = static_cast<size_t>(w.pre) + i;
        int64_t in = x.shape[axis], out = ctx.out().shape[axis];
        int64_t span = (out - 1) * w.stride[i] + w.dilation[i] * (w.kernel[i] - 1) + 1;
        int64_t extra = std::max<int64_t>(0, span - (in + 2 * pad[i]));
        w.padding.emplace_back(pad[i], pad[i] + extra);
    }
    return w;
}

Kwargs windowArgs(const PoolWindow& w, int64_t rank, const std::string& border) {
    Kwargs k;
    k.emplace_back("size", fullWindow(w.kernel, rank, w.pre));
    k.emplace_back("border", Expr::str(border));
    k.emplace_back("padding", paddingPairs(w.padding, w.pre));
    k.emplace_back("stride", fullWindow(w.stride, rank, w.pre));
    k.emplace_back("dilation", fullWindow(w.dilation, rank, w.pre));
    return k;
}

// tract's pools read the first two axes as batch and channels and refuse a
// window, stride or dilation other than 1 there (nnef/src/ops/nnef/deser.rs,
// pool_spec_for_pools: "stride should be like [1, 1, ...]"): an input with
// fewer leading axes, an unbatched [C, H, W], is pooled with unit axes put
// in front and taken off after. `last`: the result is the node's output.
Expr emitPool(Context& ctx, const std::string& op, Expr x, PoolWindow w, int64_t rank,
              const std::string& border, Kwargs extra = {}, bool last = true) {
    const int64_t missing = std::max<int64_t>(0, 2 - w.pre);
    if (missing == 0) {
        Kwargs k = windowArgs(w, rank, border);
        k.insert(k.end(), extra.begin(), extra.end());
        return emitStep(ctx, last, op, {std::move(x)}, std::move(k), op);
    }
    std::vector<int64_t> axes;
    for (int64_t a = 0; a < missing; ++a)
        axes.push_back(a);
    x = ctx.emitTemp("unsqueeze", {std::move(x)}, {{"axes", Expr::ints(axes)}}, "batched");
    w.pre += missing;
    Kwargs k = windowArgs(w, rank + missing, border);
    k.insert(k.end(), extra.begin(), extra.end());
    Expr pooled = ctx.emitTemp(op, {x}, std::move(k), "pooled");
    return emitStep(ctx, last, "squeeze", {pooled}, {{"axes", Expr::ints(axes)}}, op);
}

size_t spatialAxes(const std::string& kind) {
    if (kind.find("1d") != std::string::npos)
        return 1;
    if (kind.find("3d") != std::string::npos)
        return 3;
    return 2;
}

// max_pool{1,2,3}d(x, kernel, stride, padding, dilation, ceil_mode)
void lowerMaxPool(Context& ctx) {
    size_t n = spatialAxes(ctx.node().kind);
    PoolWindow w = makeWindow(ctx, n, ctx.intsArg(1), ctx.intsArg(2), ctx.intsArg(3),
                              ctx.numInputs() > 4 ? ctx.intsArg(4) : std::vector<int64_t>{});
    emitPool(ctx, "max_pool", ctx.input(0), w, rankOf(ctx.in(0)), "ignore");
}

// max_pool{1,2,3}d_with_indices(x, kernel, stride, padding, dilation,
// ceil_mode) -> (values, indices): the values; the indices are refused.
void lowerMaxPoolWithIndices(Context& ctx) {
    if (ctx.node().outputs.size() > 1 && ctx.isUsed(ctx.node().outputs[1]))
        ctx.unsupported("max pooling with its indices used (max_unpool, return_indices=True)");
    lowerMaxPool(ctx);
}

// avg_pool{1,2,3}d(x, kernel, stride, padding, ceil_mode, count_include_pad
// [, divisor_override]). What tract divides by depends on its version: up to
// 0.23.5 its sum_pool never counts padding, whatever the border; after it,
// border 'constant' counts the whole window, ceil_mode's overhang included
// (the version table's "reading:box:constant-border-counts-padding"). So the
// pool is written with border 'ignore', which every version reads as "the
// cells inside the input": count_include_pad makes PyTorch count the explicit
// padding but not the overhang, so pad with real zeros first and pool with
// only the overhang left. divisor_override divides the plain sum (box without
// normalize, where the border changes nothing) by the given number.
void lowerAvgPool(Context& ctx) {
    size_t n = spatialAxes(ctx.node().kind);
    bool countPad = ctx.numInputs() > 5 ? ctx.boolArg(5) : true;
    const bool override = ctx.numInputs() > 6 && !ctx.isNone(6);
    PoolWindow w = makeWindow(ctx, n, ctx.intsArg(1), ctx.intsArg(2), ctx.intsArg(3), {});
    const int64_t rank = rankOf(ctx.in(0));
    Expr x = ctx.input(0);
    if (override) {
        const int64_t divisor = ctx.intArg(6);
        if (divisor == 0)
            ctx.unsupported("avg_pool with divisor_override 0");
        Expr sum =
            emitPool(ctx, "box", x, w, rank, "ignore", {{"normalize", Expr::b(false)}}, false);
        ctx.emitOut("div",
                    {sum, Context::scalarLiteral(static_cast<double>(divisor), ctx.out().dtype)});
        return;
    }
    bool explicitPad = false;
    for (auto [b, a] : w.padding)
        explicitPad = explicitPad || b > 0;
    if (countPad && explicitPad) {
        std::vector<std::pair<int64_t, int64_t>> zeros;
        for (auto& [b, a] : w.padding) {
            zeros.emplace_back(b, b);
            a -= b;
            b = 0;
        }
        x = ctx.emitTemp("pad", {x},
                         {{"padding", paddingPairs(zeros, w.pre)},
                          {"border", Expr::str("constant")},
                          {"value", Expr::f(0.0)}},
                         "padded");
    }
    emitPool(ctx, "avg_pool", x, w, rank, "ignore");
}

// One output cell of an adaptive pool covers [floor(i*in/out), ceil((i+1)*in/out)).
void lowerAdaptive(Context& ctx, const std::string& pool, const std::string& reduce) {
    size_t n = spatialAxes(ctx.node().kind);
    const ir::Value& xv = ctx.in(0);
    const int64_t rank = rankOf(xv), pre = rank - static_cast<int64_t>(n);
    if (pre < 1)
        ctx.unsupported("adaptive pooling of an input without channels");
    // A dynamic axis pooled to one cell (global pooling, as classifier heads
    // do) is a reduction over the whole axis: no window size to freeze.
    std::vector<int64_t> in, out, wholeDynamic;
    bool allOne = true, divisible = true;
    for (size_t i = 0; i < n; ++i) {
        const size_t axis = static_cast<size_t>(pre) + i;
        in.push_back(xv.shape[axis]);
        out.push_back(ctx.out().shape[axis]);
        if (!xv.symbols.empty() && !xv.symbols[axis].empty()) {
            if (out.back() != 1)
                ctx.unsupported("adaptive pooling over a dynamic axis to more than one cell",
                                "pool a dynamic axis to size 1, or keep it static");
            wholeDynamic.push_back(static_cast<int64_t>(axis));
            in.back() = 1;
        }
        allOne = allOne && out.back() == 1;
        divisible = divisible && out.back() > 0 && in.back() % out.back() == 0;
    }
    Expr x = ctx.input(0);
    if (allOne) {
        std::vector<int64_t> axes;
        for (int64_t a = pre; a < rank; ++a)
            axes.push_back(a);
        ctx.emitOut(reduce, {x}, {{"axes", Expr::ints(axes)}});
        return;
    }
    if (!wholeDynamic.empty())
        x = ctx.emitTemp(reduce, {x}, {{"axes", Expr::ints(wholeDynamic)}}, "whole");
    if (divisible) {
        PoolWindow w;
        w.pre = pre;
        for (size_t i = 0; i < n; ++i) {
            w.kernel.push_back(in[i] / out[i]);
            w.padding.emplace_back(0, 0);
        }
        w.stride = w.kernel;
        w.dilation.assign(n, 1);
        emitPool(ctx, pool, x, w, rank, "ignore");
        return;
    }
    // Uneven windows: per axis, reduce each window and concatenate.
    for (size_t i = 0; i < n; ++i) {
        int64_t axis = pre + static_cast<int64_t>(i);
        std::vector<Expr> cells;
        for (int64_t o = 0; o < out[i]; ++o) {
            int64_t b = o * in[i] / out[i];
            int64_t e = ((o + 1) * in[i] + out[i] - 1) / out[i];
            Expr s = ctx.emitTemp("slice", {x}, sliceArgs(axis, b, e), "window");
            cells.push_back(ctx.emitTemp(reduce, {s}, {{"axes", Expr::ints({axis})}}, "cell"));
        }
        Kwargs k{{"axis", Expr::i(axis)}};
        x = i + 1 == n ? ctx.emitOut("concat", {Expr::array(cells)}, k)
                       : ctx.emitTemp("concat", {Expr::array(cells)}, k, "axis");
    }
}

void lowerAdaptiveAvg(Context& ctx) {
    lowerAdaptive(ctx, "avg_pool", "mean_reduce");
}

void lowerAdaptiveMax(Context& ctx) {
    if (ctx.node().outputs.size() > 1 && ctx.isUsed(ctx.node().outputs[1]))
        ctx.unsupported("adaptive max pooling with indices");
    lowerAdaptive(ctx, "max_pool", "max_reduce");
}

} // namespace

void registerPoolOps(Registry& r) {
    r.beginFamily("pool");
    for (const char* k : {"aten::max_pool1d", "aten::max_pool2d", "aten::max_pool3d"})
        r.add(k, lowerMaxPool, "padding, dilation, ceil_mode");
    for (const char* k : {"aten::max_pool1d_with_indices", "aten::max_pool2d_with_indices",
                          "aten::max_pool3d_with_indices"})
        r.add(k, lowerMaxPoolWithIndices, "padding, dilation, ceil_mode; indices unused",
              "max_pool +squeeze");
    for (const char* k : {"aten::avg_pool1d", "aten::avg_pool2d", "aten::avg_pool3d"})
        r.add(k, lowerAvgPool,
              "count_include_pad, ceil_mode, divisor_override; border 'ignore' (the same on "
              "every tract version)");
    for (const char* k :
         {"aten::adaptive_avg_pool1d", "aten::adaptive_avg_pool2d", "aten::adaptive_avg_pool3d"})
        r.add(k, lowerAdaptiveAvg,
              "any output size over static axes; a dynamic axis pooled to 1 (mean_reduce)");
    for (const char* k :
         {"aten::adaptive_max_pool1d", "aten::adaptive_max_pool2d", "aten::adaptive_max_pool3d"})
        r.add(k, lowerAdaptiveMax,
              "static axes, or a dynamic axis pooled to 1 (max_reduce); indices unused");
}

} // namespace t2n::translate
