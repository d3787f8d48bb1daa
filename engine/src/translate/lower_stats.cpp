// Statistics and the remaining reductions: products, any/all, variance and
// standard deviation, norms, logsumexp, and cumulative sums and products
// (tract has no cumulative operation: a triangular matmul for sums, an
// unrolled chain of products for cumprod).
#include "translate/lower_util.h"
#include "translate/norms.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace t2n::translate {

namespace {

// The input's axes named by an optional int list argument (None: all).
std::vector<int64_t> axesArg(Context& ctx, size_t i) {
    const int64_t r = rankOf(ctx.in(0));
    if (ctx.numInputs() <= i || ctx.isNone(i))
        return reduceAxes(ctx, {}, r);
    return reduceAxes(ctx, ctx.intsArg(i), r);
}

int64_t countOver(const ir::Value& x, const std::vector<int64_t>& axes) {
    int64_t n = 1;
    for (int64_t a : axes)
        n *= x.shape[static_cast<size_t>(a)];
    return n;
}

// Squeezes `axes` unless keepdim, as output `out` (or the last operation).
void finishReduced(Context& ctx, Expr e, const std::vector<int64_t>& axes, bool keepdim,
                   size_t out = 0) {
    if (keepdim || rankOf(ctx.in(0)) == 0)
        ctx.bind(ctx.node().outputs.at(out), e);
    else
        ctx.emitOut("squeeze", {e}, {{"axes", Expr::ints(axes)}}, out);
}

// prod(x[, dtype]) / prod(x, dim, keepdim[, dtype])
void lowerProd(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (ctx.numInputs() >= 3 && ctx.in(1).kind == ir::ValueKind::Int)
        emitReduce(ctx, "tract_core_product_reduce", {ctx.axis(ctx.intArg(1), r)}, ctx.boolArg(2),
                   0, ctx.out().dtype);
    else
        emitReduce(ctx, "tract_core_product_reduce", reduceAxes(ctx, {}, r), false, 0,
                   ctx.out().dtype);
}

// any/all(x) and any/all(x, dim, keepdim), on booleans (others: x != 0).
template <bool Any> void lowerAnyAll(Context& ctx) {
    const char* op = Any ? "any_reduce" : "all_reduce";
    const int64_t r = rankOf(ctx.in(0));
    if (ctx.in(0).dtype != DType::Bool)
        ctx.unsupported(fmt::format("{} of a non-boolean tensor", ctx.node().kind),
                        "compare with 0 first (x != 0)");
    if (ctx.numInputs() >= 3)
        emitReduce(ctx, op, {ctx.axis(ctx.intArg(1), r)}, ctx.boolArg(2));
    else
        emitReduce(ctx, op, reduceAxes(ctx, {}, r), false);
}

struct Moments {
    Expr mean, var;
};

// mean and variance over `axes` with `correction` (keeping the axes).
Moments moments(Context& ctx, const std::vector<int64_t>& axes, double correction) {
    DType t = ctx.out().dtype;
    Expr x = ctx.operand(ctx.node().inputs[0], rankOf(ctx.in(0)), t);
    Kwargs k{{"axes", Expr::ints(axes)}};
    Expr mean = ctx.emitTemp("mean_reduce", {x}, k, "mean");
    Expr c = ctx.emitTemp("sub", {x, mean}, {}, "centered");
    Expr sq = ctx.emitTemp("mul", {c, c}, {}, "squared");
    const ir::Value& in = ctx.in(0);
    bool dynamic = false;
    for (int64_t a : axes)
        dynamic = dynamic || (!in.symbols.empty() && !in.symbols[static_cast<size_t>(a)].empty());
    if (!dynamic) {
        Expr s = ctx.emitTemp("sum_reduce", {sq}, k, "sum_squares");
        const double n = static_cast<double>(countOver(in, axes)) - correction;
        return {mean, ctx.emitTemp("div", {s, lit(std::max(n, 0.0), t)}, {}, "variance")};
    }
    // Over a dynamic axis the count is a size: the mean of the squares
    // (correction 0), else their sum over count - correction, the count
    // computed from the axes' sizes.
    if (correction == 0.0)
        return {mean, ctx.emitTemp("mean_reduce", {sq}, k, "variance")};
    Expr count = Expr::i(1);
    for (int64_t a : axes) {
        Expr d = ctx.dimExpr(ctx.node().inputs[0], a);
        if (d.kind == Expr::Kind::Identifier)
            ctx.unsupported("a corrected variance over an axis whose size t2n reads from the graph",
                            "use unbiased=False, or keep the axis static");
        count = count.kind == Expr::Kind::Integer && count.integer == 1
                    ? d
                    : Expr::binary("*", std::move(count), std::move(d));
    }
    Expr n = ctx.emitTemp("tract_core_cast", {count},
                          {{"to", Expr::str(std::string(dtypeName(t)))}}, "count");
    n = ctx.emitTemp("sub", {n, lit(correction, t)}, {}, "dof");
    Expr s = ctx.emitTemp("sum_reduce", {sq}, k, "sum_squares");
    return {mean, ctx.emitTemp("div", {s, n}, {}, "variance")};
}

// var/std(x, unbiased) | (x, dim?, unbiased, keepdim) | (x, dim?, correction?, keepdim)
// and the var_mean/std_mean pairs (same arguments, mean as second output).
template <bool Std> void lowerVarStd(Context& ctx) {
    std::vector<int64_t> axes = reduceAxes(ctx, {}, rankOf(ctx.in(0)));
    double correction = 1.0;
    bool keepdim = false;
    if (ctx.numInputs() == 2) {
        correction = ctx.boolArg(1) ? 1.0 : 0.0;
    } else if (ctx.numInputs() >= 4) {
        axes = axesArg(ctx, 1);
        const ir::Value& c = ctx.in(2);
        if (c.kind == ir::ValueKind::Bool)
            correction = ctx.boolArg(2) ? 1.0 : 0.0;
        else if (!ctx.isNone(2))
            correction = ctx.floatArg(2);
        keepdim = ctx.boolArg(3);
    }
    Moments m = moments(ctx, axes, correction);
    Expr v = Std ? ctx.emitTemp("sqrt", {m.var}, {}, "std") : m.var;
    finishReduced(ctx, v, axes, keepdim, 0);
    if (ctx.node().outputs.size() > 1)
        finishReduced(ctx, m.mean, axes, keepdim, 1);
}

// sum(|x|^p)^(1/p) over `axes` (norms.h), squeezed unless keepdim.
void emitNorm(Context& ctx, double p, const std::vector<int64_t>& axes, bool keepdim) {
    DType t = ctx.out().dtype;
    Expr x = ctx.operand(ctx.node().inputs[0], rankOf(ctx.in(0)), t);
    finishReduced(ctx, vectorNormOf(ctx, x, p, axes, t), axes, keepdim);
}

// norm(x, p=2) | (x, p?, dtype) | (x, p?, dim, keepdim[, dtype])
void lowerNorm(Context& ctx) {
    const double p = ctx.numInputs() > 1 && !ctx.isNone(1) ? ctx.floatArg(1) : 2.0;
    if (ctx.numInputs() >= 4)
        emitNorm(ctx, p, axesArg(ctx, 2), ctx.boolArg(3));
    else
        emitNorm(ctx, p, reduceAxes(ctx, {}, rankOf(ctx.in(0))), false);
}

// linalg_vector_norm(x, ord, dim?, keepdim, dtype?)
void lowerVectorNorm(Context& ctx) {
    emitNorm(ctx, ctx.floatArg(1), axesArg(ctx, 2), ctx.numInputs() > 3 && ctx.boolArg(3));
}

// frobenius_norm(x) | (x, dim, keepdim)
void lowerFrobeniusNorm(Context& ctx) {
    if (ctx.numInputs() >= 3)
        emitNorm(ctx, 2.0, axesArg(ctx, 1), ctx.boolArg(2));
    else
        emitNorm(ctx, 2.0, reduceAxes(ctx, {}, rankOf(ctx.in(0))), false);
}

// logsumexp(x, dims, keepdim) = log(sum(exp(x - m))) + m, m the maximum.
void lowerLogsumexp(Context& ctx) {
    DType t = ctx.out().dtype;
    std::vector<int64_t> axes = axesArg(ctx, 1);
    Expr x = ctx.operand(ctx.node().inputs[0], rankOf(ctx.in(0)), t);
    Kwargs k{{"axes", Expr::ints(axes)}};
    Expr m = ctx.emitTemp("max_reduce", {x}, k, "max");
    Expr e = ctx.emitTemp("exp", {ctx.emitTemp("sub", {x, m}, {}, "shifted")}, {}, "exp");
    Expr l = ctx.emitTemp("log", {ctx.emitTemp("sum_reduce", {e}, k, "sum")}, {}, "log");
    Expr r = ctx.emitTemp("add", {l, m}, {}, "lse");
    finishReduced(ctx, r, axes, ctx.numInputs() > 2 && ctx.boolArg(2));
}

// cumsum(x, dim): x @ U along the last axis, U[i, j] = (i <= j), with the
// axis moved last and back.
void lowerCumsum(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    const DType t = ctx.out().dtype;
    // Integer sums (positions from a padding mask) are computed in f32,
    // exact while every partial sum stays below 2^24, and cast back.
    const bool integer = t == DType::I64 || t == DType::I32 || t == DType::I16 || t == DType::I8;
    if (t != DType::F32 && !integer)
        ctx.unsupported("cumsum of a " + std::string(dtypeName(t)) + " tensor",
                        "cast to float first");
    if (r == 0) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    const int64_t axis = ctx.axis(ctx.intArg(1), r);
    const ir::ValueId xid = ctx.node().inputs[0];
    const bool dynamic = !x.symbols.empty() && !x.symbols[static_cast<size_t>(axis)].empty();
    Expr u;
    if (dynamic) {
        // The triangle follows the symbol: column j sums the rows i <= j.
        Expr n = ctx.dimExpr(xid, axis);
        u = bandMask(ctx, n, n, Expr::i(0), "ge");
        u = ctx.emitTemp("tract_core_cast", {u}, {{"to", Expr::str("f32")}}, "cumsum_triangle");
        if (r > 2) {
            std::vector<int64_t> lead(static_cast<size_t>(r - 2));
            std::iota(lead.begin(), lead.end(), 0);
            u = ctx.emitTemp("unsqueeze", {u}, {{"axes", Expr::ints(lead)}}, "triangle_ranked");
        }
    } else {
        const int64_t n = x.shape[static_cast<size_t>(axis)];
        std::vector<float> upper(static_cast<size_t>(n * n), 0.0f);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = i; j < n; ++j)
                upper[static_cast<size_t>(i * n + j)] = 1.0f;
        std::vector<int64_t> shape(static_cast<size_t>(std::max<int64_t>(r, 2) - 2), 1);
        shape.push_back(n);
        shape.push_back(n);
        u = floatTable(ctx, upper, shape, "cumsum_triangle");
    }
    Expr e = ctx.operand(xid, r, integer ? DType::F32 : t);
    std::vector<int64_t> perm;
    for (int64_t i = 0; i < r; ++i)
        if (i != axis)
            perm.push_back(i);
    perm.push_back(axis);
    const bool moved = axis != r - 1;
    if (moved)
        e = ctx.emitTemp("transpose", {e}, {{"axes", Expr::ints(perm)}}, "moved");
    if (r == 1)
        e = ctx.emitTemp("unsqueeze", {e}, {{"axes", Expr::ints({0})}}, "row");
    Kwargs k{{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}};
    Expr m = ctx.emitTemp("matmul", {e, u}, k, "cumsum");
    if (r == 1)
        m = ctx.emitTemp("squeeze", {m}, {{"axes", Expr::ints({0})}}, "sums");
    if (moved && r > 1) {
        std::vector<int64_t> inverse(static_cast<size_t>(r));
        for (int64_t i = 0; i < r; ++i)
            inverse[static_cast<size_t>(perm[static_cast<size_t>(i)])] = i;
        m = ctx.emitTemp("transpose", {m}, {{"axes", Expr::ints(inverse)}}, "back");
    }
    if (integer)
        ctx.emitOut("tract_core_cast", {m}, {{"to", Expr::str(std::string(dtypeName(t)))}});
    else
        ctx.bindOut(m);
}

// cumprod(x, dim): running products of the slices, concatenated.
void lowerCumprod(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    if (r == 0) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    const int64_t axis = ctx.axis(ctx.intArg(1), r);
    const int64_t n = x.shape[static_cast<size_t>(axis)];
    // The chain is unrolled at the example's length: a dynamic axis would
    // freeze it (tract has no cumulative product).
    if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(axis)].empty())
        ctx.unsupported("cumprod over a dynamic axis (t2n unrolls it at the example's length)",
                        "keep that axis static");
    if (n > 64)
        ctx.unsupported(fmt::format("cumprod over {} elements (unrolled up to 64)", n));
    Expr e = ctx.operand(ctx.node().inputs[0], r, ctx.out().dtype);
    std::vector<Expr> parts;
    for (int64_t i = 0; i < n; ++i) {
        Expr s = ctx.emitTemp("slice", {e}, sliceArgs(axis, i, i + 1), fmt::format("at{}", i));
        parts.push_back(
            i == 0 ? s : ctx.emitTemp("mul", {parts.back(), s}, {}, fmt::format("prod{}", i)));
    }
    ctx.emitOut("concat", {Expr::array(parts)}, {{"axis", Expr::i(axis)}});
}

} // namespace

void registerStatsOps(Registry& r) {
    r.beginFamily("reduce");
    r.add("aten::prod", lowerProd, "tract_core_product_reduce");
    r.add("aten::any", lowerAnyAll<true>, "boolean input");
    r.add("aten::all", lowerAnyAll<false>, "boolean input");
    const char* moments = "unbiased or correction; over a dynamic axis the count is computed "
                          "from its size (tract_core_cast of the size expression)";
    r.add("aten::var", lowerVarStd<false>, moments);
    r.add("aten::std", lowerVarStd<true>, moments);
    r.add("aten::var_mean", lowerVarStd<false>, moments);
    r.add("aten::std_mean", lowerVarStd<true>, moments);
    r.add("aten::norm", lowerNorm, "p = 1, 2, inf or any positive p");
    r.add("aten::linalg_vector_norm", lowerVectorNorm, "ord = 1, 2, inf or any positive ord");
    r.add("aten::frobenius_norm", lowerFrobeniusNorm);
    r.add("aten::logsumexp", lowerLogsumexp, "max-shifted");
    r.add("aten::cumsum", lowerCumsum,
          "f32, and integers through f32 (exact below 2^24); a triangular matmul, the triangle "
          "written from tract_core_range and ge over a dynamic axis");
    r.add("aten::cumprod", lowerCumprod, "unrolled over a static axis of up to 64");
}

} // namespace t2n::translate
