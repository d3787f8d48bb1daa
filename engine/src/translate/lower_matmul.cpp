// Matrix products. NNEF's matmul multiplies the last two axes and
// broadcasts the leading ones; operands are padded to a common rank, and
// PyTorch's 1-D operands get the unit axis they imply, removed afterwards.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <optional>

namespace t2n::translate {

namespace {

// A weight or operand padded with leading unit axes; constants are reshaped
// at export time instead of being unsqueezed in the graph.
Expr padded(Context& ctx, ir::ValueId id, int64_t rank) {
    return ctx.operand(id, rank, ctx.out().dtype);
}

// --f32-linear-accumulation (torch_to_nnef's force_linear_accumulation_in_f32):
// an f16 product as tract_core_einsum accumulating in f32, which returns f32
// (tract 0.21.11 or newer reads f16 operands with an f32 accumulator), cast
// back to f16.
bool accumulatesInF32(const Context& ctx) {
    return ctx.options().f32LinearAccumulation && ctx.out().dtype == DType::F16;
}

Expr einsumF32(Context& ctx, Expr a, Expr b, const std::string& expr) {
    Expr p = ctx.emitTemp("tract_core_einsum", {Expr::array({a, b})},
                          {{"expr", Expr::str(expr)}, {"acc", Expr::str("f32")}}, "product_f32");
    return ctx.cast(p, DType::F32, ctx.out().dtype, "product");
}

// Labels of `n` leading (batch) axes, none of them m, k or n.
std::string batchLabels(int64_t n) {
    return std::string("abcdefghij").substr(0, static_cast<size_t>(n));
}

void lowerMatmul(Context& ctx) {
    const ir::Value& a = ctx.in(0);
    const ir::Value& b = ctx.in(1);
    const int64_t ra = rankOf(a), rb = rankOf(b);
    if (ra == 0 || rb == 0)
        ctx.unsupported("matmul of a 0-d tensor");
    DType t = ctx.out().dtype;
    Expr ea = ctx.operand(ctx.node().inputs[0], ra, t);
    Expr eb = ctx.operand(ctx.node().inputs[1], rb, t);
    // Same batch axes on both sides: one einsum (broadcast batches keep matmul).
    if (accumulatesInF32(ctx) && ra == rb && ra >= 2 &&
        std::equal(a.shape.begin(), a.shape.end() - 2, b.shape.begin())) {
        const std::string batch = batchLabels(ra - 2);
        ctx.bindOut(einsumF32(ctx, ea, eb, batch + "mk," + batch + "kn->" + batch + "mn"));
        return;
    }
    int64_t rank = std::max<int64_t>({ra, rb, 2});
    std::vector<int64_t> squeeze;
    if (ra == 1) {
        ea = ctx.emitTemp("unsqueeze", {ea}, {{"axes", Expr::ints({0})}}, "row");
        squeeze.push_back(rank - 2);
    }
    if (rb == 1) {
        eb = ctx.emitTemp("unsqueeze", {eb}, {{"axes", Expr::ints({1})}}, "column");
        squeeze.push_back(rank - 1);
    }
    auto lead = [&](Expr e, int64_t r) {
        r = std::max<int64_t>(r, 2);
        if (r == rank)
            return e;
        std::vector<int64_t> axes;
        for (int64_t i = 0; i < rank - r; ++i)
            axes.push_back(i);
        return ctx.emitTemp("unsqueeze", {e}, {{"axes", Expr::ints(axes)}}, "batched");
    };
    ea = lead(ea, ra);
    eb = lead(eb, rb);
    Kwargs k{{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}};
    if (squeeze.empty()) {
        ctx.emitOut("matmul", {ea, eb}, k);
        return;
    }
    Expr m = ctx.emitTemp("matmul", {ea, eb}, k, "matmul");
    std::sort(squeeze.begin(), squeeze.end());
    ctx.emitOut("squeeze", {m}, {{"axes", Expr::ints(squeeze)}});
}

// linear(x, W, b) = x W^T + b. NNEF's linear fragment only handles rank 2;
// higher ranks use matmul with transposeB and a bias padded to the rank.
void lowerLinear(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (r < 1)
        ctx.unsupported("linear of a 0-d input");
    const int64_t rr = std::max<int64_t>(r, 2);
    DType t = ctx.out().dtype;
    Expr x = ctx.operand(ctx.node().inputs[0], r, t);
    if (accumulatesInF32(ctx)) {
        const std::string batch = batchLabels(r - 1);
        Expr y = einsumF32(ctx, x, ctx.operand(ctx.node().inputs[1], 2, t),
                           batch + "k,nk->" + batch + "n");
        if (ctx.isNone(2))
            ctx.bindOut(y);
        else
            ctx.emitOut("add", {y, ctx.operand(ctx.node().inputs[2], r, t)});
        return;
    }
    if (r == 1)
        x = ctx.emitTemp("unsqueeze", {x}, {{"axes", Expr::ints({0})}}, "row");
    Expr w = padded(ctx, ctx.node().inputs[1], rr);
    Expr bias = Expr::f(0.0);
    if (!ctx.isNone(2)) {
        const ir::Value& b = ctx.in(2);
        std::vector<int64_t> shape(static_cast<size_t>(rr - 1), 1);
        shape.push_back(ctx.in(1).shape.at(0));
        if (b.constant && std::holds_alternative<TensorData>(*b.constant))
            bias = ctx.constantTensor(std::get<TensorData>(*b.constant).reshaped(shape),
                                      b.paramName, b.name.empty() ? b.debugName : b.name);
        else
            bias = ctx.operand(ctx.node().inputs[2], rr, t);
    }
    const bool last = r > 1;
    Expr y;
    if (rr == 2) {
        y = emitStep(ctx, last, "linear", {x, w, bias}, {}, "linear");
    } else {
        Kwargs k{{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(true)}};
        bool noBias = ctx.isNone(2);
        y = emitStep(ctx, last && noBias, "matmul", {x, w}, k, "matmul");
        if (!noBias)
            y = emitStep(ctx, last, "add", {y, bias}, {}, "biased");
    }
    if (!last)
        ctx.emitOut("squeeze", {y}, {{"axes", Expr::ints({0})}});
}

// addmm(bias, m1, m2, beta, alpha) = beta * bias + alpha * (m1 @ m2)
void lowerAddmm(Context& ctx) {
    DType t = ctx.out().dtype;
    double beta = ctx.numInputs() > 3 ? ctx.floatArg(3) : 1.0;
    double alpha = ctx.numInputs() > 4 ? ctx.floatArg(4) : 1.0;
    Expr m1 = ctx.operand(ctx.node().inputs[1], 2, t);
    Expr m2 = ctx.operand(ctx.node().inputs[2], 2, t);
    Expr bias = ctx.operand(ctx.node().inputs[0], 2, t);
    Expr p =
        ctx.emitTemp("matmul", {m1, m2},
                     {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}}, "matmul");
    if (alpha != 1.0)
        p = ctx.emitTemp("mul", {p, Context::scalarLiteral(alpha, t)}, {}, "alpha");
    if (beta != 1.0)
        bias = ctx.emitTemp("mul", {bias, Context::scalarLiteral(beta, t)}, {}, "beta");
    ctx.emitOut("add", {p, bias});
}

// t(x): the two axes of a matrix swapped; vectors and scalars unchanged.
void lowerT(Context& ctx) {
    if (rankOf(ctx.in(0)) < 2) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    ctx.emitOut("transpose", {ctx.input(0)}, {{"axes", Expr::ints({1, 0})}});
}

// Operand i reshaped to [rows, cols] (static sizes, which the caller has
// checked), constants folded by the context.
Expr asMatrix(Context& ctx, size_t i, int64_t rows, int64_t cols, const std::string& tag) {
    Expr e = ctx.operand(ctx.node().inputs[i], rankOf(ctx.in(i)), ctx.out().dtype);
    return ctx.emitTemp("reshape", {e}, {{"shape", Expr::ints({rows, cols})}}, tag);
}

void requireStatic(Context& ctx) {
    for (size_t i = 0; i < ctx.numInputs(); ++i)
        for (const auto& s : ctx.in(i).symbols)
            if (!s.empty())
                ctx.unsupported(ctx.node().kind + " of a tensor with a dynamic axis");
}

int64_t product(const std::vector<int64_t>& v, size_t from, size_t to) {
    int64_t p = 1;
    for (size_t i = from; i < to; ++i)
        p *= v[i];
    return p;
}

// inner(a, b): sum over the last axes of both, the result [a.shape[:-1],
// b.shape[:-1]]: a as [A, k] times b as [B, k] transposed, reshaped.
void lowerInner(Context& ctx) {
    const ir::Value& a = ctx.in(0);
    const ir::Value& b = ctx.in(1);
    if (rankOf(a) == 0 || rankOf(b) == 0) {
        emitBinary(ctx, "mul");
        return;
    }
    requireStatic(ctx);
    const int64_t k = a.shape.back();
    Expr ma = asMatrix(ctx, 0, product(a.shape, 0, a.shape.size() - 1), k, "rows");
    Expr mb = asMatrix(ctx, 1, product(b.shape, 0, b.shape.size() - 1), k, "columns");
    Expr m = ctx.emitTemp("matmul", {ma, mb},
                          {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(true)}}, "inner");
    ctx.emitOut("reshape", {m}, {{"shape", Expr::ints(ctx.out().shape)}});
}

// vdot(a, b) of real vectors: sum(a * b), a 0-d result.
void lowerVdot(Context& ctx) {
    Expr p = ctx.emitTemp("mul", {ctx.input(0), ctx.input(1)}, {}, "product");
    Expr s = ctx.emitTemp("sum_reduce", {p}, {{"axes", Expr::ints({0})}}, "sum");
    ctx.emitOut("squeeze", {s}, {{"axes", Expr::ints({0})}});
}

// tensordot(a, b, dims_a, dims_b): a's free axes then its contracted ones as
// [FA, K], b's contracted then free as [K, FB], one matmul, reshaped.
void lowerTensordot(Context& ctx) {
    requireStatic(ctx);
    const ir::Value& a = ctx.in(0);
    const ir::Value& b = ctx.in(1);
    std::vector<int64_t> ca = ctx.intsArg(2), cb = ctx.intsArg(3);
    if (ca.size() != cb.size())
        ctx.unsupported("tensordot with different numbers of contracted axes");
    auto order = [&](const ir::Value& v, std::vector<int64_t> contracted, bool contractedLast) {
        const int64_t r = rankOf(v);
        for (auto& d : contracted)
            d = ctx.axis(d, r);
        std::vector<int64_t> free;
        for (int64_t d = 0; d < r; ++d)
            if (std::find(contracted.begin(), contracted.end(), d) == contracted.end())
                free.push_back(d);
        std::vector<int64_t> perm = contractedLast ? free : contracted;
        const auto& rest = contractedLast ? contracted : free;
        perm.insert(perm.end(), rest.begin(), rest.end());
        return std::make_pair(perm, free);
    };
    auto [pa, fa] = order(a, ca, true);
    auto [pb, fb] = order(b, cb, false);
    int64_t k = 1, na = 1, nb = 1;
    for (int64_t d : fa)
        na *= a.shape[static_cast<size_t>(d)];
    for (int64_t d : fb)
        nb *= b.shape[static_cast<size_t>(d)];
    for (size_t i = 0; i < pa.size() - fa.size(); ++i)
        k *= a.shape[static_cast<size_t>(pa[fa.size() + i])];
    auto arranged = [&](size_t i, const std::vector<int64_t>& perm, int64_t rows, int64_t cols,
                        const std::string& tag) {
        Expr e = ctx.operand(ctx.node().inputs[i], rankOf(ctx.in(i)), ctx.out().dtype);
        std::vector<int64_t> identity(perm.size());
        std::iota(identity.begin(), identity.end(), 0);
        if (perm != identity)
            e = ctx.emitTemp("transpose", {e}, {{"axes", Expr::ints(perm)}}, tag + "_moved");
        return ctx.emitTemp("reshape", {e}, {{"shape", Expr::ints({rows, cols})}}, tag);
    };
    Expr ma = arranged(0, pa, na, k, "left");
    Expr mb = arranged(1, pb, k, nb, "right");
    Expr m =
        ctx.emitTemp("matmul", {ma, mb},
                     {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}}, "product");
    ctx.emitOut("reshape", {m}, {{"shape", Expr::ints(ctx.out().shape)}});
}

// kron(a, b): a with a unit axis after each of its axes times b with one
// before each ([a0, 1, a1, 1] * [1, b0, 1, b1]), reshaped to [a0 b0, a1 b1].
void lowerKron(Context& ctx) {
    requireStatic(ctx);
    const int64_t r = rankOf(ctx.out());
    if (r == 0) {
        emitBinary(ctx, "mul");
        return;
    }
    Expr a = rankedOperand(ctx, ctx.node().inputs[0], r, ctx.out().dtype);
    Expr b = rankedOperand(ctx, ctx.node().inputs[1], r, ctx.out().dtype);
    std::vector<int64_t> after, before;
    for (int64_t d = 0; d < r; ++d) {
        after.push_back(2 * d + 1);
        before.push_back(2 * d);
    }
    Expr ua = ctx.emitTemp("unsqueeze", {a}, {{"axes", Expr::ints(after)}}, "spread_a");
    Expr ub = ctx.emitTemp("unsqueeze", {b}, {{"axes", Expr::ints(before)}}, "spread_b");
    Expr p = ctx.emitTemp("mul", {ua, ub}, {}, "blocks");
    ctx.emitOut("reshape", {p}, {{"shape", Expr::ints(ctx.out().shape)}});
}

// beta * input + alpha * product, skipping the input when beta is 0
// (PyTorch then ignores its values, NaN included).
void emitScaledSum(Context& ctx, Expr product, size_t betaArg, size_t alphaArg) {
    const DType t = ctx.out().dtype;
    const double beta = ctx.numInputs() > betaArg ? ctx.floatArg(betaArg) : 1.0;
    const double alpha = ctx.numInputs() > alphaArg ? ctx.floatArg(alphaArg) : 1.0;
    if (alpha != 1.0)
        product = ctx.emitTemp("mul", {product, Context::scalarLiteral(alpha, t)}, {}, "alpha");
    if (beta == 0.0) {
        ctx.emitOut("copy", {product});
        return;
    }
    Expr bias = ctx.operand(ctx.node().inputs[0], rankOf(ctx.out()), t);
    if (beta != 1.0)
        bias = ctx.emitTemp("mul", {bias, Context::scalarLiteral(beta, t)}, {}, "beta");
    ctx.emitOut("add", {product, bias});
}

// addr(input, v1, v2, beta, alpha) = beta input + alpha outer(v1, v2).
void lowerAddr(Context& ctx) {
    const DType t = ctx.out().dtype;
    Expr a = ctx.emitTemp("unsqueeze", {ctx.operand(ctx.node().inputs[1], 1, t)},
                          {{"axes", Expr::ints({1})}}, "column");
    Expr b = ctx.emitTemp("unsqueeze", {ctx.operand(ctx.node().inputs[2], 1, t)},
                          {{"axes", Expr::ints({0})}}, "row");
    emitScaledSum(ctx, ctx.emitTemp("mul", {a, b}, {}, "outer"), 3, 4);
}

// addbmm(input, b1, b2, beta, alpha) = beta input + alpha sum_i b1[i] @ b2[i].
void lowerAddbmm(Context& ctx) {
    const DType t = ctx.out().dtype;
    Expr m = ctx.emitTemp(
        "matmul",
        {ctx.operand(ctx.node().inputs[1], 3, t), ctx.operand(ctx.node().inputs[2], 3, t)},
        {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}}, "batched");
    Expr s = ctx.emitTemp("sum_reduce", {m}, {{"axes", Expr::ints({0})}}, "summed");
    emitScaledSum(ctx, ctx.emitTemp("squeeze", {s}, {{"axes", Expr::ints({0})}}, "product"), 3, 4);
}

// The product of matrices [i, j] of `items` in the order PyTorch's
// linalg_multi_dot chooses (so that rounding matches): two in one matmul;
// three by comparing the costs of (AB)C and A(BC); more by the matrix-chain
// dynamic programme, the first cheapest split winning.
Expr chainProduct(Context& ctx, const std::vector<Expr>& items,
                  const std::vector<std::array<int64_t, 2>>& dims, bool last) {
    const size_t n = items.size();
    std::vector<std::vector<int64_t>> cost(n, std::vector<int64_t>(n, 0));
    std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
    if (n == 3) {
        const int64_t a = dims[0][0], b = dims[1][0], c = dims[2][0], d = dims[2][1];
        split[0][2] = (a * c) * (b + d) > (b * d) * (a + c) ? 0 : 1;
        split[1][2] = 1;
        split[0][1] = 0;
    } else {
        for (size_t len = 1; len < n; ++len)
            for (size_t i = 0; i + len < n; ++i) {
                const size_t j = i + len;
                cost[i][j] = std::numeric_limits<int64_t>::max();
                for (size_t k = i; k < j; ++k) {
                    const int64_t c =
                        cost[i][k] + cost[k + 1][j] + dims[i][0] * dims[k][1] * dims[j][1];
                    if (c < cost[i][j]) {
                        cost[i][j] = c;
                        split[i][j] = k;
                    }
                }
            }
    }
    Kwargs k{{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}};
    int counter = 0;
    auto multiply = [&](auto& self, size_t i, size_t j, bool top) -> Expr {
        if (i == j)
            return items[i];
        Expr l = self(self, i, split[i][j], false), r = self(self, split[i][j] + 1, j, false);
        return emitStep(ctx, top && last, "matmul", {l, r}, k, "chain" + std::to_string(counter++));
    };
    return multiply(multiply, 0, n - 1, true);
}

// chain_matmul(matrices) and linalg_multi_dot(matrices) of 2-D matrices
// (PyTorch computes the first with the second).
void lowerMultiDot(Context& ctx) {
    const ir::Value& list = ctx.in(0);
    if (list.elements.empty())
        ctx.unsupported(ctx.node().kind + " of a matrix list t2n cannot see built");
    std::vector<Expr> items;
    std::vector<std::array<int64_t, 2>> dims;
    for (ir::ValueId id : list.elements) {
        const ir::Value& v = ctx.graph().value(id);
        if (rankOf(v) != 2)
            ctx.unsupported(ctx.node().kind + " of other than 2-D matrices");
        items.push_back(ctx.operand(id, 2, ctx.out().dtype));
        dims.push_back({v.shape[0], v.shape[1]});
    }
    if (items.size() == 1) {
        ctx.emitOut("copy", {items[0]});
        return;
    }
    chainProduct(ctx, items, dims, true);
}

// linalg_matrix_power(A, n) for n >= 1, by PyTorch's square-and-multiply
// (n = 1, 2, 3 directly); n = 0 (identity) and n < 0 (inverse) are refused.
void lowerMatrixPower(Context& ctx) {
    int64_t n = ctx.intArg(1);
    if (n < 1)
        ctx.unsupported(fmt::format("matrix_power with n = {}", n),
                        n < 0 ? "an inverse is not expressible" : "use the identity matrix");
    Kwargs k{{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}};
    Expr a = ctx.input(0);
    if (n == 1) {
        ctx.emitOut("copy", {a});
        return;
    }
    if (n == 2 || n == 3) {
        Expr sq = emitStep(ctx, n == 2, "matmul", {a, a}, k, "square");
        if (n == 3)
            ctx.emitOut("matmul", {sq, a}, k);
        return;
    }
    std::optional<Expr> z, result;
    int counter = 0;
    while (n > 0) {
        const bool bit = n % 2 == 1;
        n /= 2;
        z = z ? ctx.emitTemp("matmul", {*z, *z}, k, "power" + std::to_string(counter++)) : a;
        if (bit) {
            const bool lastStep = n == 0;
            if (!result && lastStep)
                ctx.emitOut("copy", {*z});
            else if (!result)
                result = z;
            else
                result = emitStep(ctx, lastStep, "matmul", {*result, *z}, k,
                                  "product" + std::to_string(counter++));
        }
    }
}

// linalg_vecdot(x, y, dim) of real tensors: sum(x * y) over dim.
void lowerVecdot(Context& ctx) {
    const int64_t r = rankOf(ctx.out()) + 1;
    const DType t = ctx.out().dtype;
    const int64_t dim = ctx.axis(ctx.intArg(2), r);
    Expr p = ctx.emitTemp(
        "mul", {ctx.operand(ctx.node().inputs[0], r, t), ctx.operand(ctx.node().inputs[1], r, t)},
        {}, "product");
    Expr s = ctx.emitTemp("sum_reduce", {p}, {{"axes", Expr::ints({dim})}}, "sum");
    ctx.emitOut("squeeze", {s}, {{"axes", Expr::ints({dim})}});
}

// bilinear(x1, x2, W [O, I, J], b) = x1 W x2 + b over the last axes: x1 as
// [N, I] times W arranged [I, O J], times x2 as [N, 1, J], summed over J.
void lowerBilinear(Context& ctx) {
    requireStatic(ctx);
    const ir::Value& x1 = ctx.in(0);
    const ir::Value& w = ctx.in(2);
    if (rankOf(x1) < 1 || rankOf(w) != 3)
        ctx.unsupported("bilinear of a 0-d input");
    const int64_t o = w.shape[0], i = w.shape[1], j = w.shape[2];
    const int64_t n = product(x1.shape, 0, x1.shape.size() - 1);
    const DType t = ctx.out().dtype;
    Expr a = asMatrix(ctx, 0, n, i, "left");
    Expr b = ctx.emitTemp("reshape", {ctx.operand(ctx.node().inputs[1], rankOf(ctx.in(1)), t)},
                          {{"shape", Expr::ints({n, 1, j})}}, "right");
    Expr wt = ctx.emitTemp("transpose", {ctx.operand(ctx.node().inputs[2], 3, t)},
                           {{"axes", Expr::ints({1, 0, 2})}}, "weight_moved");
    Expr wm = ctx.emitTemp("reshape", {wt}, {{"shape", Expr::ints({i, o * j})}}, "weight");
    Expr m = ctx.emitTemp("matmul", {a, wm},
                          {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}},
                          "left_weight");
    Expr m3 = ctx.emitTemp("reshape", {m}, {{"shape", Expr::ints({n, o, j})}}, "per_output");
    Expr p = ctx.emitTemp("mul", {m3, b}, {}, "products");
    Expr s = ctx.emitTemp("sum_reduce", {p}, {{"axes", Expr::ints({2})}}, "sum");
    Expr y = ctx.emitTemp("reshape", {s}, {{"shape", Expr::ints(ctx.out().shape)}}, "unbiased");
    if (ctx.isNone(3)) {
        ctx.emitOut("copy", {y});
        return;
    }
    ctx.emitOut("add", {y, ctx.operand(ctx.node().inputs[3], rankOf(ctx.out()), t)});
}

} // namespace

void registerMatmulOps(Registry& r) {
    r.beginFamily("matmul");
    r.add("aten::matmul", lowerMatmul,
          "1-D operands and batch broadcasting; f16 with --f32-linear-accumulation and equal "
          "batch axes: tract_core_einsum accumulating in f32");
    r.add("aten::mm", lowerMatmul, "as matmul");
    r.add("aten::bmm", lowerMatmul, "as matmul");
    r.add("aten::linear", lowerLinear,
          "inputs of any rank; f16 with --f32-linear-accumulation: tract_core_einsum "
          "accumulating in f32");
    r.add("aten::addmm", lowerAddmm, "beta and alpha");
    r.add("aten::t", lowerT);
    r.add("aten::t_copy", lowerT, "as t", "+transpose");
    r.add("aten::inner", lowerInner, "static shapes: one matmul", "+mul +reshape +matmul");
    r.add("aten::vdot", lowerVdot, "real vectors", "mul sum_reduce squeeze");
    r.add("aten::tensordot", lowerTensordot, "static shapes: one matmul",
          "+transpose reshape matmul");
    r.add("aten::kron", lowerKron, "static shapes: unsqueezes, mul, reshape",
          "mul +unsqueeze +reshape");
    r.add("aten::addr", lowerAddr, "beta and alpha", "unsqueeze mul +add +copy");
    r.add("aten::addbmm", lowerAddbmm, "beta and alpha",
          "matmul sum_reduce squeeze +mul +add +copy");
    r.add("aten::chain_matmul", lowerMultiDot, "2-D matrices, in linalg_multi_dot's order",
          "+matmul +copy");
    r.add("aten::linalg_multi_dot", lowerMultiDot, "2-D matrices, in PyTorch's order",
          "+matmul +copy");
    r.add("aten::linalg_matrix_power", lowerMatrixPower, "n >= 1, square-and-multiply",
          "+matmul +copy");
    r.add("aten::linalg_vecdot", lowerVecdot, "real tensors", "mul sum_reduce squeeze");
    r.add("aten::bilinear", lowerBilinear, "static shapes: matmul, mul, sum_reduce",
          "reshape transpose matmul mul sum_reduce +add +copy");
}

} // namespace t2n::translate
