// Element-wise arithmetic, comparisons, logic and selection. PyTorch
// broadcasts by leading padding and NNEF by trailing padding, so every
// operand goes through Context::operand, which pads to the output rank.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>

namespace t2n::translate {

namespace {

// alpha * v, skipping the multiplication when alpha is 1.
Expr scaled(Context& ctx, Expr v, double alpha, DType t, const std::string& suffix) {
    if (alpha == 1.0)
        return v;
    return ctx.emitTemp("mul", {v, Context::scalarLiteral(alpha, t)}, {}, suffix);
}

double alphaArg(Context& ctx, size_t i) {
    return ctx.numInputs() > i ? ctx.floatArg(i) : 1.0;
}

constexpr char kAdd[] = "add", kSub[] = "sub";

// add/sub(a, b, alpha) = a op alpha * b; rsub(a, b, alpha) = b - alpha * a.
template <const char* Op, bool Reversed> void lowerAlphaBinary(Context& ctx) {
    // aten::add of two tensor lists is their concatenation (scripted
    // nn.MultiheadAttention's `(linear(q, ...),) + linear(k, ...).chunk(2)`):
    // the elements, bound as one list.
    if (ctx.out().kind == ir::ValueKind::TensorList && ctx.numInputs() == 2) {
        std::vector<Expr> items = ctx.list(ctx.node().inputs[0]);
        for (Expr& e : ctx.list(ctx.node().inputs[1]))
            items.push_back(std::move(e));
        ctx.bindOut(Expr::array(std::move(items)));
        return;
    }
    const int64_t r = rankOf(ctx.out());
    DType t = ctx.out().dtype;
    Expr a = ctx.operand(ctx.node().inputs[0], r, t);
    Expr b = ctx.operand(ctx.node().inputs[1], r, t);
    if (Reversed)
        ctx.emitOut(Op, {b, scaled(ctx, a, alphaArg(ctx, 2), t, "alpha")});
    else
        ctx.emitOut(Op, {a, scaled(ctx, b, alphaArg(ctx, 2), t, "alpha")});
}

void lowerMul(Context& ctx) {
    emitBinary(ctx, "mul");
}

// Emits the last operation of a float computation whose output may be an
// integer tensor: directly when the types agree, else followed by a cast.
void emitThenCast(Context& ctx, const std::string& op, std::vector<Expr> args, DType computed) {
    DType out = ctx.out().dtype;
    if (out == computed) {
        ctx.emitOut(op, std::move(args));
        return;
    }
    Expr tmp = ctx.emitTemp(op, std::move(args), {}, "rounded");
    ctx.emitOut("tract_core_cast", {tmp}, {{"to", Expr::str(std::string(dtypeName(out)))}});
}

// Floor and truncating division go through floats; the result is cast back
// when the output is an integer tensor.
void lowerDivRounded(Context& ctx, const std::string& mode) {
    const int64_t r = rankOf(ctx.out());
    DType out = ctx.out().dtype;
    DType t = isFloat(out) ? out : DType::F32;
    Expr a = ctx.operand(ctx.node().inputs[0], r, t);
    Expr b = ctx.operand(ctx.node().inputs[1], r, t);
    if (mode.empty()) {
        emitThenCast(ctx, "div", {a, b}, t);
        return;
    }
    Expr q = ctx.emitTemp("div", {a, b}, {}, "quotient");
    if (mode == "floor") {
        emitThenCast(ctx, "floor", {q}, t);
    } else if (mode == "trunc") {
        Expr neg = ctx.emitTemp("lt", {q, Expr::f(0.0)}, {}, "negative");
        Expr up = ctx.emitTemp("ceil", {q}, {}, "ceil");
        Expr down = ctx.emitTemp("floor", {q}, {}, "floor");
        emitThenCast(ctx, "select", {neg, up, down}, t);
    } else {
        ctx.unsupported(fmt::format("division rounding mode '{}'", mode));
    }
}

void lowerDiv(Context& ctx) {
    lowerDivRounded(ctx, ctx.numInputs() > 2 && !ctx.isNone(2) ? ctx.stringArg(2) : "");
}

void lowerFloorDivide(Context& ctx) {
    lowerDivRounded(ctx, "floor");
}

void lowerPow(Context& ctx) {
    emitBinary(ctx, "pow");
}

template <const char* Op> void lowerUnary(Context& ctx) {
    emitUnary(ctx, Op);
}

// torch.round rounds half to even; NNEF round rounds half away from zero.
void lowerRound(Context& ctx) {
    if (ctx.numInputs() > 1 && !ctx.isNone(1) && ctx.intArg(1) != 0)
        ctx.unsupported("round with decimals");
    emitUnary(ctx, "tract_core_round_even");
}

// There is no rcp in tract: 1 / x.
void lowerReciprocal(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr x = ctx.operand(ctx.node().inputs[0], rankOf(ctx.out()), t);
    ctx.emitOut("div", {Context::scalarLiteral(1.0, t), x});
}

template <const char* Op> void lowerCompare(Context& ctx) {
    const DType t = comparisonType(ctx.in(0), ctx.in(1));
    if (t == DType::Bool) {
        compareBooleans(ctx, Op, outOperand(ctx, 0, t), outOperand(ctx, 1, t));
        return;
    }
    emitBinary(ctx, Op, t);
}

template <const char* Op> void lowerLogical(Context& ctx) {
    emitBinary(ctx, Op, DType::Bool);
}

void lowerNot(Context& ctx) {
    if (ctx.in(0).dtype != DType::Bool)
        ctx.unsupported("bitwise not of a non-boolean tensor");
    emitUnary(ctx, "not");
}

// where(cond, a, b) = select(cond, a, b)
void lowerWhere(Context& ctx) {
    if (ctx.numInputs() == 1)
        ctx.unsupported("torch.where with one argument (nonzero indices)");
    const int64_t r = rankOf(ctx.out());
    DType t = ctx.out().dtype;
    Expr c = ctx.operand(ctx.node().inputs[0], r, DType::Bool);
    Expr a = ctx.operand(ctx.node().inputs[1], r, t);
    Expr b = ctx.operand(ctx.node().inputs[2], r, t);
    ctx.emitOut("select", {c, a, b});
}

// masked_fill(x, mask, value) = select(mask, value, x)
void lowerMaskedFill(Context& ctx) {
    const int64_t r = rankOf(ctx.out());
    DType t = ctx.out().dtype;
    Expr x = ctx.operand(ctx.node().inputs[0], r, t);
    Expr m = ctx.operand(ctx.node().inputs[1], r, DType::Bool);
    Expr v = ctx.operand(ctx.node().inputs[2], r, t);
    ctx.emitOut("select", {m, v, x});
}

// clamp(x, min, max) with either bound optional (Python numbers or tensors).
void lowerClampBounds(Context& ctx, bool hasMin, bool hasMax, size_t minIdx, size_t maxIdx) {
    const int64_t r = rankOf(ctx.out());
    DType t = ctx.out().dtype;
    Expr x = ctx.operand(ctx.node().inputs[0], r, t);
    if (hasMin && hasMax) {
        ctx.emitOut("clamp", {x, ctx.operand(ctx.node().inputs[minIdx], r, t),
                              ctx.operand(ctx.node().inputs[maxIdx], r, t)});
    } else if (hasMin) {
        ctx.emitOut("max", {x, ctx.operand(ctx.node().inputs[minIdx], r, t)});
    } else if (hasMax) {
        ctx.emitOut("min", {x, ctx.operand(ctx.node().inputs[maxIdx], r, t)});
    } else {
        ctx.bindOut(x);
    }
}

void lowerClamp(Context& ctx) {
    lowerClampBounds(ctx, !ctx.isNone(1), !ctx.isNone(2), 1, 2);
}
void lowerClampMin(Context& ctx) {
    lowerClampBounds(ctx, true, false, 1, 0);
}
void lowerClampMax(Context& ctx) {
    lowerClampBounds(ctx, false, true, 0, 1);
}

constexpr char kNeg[] = "neg", kAbs[] = "abs", kExp[] = "exp", kLog[] = "log", kSqrt[] = "sqrt",
               kRsqrt[] = "rsqrt", kSin[] = "sin", kCos[] = "cos", kTan[] = "tan", kAsin[] = "asin",
               kAcos[] = "acos", kAtan[] = "atan", kSinh[] = "sinh", kCosh[] = "cosh",
               kAsinh[] = "asinh", kAcosh[] = "acosh", kAtanh[] = "atanh", kFloor[] = "floor",
               kCeil[] = "ceil", kSign[] = "sign", kEq[] = "eq", kNe[] = "ne", kLt[] = "lt",
               kGt[] = "gt", kLe[] = "le", kGe[] = "ge", kAnd[] = "and", kOr[] = "or";

void lowerMinimum(Context& ctx) {
    emitBinary(ctx, kMin);
}
void lowerMaximum(Context& ctx) {
    emitBinary(ctx, kMax);
}

} // namespace

void registerElementwiseOps(Registry& r) {
    r.beginFamily("elementwise");
    r.add("aten::add", lowerAlphaBinary<kAdd, false>,
          "alpha folded into a mul; two tensor lists: their concatenation");
    r.add("aten::sub", lowerAlphaBinary<kSub, false>);
    r.add("aten::rsub", lowerAlphaBinary<kSub, true>);
    r.add("aten::mul", lowerMul);
    r.add("aten::div", lowerDiv, "rounding modes floor and trunc");
    r.add("aten::floor_divide", lowerFloorDivide);
    r.add("aten::pow", lowerPow);
    r.add("aten::neg", lowerUnary<kNeg>);
    r.add("aten::abs", lowerUnary<kAbs>);
    r.add("aten::exp", lowerUnary<kExp>);
    r.add("aten::log", lowerUnary<kLog>);
    r.add("aten::sqrt", lowerUnary<kSqrt>);
    r.add("aten::rsqrt", lowerUnary<kRsqrt>);
    r.add("aten::sin", lowerUnary<kSin>);
    r.add("aten::cos", lowerUnary<kCos>);
    r.add("aten::tan", lowerUnary<kTan>);
    r.add("aten::asin", lowerUnary<kAsin>);
    r.add("aten::acos", lowerUnary<kAcos>);
    r.add("aten::atan", lowerUnary<kAtan>);
    r.add("aten::sinh", lowerUnary<kSinh>);
    r.add("aten::cosh", lowerUnary<kCosh>);
    r.add("aten::asinh", lowerUnary<kAsinh>);
    r.add("aten::acosh", lowerUnary<kAcosh>);
    r.add("aten::atanh", lowerUnary<kAtanh>);
    r.add("aten::floor", lowerUnary<kFloor>);
    r.add("aten::ceil", lowerUnary<kCeil>);
    r.add("aten::sign", lowerUnary<kSign>);
    r.add("aten::round", lowerRound, "half to even (tract_core_round_even); no decimals");
    r.add("aten::reciprocal", lowerReciprocal, "as 1 / x (tract has no rcp)");
    r.add("aten::eq", lowerCompare<kEq>);
    r.add("aten::ne", lowerCompare<kNe>);
    r.add("aten::lt", lowerCompare<kLt>);
    r.add("aten::gt", lowerCompare<kGt>);
    r.add("aten::le", lowerCompare<kLe>);
    r.add("aten::ge", lowerCompare<kGe>);
    r.add("aten::logical_and", lowerLogical<kAnd>);
    r.add("aten::logical_or", lowerLogical<kOr>);
    r.add("aten::__and__", lowerLogical<kAnd>, "boolean tensors");
    r.add("aten::__or__", lowerLogical<kOr>, "boolean tensors");
    r.add("aten::logical_not", lowerNot);
    r.add("aten::bitwise_not", lowerNot, "boolean tensors");
    r.add("aten::where", lowerWhere, "three-argument form");
    r.add("aten::masked_fill", lowerMaskedFill);
    r.add("aten::minimum", lowerMinimum);
    r.add("aten::maximum", lowerMaximum);
    r.add("aten::clamp", lowerClamp);
    r.add("aten::clamp_min", lowerClampMin);
    r.add("aten::clamp_max", lowerClampMax);
}

} // namespace t2n::translate
