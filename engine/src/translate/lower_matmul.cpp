// Matrix products. NNEF's matmul multiplies the last two axes and
// broadcasts the leading ones; operands are padded to a common rank, and
// PyTorch's 1-D operands get the unit axis they imply, removed afterwards.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>

namespace t2n::translate {

namespace {

// A weight or operand padded with leading unit axes; constants are reshaped
// at export time instead of being unsqueezed in the graph.
Expr padded(Context& ctx, ir::ValueId id, int64_t rank) {
    return ctx.operand(id, rank, ctx.out().dtype);
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

} // namespace

void registerMatmulOps(Registry& r) {
    r.beginFamily("matmul");
    r.add("aten::matmul", lowerMatmul, "1-D operands and batch broadcasting");
    r.add("aten::mm", lowerMatmul);
    r.add("aten::bmm", lowerMatmul);
    r.add("aten::linear", lowerLinear, "inputs of any rank");
    r.add("aten::addmm", lowerAddmm, "beta and alpha");
    r.add("aten::t", lowerT);
}

} // namespace t2n::translate
