// Norms over matrices and norm-bounded rescaling: linalg_norm (vector or
// matrix norm by its arguments), linalg_matrix_norm and renorm. The matrix
// norms spelled with reductions are Frobenius and the induced 1 / inf norms
// (largest or smallest absolute column / row sum); the spectral (2, -2) and
// nuclear norms need singular values, which tract has no operation for, and
// are refused.
#include "translate/lower_util.h"
#include "translate/norms.h"
#include "translate/registry.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace t2n::translate {

Expr vectorNormOf(Context& ctx, Expr x, double p, const std::vector<int64_t>& axes, DType t,
                  const std::string& tag) {
    Kwargs k{{"axes", Expr::ints(axes)}};
    if (p == 2.0) {
        Expr sq = ctx.emitTemp("mul", {x, x}, {}, tag + "_squared");
        return ctx.emitTemp("sqrt", {ctx.emitTemp("sum_reduce", {sq}, k, tag + "_sum")}, {}, tag);
    }
    if (p == 1.0)
        return ctx.emitTemp("sum_reduce", {ctx.emitTemp("abs", {x}, {}, tag + "_abs")}, k, tag);
    if (std::isinf(p))
        return ctx.emitTemp(p > 0 ? "max_reduce" : "min_reduce",
                            {ctx.emitTemp("abs", {x}, {}, tag + "_abs")}, k, tag);
    if (p > 0) {
        Expr pw = ctx.emitTemp(
            "pow", {ctx.emitTemp("abs", {x}, {}, tag + "_abs"), Context::scalarLiteral(p, t)}, {},
            tag + "_pow");
        return ctx.emitTemp(
            "pow",
            {ctx.emitTemp("sum_reduce", {pw}, k, tag + "_sum"), Context::scalarLiteral(1.0 / p, t)},
            {}, tag);
    }
    ctx.unsupported(fmt::format("norm of order {}", p),
                    "t2n translates the orders 1, 2, inf, -inf and other positive orders");
}

namespace {

// The norm `e` (axes kept) as the node's output: squeezed unless keepdim.
void finishNorm(Context& ctx, Expr e, std::vector<int64_t> axes, bool keepdim) {
    if (keepdim || axes.empty()) {
        ctx.bindOut(e);
        return;
    }
    std::sort(axes.begin(), axes.end());
    ctx.emitOut("squeeze", {e}, {{"axes", Expr::ints(axes)}});
}

// A matrix norm over (rows, cols) of the input, by its order: "fro", or the
// induced 1 / -1 (max / min over columns of the column sums of |x|) and
// inf / -inf (the same over rows).
void emitMatrixNorm(Context& ctx, const std::string& ord, int64_t rows, int64_t cols,
                    bool keepdim) {
    const DType t = ctx.out().dtype;
    Expr x = ctx.operand(ctx.node().inputs[0], rankOf(ctx.in(0)), t);
    if (ord == "fro") {
        finishNorm(ctx, vectorNormOf(ctx, x, 2.0, {std::min(rows, cols), std::max(rows, cols)}, t),
                   {rows, cols}, keepdim);
        return;
    }
    const bool byColumn = ord == "1" || ord == "-1";
    if (!byColumn && ord != "inf" && ord != "-inf")
        ctx.unsupported(fmt::format("matrix norm of order '{}'", ord),
                        "the spectral (2, -2) and nuclear norms need singular values, which tract "
                        "has no operation for; 'fro', 1, -1, inf and -inf are translated");
    const int64_t summed = byColumn ? rows : cols, picked = byColumn ? cols : rows;
    Expr sums = ctx.emitTemp("sum_reduce", {ctx.emitTemp("abs", {x}, {}, "abs")},
                             {{"axes", Expr::ints({summed})}}, "sums");
    Expr r = ctx.emitTemp(ord[0] == '-' ? "min_reduce" : "max_reduce", {sums},
                          {{"axes", Expr::ints({picked})}}, "norm");
    finishNorm(ctx, r, {rows, cols}, keepdim);
}

// An order argument as the text emitMatrixNorm reads: "fro", "nuc", or a number.
std::string orderText(Context& ctx, size_t i) {
    if (ctx.in(i).kind == ir::ValueKind::String)
        return ctx.stringArg(i);
    const double p = ctx.floatArg(i);
    if (std::isinf(p))
        return p > 0 ? "inf" : "-inf";
    return fmt::format("{}", p);
}

// linalg_matrix_norm(x, ord, dim=[-2, -1], keepdim, dtype), ord a number or
// "fro" / "nuc".
void lowerLinalgMatrixNorm(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const std::vector<int64_t> dims = ctx.intsArg(2);
    if (dims.size() != 2)
        ctx.unsupported("linalg_matrix_norm over other than two axes");
    emitMatrixNorm(ctx, orderText(ctx, 1), ctx.axis(dims[0], r), ctx.axis(dims[1], r),
                   ctx.boolArg(3));
}

// linalg_norm(x, ord?, dim?, keepdim, dtype): ord None is the 2-norm of the
// flattened axes named (all when dim is None); else a vector norm over one
// axis (or of a 1-d input) and a matrix norm over two (or of a 2-d input).
void lowerLinalgNorm(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> dims;
    if (!ctx.isNone(2))
        for (int64_t d : ctx.intsArg(2))
            dims.push_back(ctx.axis(d, r));
    const bool keepdim = ctx.boolArg(3);
    const DType t = ctx.out().dtype;
    if (ctx.isNone(1) || dims.size() == 1 || (dims.empty() && r == 1)) {
        if (dims.empty()) {
            dims.resize(static_cast<size_t>(r));
            std::iota(dims.begin(), dims.end(), int64_t{0});
        }
        if (ctx.in(1).kind == ir::ValueKind::String)
            ctx.unsupported("linalg_norm with a string order over one axis");
        const double p = ctx.isNone(1) ? 2.0 : ctx.floatArg(1);
        std::vector<int64_t> sorted = dims;
        std::sort(sorted.begin(), sorted.end());
        Expr x = ctx.operand(ctx.node().inputs[0], r, t);
        finishNorm(ctx, vectorNormOf(ctx, x, p, sorted, t), dims, keepdim);
        return;
    }
    if (dims.empty() && r == 2)
        dims = {0, 1};
    if (dims.size() != 2)
        ctx.unsupported("linalg_norm with an order over more than two axes",
                        "a vector norm needs one axis, a matrix norm two");
    emitMatrixNorm(ctx, orderText(ctx, 1), dims[0], dims[1], keepdim);
}

// renorm(x, p, dim, maxnorm): every slice along `dim` whose p-norm exceeds
// maxnorm is scaled by maxnorm / (norm + 1e-7), as PyTorch does.
void lowerRenorm(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const DType t = ctx.out().dtype;
    const double p = ctx.floatArg(1), maxnorm = ctx.floatArg(3);
    const int64_t dim = ctx.axis(ctx.intArg(2), r);
    std::vector<int64_t> axes;
    for (int64_t a = 0; a < r; ++a)
        if (a != dim)
            axes.push_back(a);
    if (axes.empty())
        ctx.unsupported("renorm of a 1-d tensor");
    Expr x = ctx.operand(ctx.node().inputs[0], r, t);
    Expr norm = vectorNormOf(ctx, x, p, axes, t);
    Expr above = ctx.emitTemp("gt", {norm, Context::scalarLiteral(maxnorm, t)}, {}, "above");
    Expr scale =
        ctx.emitTemp("div",
                     {Context::scalarLiteral(maxnorm, t),
                      ctx.emitTemp("add", {norm, Context::scalarLiteral(1e-7, t)}, {}, "norm_eps")},
                     {}, "scale");
    Expr factor =
        ctx.emitTemp("select", {above, scale, Context::scalarLiteral(1.0, t)}, {}, "factor");
    ctx.emitOut("mul", {x, factor});
}

} // namespace

void registerMatrixNormOps(Registry& r) {
    r.beginFamily("reduce");
    const char* norms = "mul sqrt sum_reduce abs max_reduce min_reduce pow";
    r.add("aten::linalg_norm", lowerLinalgNorm,
          "vector orders 1, 2, inf, -inf, any positive; matrix 'fro', 1, -1, inf, -inf (no "
          "singular values: 2, -2, 'nuc' refused)",
          std::string(norms) + " squeeze");
    r.add("aten::linalg_matrix_norm", lowerLinalgMatrixNorm,
          "'fro', 1, -1, inf, -inf (2, -2, 'nuc' need singular values: refused)",
          std::string(norms) + " squeeze");
    r.add("aten::renorm", lowerRenorm, "p-norm of each slice; PyTorch's 1e-7 in the scale",
          std::string(norms) + " gt add div select");
}

} // namespace t2n::translate
