// Distances and products of vectors along an axis: p-norms of differences
// (pairwise_distance, dist, cdist, pdist), cosine_similarity, and the cross
// product. Written with the standard reductions so that Khronos targets get
// them too.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>

namespace t2n::translate {

namespace {

// The p-norm of `d` over `axes` (kept, as NNEF reductions keep them): p = 2
// sqrt(sum(d^2)), p = 1 sum(|d|), p = inf max(|d|), other p > 0
// sum(|d|^p)^(1/p). p = 0 and negative p (counts, minima) are refused.
Expr pNorm(Context& ctx, Expr d, std::vector<int64_t> axes, double p, DType t) {
    Kwargs k{{"axes", Expr::ints(std::move(axes))}};
    if (std::isinf(p) && p > 0) {
        Expr a = ctx.emitTemp("abs", {d}, {}, "abs");
        return ctx.emitTemp("max_reduce", {a}, k, "norm");
    }
    if (!(p > 0) || std::isinf(p))
        ctx.unsupported(fmt::format("{} with p = {}", ctx.node().kind, p),
                        "use p = 1, 2, inf or another positive p");
    if (p == 2.0) {
        Expr s = ctx.emitTemp("sum_reduce", {ctx.emitTemp("sqr", {d}, {}, "sq")}, k, "sumsq");
        return ctx.emitTemp("sqrt", {s}, {}, "norm");
    }
    Expr a = ctx.emitTemp("abs", {d}, {}, "abs");
    if (p == 1.0)
        return ctx.emitTemp("sum_reduce", {a}, k, "norm");
    Expr powered = ctx.emitTemp("pow", {a, Context::scalarLiteral(p, t)}, {}, "pow");
    Expr s = ctx.emitTemp("sum_reduce", {powered}, k, "sum");
    return ctx.emitTemp("pow", {s, Context::scalarLiteral(1.0 / p, t)}, {}, "norm");
}

void requireFloat(Context& ctx) {
    const DType t = ctx.out().dtype;
    if (t != DType::F32 && t != DType::F64 && t != DType::F16)
        ctx.unsupported(fmt::format("{} of {} tensors", ctx.node().kind, dtypeName(t)));
}

// pairwise_distance(x1, x2, p, eps, keepdim) = ||x1 - x2 + eps||_p over the
// last axis of the broadcast operands.
void lowerPairwiseDistance(Context& ctx) {
    requireFloat(ctx);
    const DType t = ctx.out().dtype;
    const int64_t r = std::max(rankOf(ctx.in(0)), rankOf(ctx.in(1)));
    if (r == 0)
        ctx.unsupported("pairwise_distance of 0-d tensors");
    Expr a = ctx.operand(ctx.node().inputs[0], r, t);
    Expr b = ctx.operand(ctx.node().inputs[1], r, t);
    Expr d = ctx.emitTemp("sub", {a, b}, {}, "diff");
    d = ctx.emitTemp("add", {d, Context::scalarLiteral(ctx.floatArg(3), t)}, {}, "shifted");
    Expr n = pNorm(ctx, d, {r - 1}, ctx.floatArg(2), t);
    if (ctx.boolArg(4))
        ctx.emitOut("copy", {n});
    else
        ctx.emitOut("squeeze", {n}, {{"axes", Expr::ints({r - 1})}});
}

// dist(a, b, p) = ||a - b||_p over every axis, a 0-d result.
void lowerDist(Context& ctx) {
    requireFloat(ctx);
    const DType t = ctx.out().dtype;
    const int64_t r = std::max(rankOf(ctx.in(0)), rankOf(ctx.in(1)));
    if (r == 0)
        ctx.unsupported("dist of 0-d tensors");
    Expr a = ctx.operand(ctx.node().inputs[0], r, t);
    Expr b = ctx.operand(ctx.node().inputs[1], r, t);
    Expr d = ctx.emitTemp("sub", {a, b}, {}, "diff");
    std::vector<int64_t> axes(static_cast<size_t>(r));
    for (int64_t i = 0; i < r; ++i)
        axes[static_cast<size_t>(i)] = i;
    Expr n = pNorm(ctx, d, axes, ctx.numInputs() > 2 ? ctx.floatArg(2) : 2.0, t);
    ctx.emitOut("squeeze", {n}, {{"axes", Expr::ints(axes)}});
}

// cdist(x1 [.., P, M], x2 [.., R, M], p, compute_mode) = [.., P, R] norms of
// every row difference, computed directly (PyTorch may use a matmul form for
// p = 2 on large inputs; both agree to rounding).
void lowerCdist(Context& ctx) {
    requireFloat(ctx);
    const DType t = ctx.out().dtype;
    const int64_t r = rankOf(ctx.out()) + 1; // [.., P, R, M]
    if (rankOf(ctx.in(0)) < 2 || rankOf(ctx.in(1)) < 2)
        ctx.unsupported("cdist of tensors of rank < 2");
    Expr a = ctx.operand(ctx.node().inputs[0], r - 1, t);
    Expr b = ctx.operand(ctx.node().inputs[1], r - 1, t);
    Expr ua = ctx.emitTemp("unsqueeze", {a}, {{"axes", Expr::ints({r - 2})}}, "rows");
    Expr ub = ctx.emitTemp("unsqueeze", {b}, {{"axes", Expr::ints({r - 3})}}, "columns");
    Expr d = ctx.emitTemp("sub", {ua, ub}, {}, "diff");
    Expr n = pNorm(ctx, d, {r - 1}, ctx.floatArg(2), t);
    ctx.emitOut("squeeze", {n}, {{"axes", Expr::ints({r - 1})}});
}

// pdist(x [N, M], p): the distances of rows i < j, in that order, from two
// gathers of x's rows.
void lowerPdist(Context& ctx) {
    requireFloat(ctx);
    const ir::Value& x = ctx.in(0);
    if (rankOf(x) != 2 || (!x.symbols.empty() && !x.symbols[0].empty()))
        ctx.unsupported("pdist of other than a [N, M] matrix with static N");
    const int64_t n = x.shape[0];
    std::vector<int64_t> is, js;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = i + 1; j < n; ++j) {
            is.push_back(i);
            js.push_back(j);
        }
    if (is.empty())
        ctx.unsupported("pdist of fewer than two rows (an empty result)");
    const auto pairs = static_cast<int64_t>(is.size());
    Expr a =
        ctx.emitTemp("tract_core_gather", {ctx.input(0), indexTable(ctx, is, {pairs}, "first")},
                     {{"axis", Expr::i(0)}}, "first");
    Expr b =
        ctx.emitTemp("tract_core_gather", {ctx.input(0), indexTable(ctx, js, {pairs}, "second")},
                     {{"axis", Expr::i(0)}}, "second");
    Expr d = ctx.emitTemp("sub", {a, b}, {}, "diff");
    Expr norm = pNorm(ctx, d, {1}, ctx.numInputs() > 1 ? ctx.floatArg(1) : 2.0, ctx.out().dtype);
    ctx.emitOut("squeeze", {norm}, {{"axes", Expr::ints({1})}});
}

// cosine_similarity(x1, x2, dim, eps), as PyTorch 1.13 computes it: each
// operand divided by its 2-norm clamped to eps, then the products summed.
void lowerCosineSimilarity(Context& ctx) {
    requireFloat(ctx);
    const DType t = ctx.out().dtype;
    const int64_t r = std::max(rankOf(ctx.in(0)), rankOf(ctx.in(1)));
    if (r == 0)
        ctx.unsupported("cosine_similarity of 0-d tensors");
    const int64_t dim = ctx.axis(ctx.intArg(2), r);
    Expr eps = Context::scalarLiteral(ctx.floatArg(3), t);
    auto unit = [&](size_t i, const std::string& tag) {
        Expr x = ctx.operand(ctx.node().inputs[i], r, t);
        Expr s = ctx.emitTemp("sum_reduce", {ctx.emitTemp("sqr", {x}, {}, tag + "_sq")},
                              {{"axes", Expr::ints({dim})}}, tag + "_sumsq");
        Expr n = ctx.emitTemp("max", {ctx.emitTemp("sqrt", {s}, {}, tag + "_norm"), eps}, {},
                              tag + "_clamped");
        return ctx.emitTemp("div", {x, n}, {}, tag + "_unit");
    };
    Expr a = unit(0, "x1"), b = unit(1, "x2");
    Expr p = ctx.emitTemp("mul", {a, b}, {}, "product");
    Expr s = ctx.emitTemp("sum_reduce", {p}, {{"axes", Expr::ints({dim})}}, "sum");
    ctx.emitOut("squeeze", {s}, {{"axes", Expr::ints({dim})}});
}

// cross(a, b, dim) / linalg_cross(a, b, dim) over an axis of size 3:
// a[i+1] b[i+2] - a[i+2] b[i+1], the rotations as gathers.
void lowerCross(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t r = rankOf(ctx.out());
    int64_t dim = -1;
    const bool legacy = ctx.node().kind == "aten::cross";
    if (ctx.numInputs() > 2 && !ctx.isNone(2)) {
        dim = ctx.axis(ctx.intArg(2), r);
    } else if (legacy) { // the first axis of size 3 (deprecated PyTorch default)
        for (int64_t a = 0; a < r && dim < 0; ++a)
            if (ctx.out().shape[static_cast<size_t>(a)] == 3)
                dim = a;
    } else {
        dim = r - 1;
    }
    if (dim < 0 || ctx.out().shape[static_cast<size_t>(dim)] != 3)
        ctx.unsupported("cross product over an axis whose size is not 3");
    if (!ctx.out().symbols.empty() && !ctx.out().symbols[static_cast<size_t>(dim)].empty())
        ctx.unsupported("cross product over a dynamic axis (its size is 3 only in the example)");
    Expr a = ctx.operand(ctx.node().inputs[0], r, t);
    Expr b = ctx.operand(ctx.node().inputs[1], r, t);
    auto rotated = [&](Expr x, std::vector<int64_t> idx, const std::string& tag) {
        return ctx.emitTemp("tract_core_gather", {x, indexTable(ctx, idx, {3}, tag)},
                            {{"axis", Expr::i(dim)}}, tag);
    };
    Expr a1 = rotated(a, {1, 2, 0}, "a1"), a2 = rotated(a, {2, 0, 1}, "a2");
    Expr b1 = rotated(b, {1, 2, 0}, "b1"), b2 = rotated(b, {2, 0, 1}, "b2");
    Expr l = ctx.emitTemp("mul", {a1, b2}, {}, "left");
    Expr rt = ctx.emitTemp("mul", {a2, b1}, {}, "right");
    ctx.emitOut("sub", {l, rt});
}

} // namespace

void registerDistanceOps(Registry& r) {
    r.beginFamily("distance");
    const char* norms = "+sqr +sqrt +abs +sum_reduce +max_reduce +pow";
    r.add("aten::pairwise_distance", lowerPairwiseDistance, "p = 1, 2, inf or any positive p",
          std::string("sub add +copy +squeeze ") + norms);
    r.add("aten::dist", lowerDist, "p = 1, 2, inf or any positive p",
          std::string("sub squeeze ") + norms);
    r.add("aten::cdist", lowerCdist, "p = 1, 2, inf or any positive p; computed directly",
          std::string("unsqueeze sub squeeze ") + norms);
    r.add("aten::pdist", lowerPdist, "static rows; p = 1, 2, inf or any positive p",
          std::string("tract_core_gather sub squeeze ") + norms);
    r.add("aten::cosine_similarity", lowerCosineSimilarity, "each operand normalized first",
          "sqr sum_reduce sqrt max div mul squeeze");
    r.add("aten::cross", lowerCross, "an axis of size 3: gathers", "tract_core_gather mul sub");
    r.add("aten::linalg_cross", lowerCross, "an axis of size 3: gathers",
          "tract_core_gather mul sub");
}

} // namespace t2n::translate
