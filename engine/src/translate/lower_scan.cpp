// Running and differencing operations along one static axis: cummax, cummin
// and logcumsumexp as reductions over a triangular [n, n] window (item j
// counts for position i when j <= i), diff and trapezoid integration as
// slices of the axis.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <optional>

namespace t2n::translate {

namespace {

int64_t staticAxisSize(Context& ctx, int64_t axis) {
    const ir::Value& x = ctx.in(0);
    if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(axis)].empty())
        ctx.unsupported(fmt::format("{} along a dynamic axis", ctx.node().kind));
    return x.shape[static_cast<size_t>(axis)];
}

// The axis (argument 1) a running operation scans; -1 for a 0-d input, which
// is then its own result.
int64_t scanAxis(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (r == 0) {
        ctx.bindOut(ctx.input(0));
        return -1;
    }
    return ctx.axis(ctx.intArg(1), r);
}

// x with `axis` moved last and a window axis inserted before it ([.., 1, n]),
// against a [n, n] boolean table that is true where j <= i: the prefix of
// position i along the last axis, the rest replaced by `fill`. Returns the
// [.., n, n] masked tensor and the permutation that moved the axis.
struct PrefixWindow {
    Expr masked;
    std::vector<int64_t> perm; // empty: the axis was already last
};

PrefixWindow prefixWindow(Context& ctx, Expr x, int64_t axis, int64_t r, int64_t n, Expr fill) {
    PrefixWindow w;
    if (axis != r - 1) {
        w.perm.resize(static_cast<size_t>(r));
        std::iota(w.perm.begin(), w.perm.end(), 0);
        w.perm.erase(w.perm.begin() + axis);
        w.perm.push_back(axis);
        x = ctx.emitTemp("transpose", {x}, {{"axes", Expr::ints(w.perm)}}, "moved");
    }
    Expr row = ctx.emitTemp("unsqueeze", {x}, {{"axes", Expr::ints({r - 1})}}, "row");
    std::vector<int64_t> lower(static_cast<size_t>(n * n));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            lower[static_cast<size_t>(i * n + j)] = j <= i ? 1 : 0;
    // NNEF pads a lower-rank operand with trailing axes: give the table x's rank.
    std::vector<int64_t> shape(static_cast<size_t>(r - 1), 1);
    shape.push_back(n);
    shape.push_back(n);
    Expr positions = indexTable(ctx, lower, shape, "prefix");
    Expr mask =
        ctx.emitTemp("gt", {positions, Context::scalarLiteral(0.0, DType::I64)}, {}, "in_prefix");
    w.masked = ctx.emitTemp("select", {mask, row, fill}, {}, "prefix");
    return w;
}

// The [.., n, 1] result of a reduction over the window, back in x's layout.
void finishWindow(Context& ctx, Expr reduced, const PrefixWindow& w, int64_t r, size_t out) {
    if (w.perm.empty()) {
        ctx.emitOut("squeeze", {reduced}, {{"axes", Expr::ints({r})}}, out);
        return;
    }
    Expr s = ctx.emitTemp("squeeze", {reduced}, {{"axes", Expr::ints({r})}}, "scanned");
    std::vector<int64_t> inverse(w.perm.size());
    for (size_t i = 0; i < w.perm.size(); ++i)
        inverse[static_cast<size_t>(w.perm[i])] = static_cast<int64_t>(i);
    ctx.emitOut("transpose", {s}, {{"axes", Expr::ints(inverse)}}, out);
}

// The identity of max (or min) for dtype t: -inf (+inf) for floats, the
// type's extreme for integers.
Expr extreme(DType t, bool lowest) {
    if (t == DType::F32 || t == DType::F64 || t == DType::F16)
        return Context::scalarLiteral(lowest ? -std::numeric_limits<double>::infinity()
                                             : std::numeric_limits<double>::infinity(),
                                      t);
    if (t == DType::I64 || t == DType::I32 || t == DType::I16 || t == DType::I8 || t == DType::U8) {
        const double lo = t == DType::I64   ? -9.2233720368547758e18
                          : t == DType::I32 ? -2147483648.0
                          : t == DType::I16 ? -32768.0
                          : t == DType::I8  ? -128.0
                                            : 0.0;
        const double hi = t == DType::I64   ? 9.2233720368547748e18
                          : t == DType::I32 ? 2147483647.0
                          : t == DType::I16 ? 32767.0
                          : t == DType::I8  ? 127.0
                                            : 255.0;
        return Context::scalarLiteral(lowest ? lo : hi, t);
    }
    return Context::scalarLiteral(lowest ? 0.0 : 1.0, t);
}

// cummax / cummin(x, dim) -> (values, indices): the values as max (min) over
// the prefix window; the indices (PyTorch's: the last position of the
// extreme) are refused.
template <bool Max> void lowerCumExtreme(Context& ctx) {
    if (ctx.node().outputs.size() > 1 && ctx.isUsed(ctx.node().outputs[1]))
        ctx.unsupported(ctx.node().kind + " with its indices used",
                        "use only the values (cummax(x, d).values)");
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x), axis = scanAxis(ctx);
    if (axis < 0)
        return;
    const int64_t n = staticAxisSize(ctx, axis);
    PrefixWindow w = prefixWindow(ctx, ctx.input(0), axis, r, n, extreme(x.dtype, Max));
    Expr reduced = ctx.emitTemp(Max ? "max_reduce" : "min_reduce", {w.masked},
                                {{"axes", Expr::ints({r})}}, "extreme");
    finishWindow(ctx, reduced, w, r, 0);
}

// logcumsumexp(x, dim): per position i, m_i + log(sum_{j <= i} exp(x_j - m_i))
// with m_i the prefix maximum (0 where that is -inf, so that an all -inf
// prefix gives -inf as PyTorch does).
void lowerLogcumsumexp(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const DType t = ctx.out().dtype;
    if (t != DType::F32 && t != DType::F64)
        ctx.unsupported(fmt::format("logcumsumexp of {} tensors", dtypeName(t)));
    const int64_t r = rankOf(x), axis = scanAxis(ctx);
    if (axis < 0)
        return;
    const int64_t n = staticAxisSize(ctx, axis);
    Expr minusInf = Context::scalarLiteral(-std::numeric_limits<double>::infinity(), t);
    PrefixWindow w =
        prefixWindow(ctx, ctx.operand(ctx.node().inputs[0], r, t), axis, r, n, minusInf);
    Kwargs last{{"axes", Expr::ints({r})}};
    Expr m = ctx.emitTemp("max_reduce", {w.masked}, last, "max");
    Expr infinite = ctx.emitTemp("eq", {m, minusInf}, {}, "all_minus_inf");
    Expr shift = ctx.emitTemp("select", {infinite, Context::scalarLiteral(0.0, t), m}, {}, "shift");
    Expr e =
        ctx.emitTemp("exp", {ctx.emitTemp("sub", {w.masked, shift}, {}, "shifted")}, {}, "exp");
    Expr s = ctx.emitTemp("sum_reduce", {e}, last, "sum");
    Expr l = ctx.emitTemp("add", {ctx.emitTemp("log", {s}, {}, "log"), shift}, {}, "value");
    finishWindow(ctx, l, w, r, 0);
}

// x[1:] - x[:-1] along `axis` (for booleans x[1:] != x[:-1], as PyTorch).
Expr difference(Context& ctx, Expr e, int64_t axis, int64_t n, DType t, bool last) {
    Expr hi = ctx.emitTemp("slice", {e}, sliceArgs(axis, 1, n), "next");
    Expr lo = ctx.emitTemp("slice", {e}, sliceArgs(axis, 0, n - 1), "previous");
    if (t == DType::Bool)
        return compareBooleans(ctx, "ne", hi, lo, last, "difference");
    return emitStep(ctx, last, "sub", {hi, lo}, {}, "difference");
}

// diff(x, n, dim, prepend, append): `prepend` and `append` concatenated
// first, then n differences.
void lowerDiff(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const DType t = ctx.out().dtype;
    if (r == 0)
        ctx.unsupported("diff of a 0-d tensor");
    const int64_t times = ctx.intArg(1);
    const int64_t axis = ctx.axis(ctx.intArg(2), r);
    int64_t n = staticAxisSize(ctx, axis);
    std::vector<Expr> parts;
    for (size_t i : {size_t{3}, size_t{0}, size_t{4}}) {
        if (i != 0 && (ctx.numInputs() <= i || ctx.isNone(i)))
            continue;
        const ir::Value& v = ctx.in(i);
        if (rankOf(v) != r)
            ctx.unsupported("diff with a prepend or append of another rank");
        if (i != 0 && !v.symbols.empty() && !v.symbols[static_cast<size_t>(axis)].empty())
            ctx.unsupported("diff with a prepend or append dynamic along the axis");
        if (i != 0)
            n += v.shape[static_cast<size_t>(axis)];
        parts.push_back(ctx.operand(ctx.node().inputs[i], r, t));
    }
    Expr e = parts.size() == 1 ? parts[0]
                               : ctx.emitTemp("concat", {Expr::array(parts)},
                                              {{"axis", Expr::i(axis)}}, "extended");
    if (times < 0 || times >= n)
        ctx.unsupported(fmt::format("diff {} times along an axis of {}", times, n));
    if (times == 0) {
        ctx.emitOut("copy", {e});
        return;
    }
    for (int64_t k = 0; k < times; ++k, --n)
        e = difference(ctx, e, axis, n, t, k + 1 == times);
}

// The samples of trapezoid rules: y (argument 0) as `t`, its axis and size,
// and the spacing, x[1:] - x[:-1] for sample points x (of y's rank, or 1-D
// along the axis), or none for a constant dx.
struct Samples {
    Expr y;
    int64_t axis = 0, n = 0, rank = 0;
    std::optional<Expr> dx;
};

Samples trapezoidSamples(Context& ctx, DType t) {
    const ir::Value& y = ctx.in(0);
    if (t != DType::F32 && t != DType::F64)
        ctx.unsupported(fmt::format("{} of {} values", ctx.node().kind, dtypeName(t)));
    Samples s;
    s.rank = rankOf(y);
    if (s.rank == 0)
        ctx.unsupported(ctx.node().kind + " of a 0-d tensor");
    s.axis = ctx.axis(ctx.intArg(2), s.rank);
    s.n = staticAxisSize(ctx, s.axis);
    if (s.n < 2)
        ctx.unsupported(ctx.node().kind + " over an axis of fewer than two samples");
    s.y = ctx.operand(ctx.node().inputs[0], s.rank, t);
    const ir::Value& x = ctx.in(1);
    if (x.kind != ir::ValueKind::Tensor)
        return s;
    Expr sx;
    if (rankOf(x) == 1 && s.rank > 1) {
        std::vector<int64_t> shape(static_cast<size_t>(s.rank), 1);
        shape[static_cast<size_t>(s.axis)] = s.n;
        sx = ctx.emitTemp("reshape", {ctx.operand(ctx.node().inputs[1], 1, t)},
                          {{"shape", Expr::ints(shape)}}, "spacing");
    } else if (rankOf(x) == s.rank) {
        sx = ctx.operand(ctx.node().inputs[1], s.rank, t);
    } else {
        ctx.unsupported(ctx.node().kind + " with sample points of another rank");
    }
    s.dx = difference(ctx, sx, s.axis, s.n, t, false);
    return s;
}

// trapz / trapezoid(y, x, dim) and (y, dx, dim), with PyTorch's formulas:
// sum((y[1:] + y[:-1]) dx) / 2 for sample points, (sum(y) - (y[0] + y[-1]) / 2)
// dx for a constant spacing.
void lowerTrapezoid(Context& ctx) {
    const DType t = ctx.out().dtype;
    Samples s = trapezoidSamples(ctx, t);
    Kwargs axes{{"axes", Expr::ints({s.axis})}};
    Kwargs squeeze{{"axes", Expr::ints({s.axis})}};
    Expr half = Context::scalarLiteral(0.5, t);
    if (s.dx) {
        Expr hi = ctx.emitTemp("slice", {s.y}, sliceArgs(s.axis, 1, s.n), "next");
        Expr lo = ctx.emitTemp("slice", {s.y}, sliceArgs(s.axis, 0, s.n - 1), "previous");
        Expr area =
            ctx.emitTemp("mul", {ctx.emitTemp("add", {hi, lo}, {}, "pair_sum"), *s.dx}, {}, "area");
        Expr sum = ctx.emitTemp("sum_reduce", {area}, axes, "sum");
        Expr halved = ctx.emitTemp("mul", {sum, half}, {}, "halved");
        ctx.emitOut("squeeze", {halved}, squeeze);
        return;
    }
    Expr sum = ctx.emitTemp("sum_reduce", {s.y}, axes, "sum");
    Expr first = ctx.emitTemp("slice", {s.y}, sliceArgs(s.axis, 0, 1), "first");
    Expr last = ctx.emitTemp("slice", {s.y}, sliceArgs(s.axis, s.n - 1, s.n), "last");
    Expr ends = ctx.emitTemp("mul", {ctx.emitTemp("add", {first, last}, {}, "ends"), half}, {},
                             "half_ends");
    Expr inner = ctx.emitTemp("sub", {sum, ends}, {}, "inner");
    Expr scaled =
        ctx.emitTemp("mul", {inner, Context::scalarLiteral(ctx.floatArg(1), t)}, {}, "scaled");
    ctx.emitOut("squeeze", {scaled}, squeeze);
}

// cumulative_trapezoid(y, x, dim) / (y, dx, dim): PyTorch's
// cumsum(dx (y[:-1] + y[1:]) / 2) (or cumsum(dx / 2 (y[:-1] + y[1:]))), the
// running sum over a triangular window.
void lowerCumulativeTrapezoid(Context& ctx) {
    const DType t = ctx.out().dtype;
    Samples s = trapezoidSamples(ctx, t);
    Expr lo = ctx.emitTemp("slice", {s.y}, sliceArgs(s.axis, 0, s.n - 1), "left");
    Expr hi = ctx.emitTemp("slice", {s.y}, sliceArgs(s.axis, 1, s.n), "right");
    Expr pair = ctx.emitTemp("add", {lo, hi}, {}, "pair_sum");
    Expr area;
    if (s.dx) {
        area = ctx.emitTemp("mul", {*s.dx, pair}, {}, "scaled");
        area = ctx.emitTemp("mul", {area, Context::scalarLiteral(0.5, t)}, {}, "area");
    } else {
        area = ctx.emitTemp("mul", {Context::scalarLiteral(ctx.floatArg(1) / 2.0, t), pair}, {},
                            "area");
    }
    PrefixWindow w =
        prefixWindow(ctx, area, s.axis, s.rank, s.n - 1, Context::scalarLiteral(0.0, t));
    Expr sum = ctx.emitTemp("sum_reduce", {w.masked}, {{"axes", Expr::ints({s.rank})}}, "running");
    finishWindow(ctx, sum, w, s.rank, 0);
}

} // namespace

void registerScanOps(Registry& r) {
    r.beginFamily("reduce");
    const char* window = "+transpose unsqueeze gt select squeeze";
    r.add("aten::cummax", lowerCumExtreme<true>,
          "values only, static axis: max over a triangular window",
          std::string("max_reduce ") + window);
    r.add("aten::cummin", lowerCumExtreme<false>,
          "values only, static axis: min over a triangular window",
          std::string("min_reduce ") + window);
    r.add("aten::logcumsumexp", lowerLogcumsumexp,
          "f32/f64, static axis: max-shifted over a triangular window",
          std::string("max_reduce eq sub exp sum_reduce log add ") + window);
    r.add("aten::diff", lowerDiff, "static axis; prepend and append of the input's rank",
          "+concat +copy +slice +sub ?tract_core_xor +not +and +or");
    const char* trapezoid = "slice add mul sum_reduce squeeze +sub +reshape";
    r.add("aten::cumulative_trapezoid", lowerCumulativeTrapezoid,
          "f32/f64, static axis; dx or sample points: a running sum over a triangular window",
          std::string("slice add mul sum_reduce +sub +reshape ") + window);
    r.add("aten::trapz", lowerTrapezoid, "f32/f64, static axis; dx or sample points", trapezoid);
    r.add("aten::trapezoid", lowerTrapezoid, "f32/f64, static axis; dx or sample points",
          trapezoid);
}

} // namespace t2n::translate
