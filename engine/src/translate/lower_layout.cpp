// Layout operations: axis moves, flips and rolls, tiling, pixel shuffles,
// sliding frames (Tensor.unfold) and nearest / linear / bicubic resampling. Index
// patterns are computed at export time and applied with tract_core_gather;
// interpolation weights are constant tables.
#include "translate/lower_resample_symbolic.h"
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
std::vector<int64_t> reshapeKeepingLeadingSymbols(Context& ctx) {
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
    ctx.emitOut("reshape", {ctx.input(0)},
                {{"shape", Expr::ints(reshapeKeepingLeadingSymbols(ctx))}});
}

Expr gatherAxis(Context& ctx, Expr x, const std::vector<int64_t>& idx, int64_t axis,
                const std::string& suffix, bool last) {
    Expr table = indexTable(ctx, idx, {static_cast<int64_t>(idx.size())}, "index_" + suffix);
    return emitStep(ctx, last, "tract_core_gather", {x, table}, {{"axis", Expr::i(axis)}}, suffix);
}

// `e` reversed along each of `dims` (sorted), a gather per axis; the last
// one is the node's output. No axes: `e` is the output.
Expr flipAxes(Context& ctx, Expr e, const std::vector<int64_t>& dims, bool last) {
    const ir::Value& x = ctx.in(0);
    for (size_t k = 0; k < dims.size(); ++k) {
        // The reversed index table is written for the example's size.
        if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(dims[k])].empty())
            ctx.unsupported(fmt::format("{} along dynamic axis {}", ctx.node().kind, dims[k]));
        const int64_t n = x.shape[static_cast<size_t>(dims[k])];
        std::vector<int64_t> idx(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
            idx[static_cast<size_t>(i)] = n - 1 - i;
        e = gatherAxis(ctx, e, idx, dims[k], fmt::format("flip{}", dims[k]),
                       last && k + 1 == dims.size());
    }
    if (dims.empty() && last)
        ctx.bindOut(e);
    return e;
}

// flip(x, dims): a reversed gather per axis.
void lowerFlip(Context& ctx) {
    flipAxes(ctx, ctx.input(0), reduceAxes(ctx, ctx.intsArg(1), rankOf(ctx.in(0))), true);
}

// fliplr(x) = flip(x, [1]), flipud(x) = flip(x, [0]).
template <int64_t Axis> void lowerFlipFixed(Context& ctx) {
    if (rankOf(ctx.in(0)) <= Axis)
        ctx.unsupported(fmt::format("{} of a rank-{} tensor", ctx.node().kind, rankOf(ctx.in(0))));
    flipAxes(ctx, ctx.input(0), {Axis}, true);
}

// rot90(x, k, dims): PyTorch's own decomposition. k = 1: flip dims[1], then
// swap the two axes; k = 2: flip both; k = 3: flip dims[0], then swap.
void lowerRot90(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const int64_t k = ((ctx.intArg(1) % 4) + 4) % 4;
    std::vector<int64_t> dims = ctx.intsArg(2);
    if (dims.size() != 2)
        ctx.unsupported("rot90 over other than two axes");
    const int64_t a = ctx.axis(dims[0], r), b = ctx.axis(dims[1], r);
    if (a == b)
        ctx.unsupported("rot90 over the same axis twice");
    if (k == 0 || k == 2) {
        flipAxes(ctx, ctx.input(0), k == 0 ? std::vector<int64_t>{} : reduceAxes(ctx, {a, b}, r),
                 true);
        return;
    }
    Expr f = flipAxes(ctx, ctx.input(0), {k == 1 ? b : a}, false);
    std::vector<int64_t> perm(static_cast<size_t>(r));
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[static_cast<size_t>(a)], perm[static_cast<size_t>(b)]);
    ctx.emitOut("transpose", {f}, {{"axes", Expr::ints(perm)}});
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

// Rolls `e` by a constant `shift` along a dynamic axis (Swin's shifted
// windows over a padded H x W): the same two slices with bounds that follow
// the axis's size n, for |shift| <= n (tract's slice refuses a larger shift
// at run time instead of wrapping it).
Expr rollDynamicAxis(Context& ctx, Expr e, int64_t shift, int64_t axis, bool last) {
    if (shift == 0) {
        if (last)
            ctx.bindOut(e);
        return e;
    }
    const Expr n = ctx.dimExpr(ctx.node().inputs[0], axis);
    const Expr cut = shift > 0 ? Expr::binary("-", n, Expr::i(shift)) : Expr::i(-shift);
    auto part = [&](Expr begin, Expr end, const char* suffix) {
        return ctx.emitTemp("slice", {e},
                            {{"axes", Expr::ints({axis})},
                             {"begin", Expr::array({std::move(begin)})},
                             {"end", Expr::array({std::move(end)})}},
                            suffix);
    };
    Expr tail = part(cut, n, "tail");
    Expr head = part(Expr::i(0), cut, "head");
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
        const bool last = k + 1 == dims.size();
        if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(a)].empty())
            e = rollDynamicAxis(ctx, e, shifts[k], a, last);
        else
            e = rollAxis(ctx, e, shifts[k], a, x.shape[static_cast<size_t>(a)], last);
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

// pixel_shuffle / pixel_unshuffle on [N, C, H, W]: reshape, transpose,
// reshape. Each reshape touches only the axes it splits or merges (axis_start,
// axis_count), and pixel_shuffle merges the spatial sizes with -1, so N, H
// and W may follow a dynamic axis there; C must be fixed.
template <bool Shuffle> void lowerPixelShuffle(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    if (rankOf(x) != 4)
        ctx.unsupported("pixel (un)shuffle of a tensor that is not [N, C, H, W]");
    if (!x.symbols.empty() && !x.symbols[1].empty())
        ctx.unsupported("pixel (un)shuffle of a dynamic channel axis");
    const int64_t f = ctx.intArg(1);
    auto reshape = [&](Expr in, std::vector<int64_t> shape, int64_t start, int64_t count,
                       const std::string& suffix, bool last) {
        Kwargs k{{"shape", Expr::ints(std::move(shape))},
                 {"axis_start", Expr::i(start)},
                 {"axis_count", Expr::i(count)}};
        return last ? ctx.emitOut("reshape", {std::move(in)}, k)
                    : ctx.emitTemp("reshape", {std::move(in)}, k, suffix);
    };
    const int64_t c = x.shape[1];
    if (Shuffle) { // [N, C'ff, H, W] -> [N, C', f, f, H, W] -> [N, C', H, f, W, f]
        Expr s = reshape(ctx.input(0), {c / (f * f), f, f}, 1, 1, "split", false);
        Expr t =
            ctx.emitTemp("transpose", {s}, {{"axes", Expr::ints({0, 1, 4, 2, 5, 3})}}, "moved");
        Expr w = reshape(t, {-1}, 4, 2, "width", false);
        reshape(w, {-1}, 2, 2, "", true);
    } else { // [N, C, Hf, Wf] -> [N, C, H, f, W, f] -> [N, C, f, f, H, W]
        // A dynamic side cannot be split: tract checks a reshape's volume
        // symbolically, and S is not (S / f) * f for it (nor does it infer a
        // -1 there: TDim::maybe_div keeps the numerator).
        for (int64_t a : {2, 3})
            if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(a)].empty())
                ctx.unsupported("pixel_unshuffle of a dynamic side: tract cannot split a "
                                "symbolic size into (size / factor, factor)",
                                "keep the sides static, or make the dynamic axis the smaller "
                                "side of a pixel_shuffle instead");
        Expr w = reshape(ctx.input(0), {x.shape[3] / f, f}, 3, 1, "width", false);
        Expr s = reshape(w, {x.shape[2] / f, f}, 2, 1, "split", false);
        Expr t =
            ctx.emitTemp("transpose", {s}, {{"axes", Expr::ints({0, 1, 3, 5, 2, 4})}}, "moved");
        reshape(t, {c * f * f}, 1, 3, "", true);
    }
}

// channel_shuffle(x, groups) on [N, C, *]: axis 1 split into [groups, C /
// groups], the two swapped, and merged again (reshape over the axis range, so
// the other axes may be dynamic).
void lowerChannelShuffle(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x), g = ctx.intArg(1);
    if (r < 3)
        ctx.unsupported("channel_shuffle of a tensor that is not [N, C, *]");
    const int64_t c = x.shape[1];
    if (!x.symbols.empty() && !x.symbols[1].empty())
        ctx.unsupported("channel_shuffle of a dynamic channel axis");
    if (g <= 0 || c % g != 0)
        ctx.unsupported(fmt::format("channel_shuffle of {} channels into {} groups", c, g));
    Expr s = ctx.emitTemp(
        "reshape", {ctx.input(0)},
        {{"shape", Expr::ints({g, c / g})}, {"axis_start", Expr::i(1)}, {"axis_count", Expr::i(1)}},
        "groups");
    std::vector<int64_t> perm(static_cast<size_t>(r + 1));
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[1], perm[2]);
    Expr t = ctx.emitTemp("transpose", {s}, {{"axes", Expr::ints(perm)}}, "shuffled");
    ctx.emitOut(
        "reshape", {t},
        {{"shape", Expr::ints({c})}, {"axis_start", Expr::i(1)}, {"axis_count", Expr::i(2)}});
}

// Tensor.unfold(dim, size, step): frames gathered as [.., frames, size, ..],
// the size axis then moved last.
//
// Along a dynamic axis the frame starts are tract_core_range(0, n - size + 1,
// step), computed from the axis's symbol, plus the offsets 0..size-1: the
// table follows the length instead of holding the example's frame count.
void lowerUnfold(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const int64_t d = ctx.axis(ctx.intArg(1), r), size = ctx.intArg(2), step = ctx.intArg(3);
    if (size <= 0 || step <= 0)
        ctx.unsupported(fmt::format("unfold with size {} and step {}", size, step));
    Expr table;
    if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(d)].empty()) {
        Expr n = ctx.dimExpr(ctx.node().inputs[0], d);
        Expr end = Expr::binary("+", Expr::binary("-", n, Expr::i(size)), Expr::i(1));
        Expr starts =
            ctx.emitTemp("tract_core_range", {Expr::i(0), end, Expr::i(step)}, {}, "starts");
        // TDim items before tract 0.21.12 (lower_factories.cpp): made i64.
        starts =
            ctx.emitTemp("tract_core_cast", {starts}, {{"to", Expr::str("i64")}}, "starts_i64");
        starts = ctx.emitTemp("unsqueeze", {starts}, {{"axes", Expr::ints({1})}}, "starts_col");
        std::vector<int64_t> offsets(static_cast<size_t>(size));
        std::iota(offsets.begin(), offsets.end(), 0);
        table = ctx.emitTemp("add", {starts, indexTable(ctx, offsets, {1, size}, "offsets")}, {},
                             "frames");
    } else {
        const int64_t n = x.shape[static_cast<size_t>(d)];
        const int64_t frames = (n - size) / step + 1;
        std::vector<int64_t> idx;
        for (int64_t w = 0; w < frames; ++w)
            for (int64_t k = 0; k < size; ++k)
                idx.push_back(w * step + k);
        table = indexTable(ctx, idx, {frames, size}, "frames");
    }
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

// im2col(x, kernel_size, dilation, padding, stride) (F.unfold) of [N, C, H, W]
// or [C, H, W]: x zero-padded, its plane flattened, and the sliding windows
// gathered as a [kh kw, L] table of flat positions -> [N, C kh kw, L].
void lowerIm2col(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    if (r != 3 && r != 4)
        ctx.unsupported("im2col of a tensor that is not [N, C, H, W] or [C, H, W]");
    for (int64_t a = r - 3; a < r; ++a)
        if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(a)].empty())
            ctx.unsupported("im2col with a dynamic channel or spatial axis");
    const auto k = expandInts(ctx.intsArg(1), 2, 1), d = expandInts(ctx.intsArg(2), 2, 1),
               p = expandInts(ctx.intsArg(3), 2, 0), s = expandInts(ctx.intsArg(4), 2, 1);
    const int64_t c = x.shape[static_cast<size_t>(r - 3)];
    const int64_t hp = x.shape[static_cast<size_t>(r - 2)] + 2 * p[0],
                  wp = x.shape[static_cast<size_t>(r - 1)] + 2 * p[1];
    const int64_t oh = (hp - d[0] * (k[0] - 1) - 1) / s[0] + 1,
                  ow = (wp - d[1] * (k[1] - 1) - 1) / s[1] + 1;
    if (oh <= 0 || ow <= 0)
        ctx.unsupported("im2col with a kernel larger than the padded input");
    Expr e = ctx.input(0);
    if (p[0] > 0 || p[1] > 0) {
        std::vector<Expr> pads;
        for (int64_t a = 0; a < r - 2; ++a)
            pads.push_back(Expr::tuple({Expr::i(0), Expr::i(0)}));
        pads.push_back(Expr::tuple({Expr::i(p[0]), Expr::i(p[0])}));
        pads.push_back(Expr::tuple({Expr::i(p[1]), Expr::i(p[1])}));
        e = ctx.emitTemp("pad", {e},
                         {{"padding", Expr::array(std::move(pads))},
                          {"border", Expr::str("constant")},
                          {"value", Context::scalarLiteral(0.0, x.dtype)}},
                         "padded");
    }
    e = ctx.emitTemp("reshape", {e},
                     {{"shape", Expr::ints({hp * wp})},
                      {"axis_start", Expr::i(r - 2)},
                      {"axis_count", Expr::i(2)}},
                     "plane");
    std::vector<int64_t> idx;
    for (int64_t i = 0; i < k[0]; ++i)
        for (int64_t j = 0; j < k[1]; ++j)
            for (int64_t y = 0; y < oh; ++y)
                for (int64_t xo = 0; xo < ow; ++xo)
                    idx.push_back((y * s[0] + i * d[0]) * wp + xo * s[1] + j * d[1]);
    Expr table = indexTable(ctx, idx, {k[0] * k[1], oh * ow}, "windows");
    Expr g = ctx.emitTemp("tract_core_gather", {e, table}, {{"axis", Expr::i(r - 2)}}, "windows");
    ctx.emitOut("reshape", {g},
                {{"shape", Expr::ints({c * k[0] * k[1]})},
                 {"axis_start", Expr::i(r - 3)},
                 {"axis_count", Expr::i(2)}});
}

// Places [.., n, m] (the last two axes) every `stride` items apart, starting
// at `begin`, in an [.., size_h, size_w] plane of zeros (pads and reshapes
// only: x + 0 stays exact for every value).
Expr spreadInto(Context& ctx, Expr e, int64_t r, std::array<int64_t, 2> n,
                std::array<int64_t, 2> stride, std::array<int64_t, 2> begin,
                std::array<int64_t, 2> size, DType t, const std::string& tag) {
    Expr zero = Context::scalarLiteral(0.0, t);
    auto padAxis = [&](Expr x, int64_t rank, int64_t axis, int64_t before, int64_t after,
                       const std::string& step) {
        std::vector<Expr> pads;
        for (int64_t a = 0; a < rank; ++a)
            pads.push_back(a == axis ? Expr::tuple({Expr::i(before), Expr::i(after)})
                                     : Expr::tuple({Expr::i(0), Expr::i(0)}));
        return ctx.emitTemp("pad", {x},
                            {{"padding", Expr::array(std::move(pads))},
                             {"border", Expr::str("constant")},
                             {"value", zero}},
                            tag + step);
    };
    for (int64_t k = 0; k < 2; ++k) {
        const int64_t axis = r - 2 + k;
        const auto uk = static_cast<size_t>(k);
        if (stride[uk] > 1 && n[uk] > 1) {
            Expr u = ctx.emitTemp("unsqueeze", {e}, {{"axes", Expr::ints({axis + 1})}},
                                  tag + fmt::format("_gap{}", k));
            u = padAxis(u, r + 1, axis + 1, 0, stride[uk] - 1, fmt::format("_gaps{}", k));
            u = ctx.emitTemp("reshape", {u},
                             {{"shape", Expr::ints({n[uk] * stride[uk]})},
                              {"axis_start", Expr::i(axis)},
                              {"axis_count", Expr::i(2)}},
                             tag + fmt::format("_strided{}", k));
            e = ctx.emitTemp("slice", {u}, sliceArgs(axis, 0, (n[uk] - 1) * stride[uk] + 1),
                             tag + fmt::format("_span{}", k));
        }
        const int64_t span = (n[uk] - 1) * stride[uk] + 1;
        e = padAxis(e, r, axis, begin[uk], size[uk] - begin[uk] - span, fmt::format("_at{}", k));
    }
    return e;
}

// col2im(x, output_size, kernel_size, dilation, padding, stride) (F.fold) of
// [N, C kh kw, L] or [C kh kw, L]: each kernel offset's [oh, ow] block spread
// into the padded plane and the blocks added in PyTorch's order (offset by
// offset), then the padding cropped.
void lowerCol2im(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    if (r != 2 && r != 3)
        ctx.unsupported("col2im of a tensor that is not [N, C kh kw, L] or [C kh kw, L]");
    for (int64_t a = r - 2; a < r; ++a)
        if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(a)].empty())
            ctx.unsupported("col2im with a dynamic block axis");
    const auto out = expandInts(ctx.intsArg(1), 2, 1), k = expandInts(ctx.intsArg(2), 2, 1),
               d = expandInts(ctx.intsArg(3), 2, 1), p = expandInts(ctx.intsArg(4), 2, 0),
               s = expandInts(ctx.intsArg(5), 2, 1);
    const int64_t hp = out[0] + 2 * p[0], wp = out[1] + 2 * p[1];
    const int64_t oh = (hp - d[0] * (k[0] - 1) - 1) / s[0] + 1,
                  ow = (wp - d[1] * (k[1] - 1) - 1) / s[1] + 1;
    const int64_t kk = k[0] * k[1];
    const int64_t c = x.shape[static_cast<size_t>(r - 2)] / kk;
    if (oh <= 0 || ow <= 0 || oh * ow != x.shape[static_cast<size_t>(r - 1)] ||
        c * kk != x.shape[static_cast<size_t>(r - 2)])
        ctx.unsupported("col2im whose blocks do not match the output size");
    const DType t = ctx.out().dtype;
    const int64_t rr = r + 1; // [N, C, oh, ow] or [C, oh, ow]
    Expr blocks = ctx.emitTemp("reshape", {ctx.input(0)},
                               {{"shape", Expr::ints({c, kk, oh, ow})},
                                {"axis_start", Expr::i(r - 2)},
                                {"axis_count", Expr::i(2)}},
                               "blocks");
    Expr sum;
    for (int64_t i = 0; i < k[0]; ++i)
        for (int64_t j = 0; j < k[1]; ++j) {
            const int64_t o = i * k[1] + j;
            const std::string tag = fmt::format("offset{}", o);
            Expr b = ctx.emitTemp("slice", {blocks}, sliceArgs(rr - 2, o, o + 1), tag);
            b = ctx.emitTemp("squeeze", {b}, {{"axes", Expr::ints({rr - 2})}}, tag + "_block");
            b = spreadInto(ctx, b, rr, {oh, ow}, {s[0], s[1]}, {i * d[0], j * d[1]}, {hp, wp}, t,
                           tag);
            sum = o == 0 ? b : ctx.emitTemp("add", {sum, b}, {}, tag + "_sum");
        }
    if (p[0] == 0 && p[1] == 0) {
        ctx.emitOut("copy", {sum});
        return;
    }
    Expr rows = ctx.emitTemp("slice", {sum}, sliceArgs(rr - 2, p[0], p[0] + out[0]), "rows");
    ctx.emitOut("slice", {rows}, sliceArgs(rr - 1, p[1], p[1] + out[1]));
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

// --upsample-with-debox: when every spatial axis repeats each item `k` times
// (PyTorch's source index i -> floor(i * scale) is i / k), nearest upsampling
// is debox with a [1, 1, k...] window and stride, as torch_to_nnef writes it
// (and as the NNEF stdlib's nearest_upsample is written). tract 0.23.0 reads
// debox as a deconvolution by ones (nnef/src/ops/nnef/deser.rs). False when
// the option is off or the sizes are not whole multiples: the gathers below
// then compute it exactly.
bool nearestAsDebox(Context& ctx, const std::vector<std::vector<int64_t>>& sources) {
    const ir::Value& x = ctx.in(0);
    if (!ctx.options().upsampleWithDebox || !isFloat(x.dtype))
        return false;
    const size_t r = x.shape.size();
    std::vector<int64_t> window(2, 1);
    for (size_t a = 2; a < r; ++a) {
        const int64_t in = x.shape[a], out = ctx.out().shape[a];
        if (in <= 0 || out % in != 0)
            return false;
        const int64_t k = out / in;
        for (int64_t i = 0; i < out; ++i)
            if (sources[a][static_cast<size_t>(i)] != i / k)
                return false;
        window.push_back(k);
    }
    std::vector<Expr> padding(r, Expr::tuple({Expr::i(0), Expr::i(0)}));
    ctx.emitOut("debox", {ctx.input(0)},
                {{"size", Expr::ints(window)},
                 {"stride", Expr::ints(window)},
                 {"padding", Expr::array(padding)}});
    return true;
}

// upsample_nearest{1,2,3}d(x, output_size?, scale_factors?) and the per-axis
// scales overloads: a gather per resized axis, or one debox (above).
//
// A dynamic spatial axis resized by a whole factor k (output_size S * k, or
// a scale of k) is repeated item by item without a table: unsqueeze after
// the axis, tile k times, merge the two axes, so the length follows S.
bool nearestWholeFactorOnDynamicAxes(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    std::vector<int64_t> axes;
    for (int64_t a = 2; a < r; ++a)
        if (dynamicAxis(x, a))
            axes.push_back(a);
    if (axes.empty())
        return false;
    if (!ctx.isNone(1) && ctx.isSymbolic(1))
        (void)ctx.sizesArg(1); // the sizes follow the symbols (checked at both probe sizes)
    std::vector<int64_t> repeat;
    for (int64_t a = 2; a < r; ++a) {
        const int64_t in = x.shape[static_cast<size_t>(a)],
                      out = ctx.out().shape[static_cast<size_t>(a)];
        if (in <= 0 || out % in != 0)
            ctx.unsupported(fmt::format("nearest resampling of axis {} from {} to {} items along "
                                        "with a dynamic axis: t2n repeats items a whole number "
                                        "of times only",
                                        a, in, out));
        repeat.push_back(out / in);
    }
    Expr e = ctx.input(0);
    for (size_t k = 0; k < repeat.size(); ++k) {
        const int64_t a = static_cast<int64_t>(k) + 2;
        const int64_t times = repeat[k];
        const bool last = std::all_of(repeat.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                                      repeat.end(), [](int64_t t) { return t == 1; });
        if (times == 1)
            continue;
        const std::string tag = fmt::format("axis{}", a);
        Expr u = ctx.emitTemp("unsqueeze", {e}, {{"axes", Expr::ints({a + 1})}}, "item_" + tag);
        std::vector<int64_t> reps(static_cast<size_t>(r + 1), 1);
        reps[static_cast<size_t>(a + 1)] = times;
        Expr t = ctx.emitTemp("tile", {u}, {{"repeats", Expr::ints(reps)}}, "repeated_" + tag);
        e = emitStep(
            ctx, last, "reshape", {t},
            {{"shape", Expr::ints({-1})}, {"axis_start", Expr::i(a)}, {"axis_count", Expr::i(2)}},
            "merged_" + tag);
        if (last)
            return true;
    }
    ctx.bindOut(e); // every factor 1
    return true;
}

// upsample_nearest{1,2,3}d: the whole-factor path above for dynamic axes,
// else the gathers (or debox) of the static sizes.
void lowerUpsampleNearest(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const size_t spatial = static_cast<size_t>(r - 2);
    if (nearestWholeFactorOnDynamicAxes(ctx))
        return;
    auto factors = scaleFactors(ctx, 2, spatial);
    // PyTorch's source item of each output item, per spatial axis.
    std::vector<std::vector<int64_t>> sources(static_cast<size_t>(r));
    for (size_t a = 2; a < static_cast<size_t>(r); ++a) {
        const int64_t in = x.shape[a], out = ctx.out().shape[a];
        const float s = sourceScale(in, out, factors[a - 2], false);
        for (int64_t i = 0; i < out; ++i)
            sources[a].push_back(
                std::min(static_cast<int64_t>(std::floor(static_cast<float>(i) * s)), in - 1));
    }
    if (nearestAsDebox(ctx, sources))
        return;
    const std::vector<int64_t> axes = resampledAxes(x, ctx.out(), false);
    Expr e = ctx.input(0);
    for (size_t k = 0; k < axes.size(); ++k) {
        const int64_t a = axes[k];
        e = gatherAxis(ctx, e, sources[static_cast<size_t>(a)], a, fmt::format("nearest{}", a),
                       k + 1 == axes.size());
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
// scale_factors?): separable linear interpolation, one axis at a time, with
// constant index and weight tables; when a spatial size follows a dynamic
// axis the tables are computed in the graph instead
// (lower_resample_symbolic.cpp).
void lowerUpsampleLinear(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (resampleFollowingSymbols(ctx, scaleFactors(ctx, 3, static_cast<size_t>(r - 2)),
                                 ResampleKernel::Linear))
        return;
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
// clamped to the edges, as PyTorch reads them) and their weight tables;
// computed in the graph when a size follows a dynamic axis
// (lower_resample_symbolic.cpp).
void lowerUpsampleBicubic(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (resampleFollowingSymbols(ctx, scaleFactors(ctx, 3, static_cast<size_t>(r - 2)),
                                 ResampleKernel::Cubic))
        return;
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
    r.add("aten::flip", lowerFlip, "a reversed tract_core_gather per axis; static axes");
    r.add("aten::fliplr", lowerFlipFixed<1>, "a reversed tract_core_gather on axis 1; static",
          "tract_core_gather");
    r.add("aten::flipud", lowerFlipFixed<0>, "a reversed tract_core_gather on axis 0; static",
          "tract_core_gather");
    r.add("aten::rot90", lowerRot90, "reversed gathers and a transpose; static axes",
          "+tract_core_gather +transpose");
    r.add("aten::channel_shuffle", lowerChannelShuffle, "static channels: reshape, transpose",
          "reshape transpose");
    r.add("aten::native_channel_shuffle", lowerChannelShuffle,
          "static channels: reshape, transpose", "reshape transpose");
    r.add("aten::roll", lowerRoll,
          "slices and concat; constant shifts; on a dynamic axis the slice bounds follow its "
          "size (|shift| <= size)");
    r.add("aten::movedim", lowerMovedim, "one transpose");
    r.add("aten::tile", lowerTile);
    r.add("aten::pixel_shuffle", lowerPixelShuffle<true>, "[N, C, H, W]; N, H, W may be dynamic");
    r.add("aten::pixel_unshuffle", lowerPixelShuffle<false>,
          "[N, C, H, W]; N may be dynamic, H and W fixed");
    r.add("aten::unfold", lowerUnfold,
          "frames gathered with tract_core_gather; along a dynamic axis the frame table is "
          "computed from its size",
          "tract_core_gather +transpose +tract_core_range +tract_core_cast +unsqueeze +add");
    r.add("aten::unfold_copy", lowerUnfold, "as unfold",
          "tract_core_gather +transpose +tract_core_range +tract_core_cast +unsqueeze +add");
    r.add("aten::im2col", lowerIm2col, "static channels and plane: pad, tract_core_gather",
          "+pad reshape tract_core_gather");
    r.add("aten::col2im", lowerCol2im,
          "static blocks: each kernel offset spread with pads and added in PyTorch's order",
          "reshape slice squeeze pad +unsqueeze +add +copy");
    r.beginFamily("resample");
    for (const char* k :
         {"aten::upsample_nearest1d", "aten::upsample_nearest2d", "aten::upsample_nearest3d"})
        r.add(k, lowerUpsampleNearest,
              "a gather per resized axis, or debox for whole factors with "
              "--upsample-with-debox; a dynamic axis by a whole factor (unsqueeze, tile, "
              "reshape)");
    for (const char* k :
         {"aten::upsample_linear1d", "aten::upsample_bilinear2d", "aten::upsample_trilinear3d"})
        r.add(k, lowerUpsampleLinear,
              "f32, align_corners or not; separable gathers and weights, computed in the graph "
              "when a spatial size follows a dynamic axis");
    r.add("aten::upsample_bicubic2d", lowerUpsampleBicubic,
          "f32, align_corners or not; four gathers and weights per axis, computed in the "
          "graph when a spatial size follows a dynamic axis",
          "tract_core_gather mul add +tract_core_range +tract_core_cast +sub +max +min +floor "
          "+div +unsqueeze");
}

} // namespace t2n::translate
