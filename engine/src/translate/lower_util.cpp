#include "translate/lower_util.h"

#include "target/tract_versions.h"
#include "translate/tensor_convert.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <numbers>

namespace t2n::translate {

DType comparisonType(const ir::Value& a, const ir::Value& b) {
    auto widestFloat = [](DType x, DType y) {
        if (x == DType::F64 || y == DType::F64)
            return DType::F64;
        if (x == DType::F32 || y == DType::F32)
            return DType::F32;
        return DType::F16;
    };
    const bool ta = a.kind == ir::ValueKind::Tensor, tb = b.kind == ir::ValueKind::Tensor;
    const bool fa = ta ? isFloat(a.dtype) : a.kind == ir::ValueKind::Float;
    const bool fb = tb ? isFloat(b.dtype) : b.kind == ir::ValueKind::Float;
    if (ta && tb && isFloat(a.dtype) && isFloat(b.dtype))
        return widestFloat(a.dtype, b.dtype);
    if (ta && isFloat(a.dtype))
        return a.dtype;
    if (tb && isFloat(b.dtype))
        return b.dtype;
    if (fa || fb)
        return DType::F32;
    if (ta && tb)
        return a.dtype == b.dtype ? a.dtype : DType::I64;
    return ta ? a.dtype : (tb ? b.dtype : DType::I64);
}

Expr emitUnary(Context& ctx, const std::string& op, Kwargs kwargs) {
    Expr x = ctx.operand(ctx.node().inputs.at(0), rankOf(ctx.out()), ctx.out().dtype);
    return ctx.emitOut(op, {x}, std::move(kwargs));
}

Expr emitBinary(Context& ctx, const std::string& op, std::optional<DType> compute) {
    const int64_t rank = rankOf(ctx.out());
    DType t = compute.value_or(ctx.out().dtype);
    Expr a = ctx.operand(ctx.node().inputs.at(0), rank, t);
    Expr b = ctx.operand(ctx.node().inputs.at(1), rank, t);
    return ctx.emitOut(op, {a, b});
}

Expr compareBooleans(Context& ctx, std::string_view op, Expr a, Expr b, bool last,
                     const std::string& suffix) {
    auto negated = [&](Expr x, const char* part) {
        return ctx.emitTemp("not", {std::move(x)}, {}, suffix + part);
    };
    auto exclusive = [&](bool final) {
        if (ctx.target().has("tract_core_xor"))
            return emitStep(ctx, final, "tract_core_xor", {a, b}, {}, suffix + "_xor");
        Expr either = ctx.emitTemp("or", {a, b}, {}, suffix + "_either");
        Expr notBoth = negated(ctx.emitTemp("and", {a, b}, {}, suffix + "_both"), "_not_both");
        return emitStep(ctx, final, "and", {either, notBoth}, {}, suffix + "_xor");
    };
    if (op == "ne")
        return exclusive(last);
    if (op == "eq")
        return emitStep(ctx, last, "not", {exclusive(false)}, {}, suffix);
    if (op == "lt") // false < true
        return emitStep(ctx, last, "and", {negated(a, "_not_a"), b}, {}, suffix);
    if (op == "gt")
        return emitStep(ctx, last, "and", {a, negated(b, "_not_b")}, {}, suffix);
    if (op == "le")
        return emitStep(ctx, last, "or", {negated(a, "_not_a"), b}, {}, suffix);
    if (op == "ge")
        return emitStep(ctx, last, "or", {a, negated(b, "_not_b")}, {}, suffix);
    ctx.unsupported(fmt::format("comparison '{}' of boolean tensors", op));
}

Expr unitTensorLiteral(Expr v, int64_t rank) {
    for (int64_t a = 0; a < rank; ++a)
        v = Expr::array({std::move(v)});
    return v;
}

Expr outOperand(Context& ctx, size_t i, std::optional<DType> t) {
    return ctx.operand(ctx.node().inputs.at(i), rankOf(ctx.out()), t.value_or(ctx.out().dtype));
}

DType floatComputeType(Context& ctx) {
    return isFloat(ctx.out().dtype) ? ctx.out().dtype : DType::F32;
}

void emitFinal(Context& ctx, const std::string& op, std::vector<Expr> args, DType t,
               Kwargs kwargs) {
    if (ctx.out().dtype == t) {
        ctx.emitOut(op, std::move(args), std::move(kwargs));
        return;
    }
    Expr v = ctx.emitTemp(op, std::move(args), std::move(kwargs), "computed");
    ctx.emitOut("tract_core_cast", {v},
                {{"to", Expr::str(std::string(dtypeName(ctx.out().dtype)))}});
}

DType upcastType(const Context& ctx, bool asked) {
    const DType t = ctx.out().dtype;
    return asked && t == DType::F16 ? DType::F32 : t;
}

void bindAs(Context& ctx, Expr v, DType t) {
    if (ctx.out().dtype == t) {
        ctx.bindOut(std::move(v));
        return;
    }
    ctx.emitOut("tract_core_cast", {std::move(v)},
                {{"to", Expr::str(std::string(dtypeName(ctx.out().dtype)))}});
}

Expr signBitOf(Context& ctx, Expr x, DType t, const std::string& tag) {
    Expr neg = ctx.emitTemp("lt", {x, Context::scalarLiteral(0.0, t)}, {}, tag + "_negative");
    if (!isFloat(t))
        return neg;
    Expr inv = ctx.emitTemp("div", {Context::scalarLiteral(1.0, t), x}, {}, tag + "_reciprocal");
    Expr negZero =
        ctx.emitTemp("lt", {inv, Context::scalarLiteral(0.0, t)}, {}, tag + "_negative_zero");
    return ctx.emitTemp("or", {neg, negZero}, {}, tag + "_sign");
}

// atan2(y, x): atan(y / x), moved by pi to the left half-plane (toward y's
// sign, a negative zero included); on the y axis +-pi/2 by y's sign (x may be
// a negative zero, which flips y / x); at the origin y itself (+-0), or +-pi
// when x is a negative zero, as PyTorch.
void emitAtan2(Context& ctx, Expr y, Expr x, DType t) {
    auto lit = [](double v, DType d) { return Context::scalarLiteral(v, d); };
    Expr a = ctx.emitTemp("atan", {ctx.emitTemp("div", {y, x}, {}, "ratio")}, {}, "atan");
    Expr up = ctx.emitTemp("add", {a, lit(std::numbers::pi, t)}, {}, "plus_pi");
    Expr down = ctx.emitTemp("sub", {a, lit(std::numbers::pi, t)}, {}, "minus_pi");
    Expr yNeg = signBitOf(ctx, y, t, "y");
    Expr xNeg = ctx.emitTemp("lt", {x, lit(0.0, t)}, {}, "x_negative");
    Expr left = ctx.emitTemp("select", {yNeg, down, up}, {}, "left_half");
    Expr r = ctx.emitTemp("select", {xNeg, left, a}, {}, "quadrant");
    Expr atOrigin = ctx.emitTemp(
        "select",
        {signBitOf(ctx, x, t, "x"),
         ctx.emitTemp("select", {yNeg, lit(-std::numbers::pi, t), lit(std::numbers::pi, t)}, {},
                      "pi_toward_y"),
         y},
        {}, "at_origin");
    Expr onYAxis =
        ctx.emitTemp("select", {yNeg, lit(-std::numbers::pi / 2, t), lit(std::numbers::pi / 2, t)},
                     {}, "half_pi_toward_y");
    Expr zeroX = ctx.emitTemp(
        "select", {ctx.emitTemp("eq", {y, lit(0.0, t)}, {}, "y_zero"), atOrigin, onYAxis}, {},
        "x_zero_case");
    emitFinal(ctx, "select", {ctx.emitTemp("eq", {x, lit(0.0, t)}, {}, "x_zero"), zeroX, r}, t);
}

Expr emitStep(Context& ctx, bool last, const std::string& op, std::vector<Expr> args, Kwargs kwargs,
              const std::string& suffix) {
    return last ? ctx.emitOut(op, std::move(args), std::move(kwargs))
                : ctx.emitTemp(op, std::move(args), std::move(kwargs), suffix);
}

std::vector<int64_t> expandInts(std::vector<int64_t> v, size_t n, int64_t fill) {
    if (v.empty())
        return std::vector<int64_t>(n, fill);
    if (v.size() == 1 && n > 1)
        return std::vector<int64_t>(n, v[0]);
    return v;
}

Expr fullWindow(const std::vector<int64_t>& spatial, int64_t rank, int64_t pre) {
    std::vector<int64_t> all(static_cast<size_t>(pre), 1);
    all.insert(all.end(), spatial.begin(), spatial.end());
    all.resize(static_cast<size_t>(rank), 1);
    return Expr::ints(all);
}

Expr paddingPairs(const std::vector<std::pair<int64_t, int64_t>>& spatial, int64_t pre) {
    std::vector<Expr> items;
    for (int64_t i = 0; i < pre; ++i)
        items.push_back(Expr::tuple({Expr::i(0), Expr::i(0)}));
    for (auto [b, a] : spatial)
        items.push_back(Expr::tuple({Expr::i(b), Expr::i(a)}));
    return Expr::array(std::move(items));
}

Kwargs sliceArgs(int64_t axis, int64_t begin, int64_t end, int64_t stride) {
    Kwargs k{
        {"axes", Expr::ints({axis})}, {"begin", Expr::ints({begin})}, {"end", Expr::ints({end})}};
    if (stride != 1)
        k.emplace_back("stride", Expr::ints({stride}));
    return k;
}

std::vector<int64_t> reduceAxes(Context& ctx, std::vector<int64_t> dims, int64_t rank) {
    if (dims.empty())
        for (int64_t i = 0; i < rank; ++i)
            dims.push_back(i);
    for (auto& d : dims)
        d = ctx.axis(d, rank);
    std::sort(dims.begin(), dims.end());
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    return dims;
}

void emitReduce(Context& ctx, const std::string& op, std::vector<int64_t> axes, bool keepdim,
                size_t out, std::optional<DType> compute) {
    const ir::Value& x = ctx.in(0);
    if (rankOf(x) == 0) {
        ctx.bindOut(ctx.input(0), out);
        return;
    }
    Expr e = ctx.operand(ctx.node().inputs[0], rankOf(x), compute.value_or(x.dtype));
    Kwargs k{{"axes", Expr::ints(axes)}};
    if (keepdim) {
        ctx.emitOut(op, {e}, k, out);
        return;
    }
    Expr r = ctx.emitTemp(op, {e}, k, op);
    ctx.emitOut("squeeze", {r}, {{"axes", Expr::ints(axes)}}, out);
}

void requireTract(Context& ctx, std::string_view what, const std::string& why) {
    if (ctx.target().isKhronos() || ctx.target().has(what))
        return;
    const target::TractGate* gate = target::findTractGate(what);
    const std::string versions = gate ? target::describeGate(*gate) : std::string("a newer tract");
    ctx.unsupported(
        fmt::format("{} needs {} ({}), which the target tract version lacks", why, what, versions),
        fmt::format("export for {} (--target tract@X.Y.Z)", versions));
}

namespace {
template <typename T>
Expr table(Context& ctx, DType dtype, const std::vector<T>& values, std::vector<int64_t> shape,
           const std::string& hint) {
    std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(values.data()),
                                     values.size() * sizeof(T));
    return ctx.derivedTensor(TensorData::copyOf(dtype, std::move(shape), bytes), hint);
}
} // namespace

Expr indexTable(Context& ctx, const std::vector<int64_t>& values, std::vector<int64_t> shape,
                const std::string& hint) {
    return table(ctx, DType::I64, values, std::move(shape), hint);
}

Expr rankedOperand(Context& ctx, ir::ValueId id, int64_t rank, DType dtype) {
    const ir::Value& v = ctx.graph().value(id);
    if (v.kind != ir::ValueKind::Tensor || rank == 0 || rankOf(v) > 0)
        return ctx.operand(id, rank, dtype);
    const std::vector<int64_t> ones(static_cast<size_t>(rank), 1);
    if (const auto* d = v.constant ? std::get_if<TensorData>(&*v.constant) : nullptr) {
        TensorData t = d->dtype() == dtype ? *d : convertDType(*d, dtype);
        return ctx.constantTensor(t.reshaped(ones), d->dtype() == dtype ? v.paramName : "",
                                  v.debugName);
    }
    std::vector<int64_t> axes(static_cast<size_t>(rank));
    for (int64_t a = 0; a < rank; ++a)
        axes[static_cast<size_t>(a)] = a;
    return ctx.emitTemp("unsqueeze", {ctx.operand(id, 0, dtype)}, {{"axes", Expr::ints(axes)}},
                        "ranked");
}

Expr erfOf(Context& ctx, Expr x, DType dtype, const std::string& suffix) {
    if (ctx.target().has("tract_core_erf") && !ctx.target().isKhronos())
        return ctx.emitTemp("tract_core_erf", {std::move(x)}, {}, suffix);
    auto lit = [&](double v) { return Context::scalarLiteral(v, dtype); };
    auto step = [&](const char* op, std::vector<Expr> args, const char* name) {
        return ctx.emitTemp(op, std::move(args), {}, suffix + "_" + name);
    };
    // Handbook of Mathematical Functions (1964), 7.1.26.
    constexpr double p = 0.3275911;
    constexpr double a[] = {0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429};
    Expr z = step("abs", {x}, "abs");
    Expr t = step("rcp", {step("add", {step("mul", {z, lit(p)}, "pz"), lit(1.0)}, "den")}, "t");
    Expr poly = lit(a[4]);
    for (int k = 3; k >= 0; --k)
        poly = step("add", {step("mul", {poly, t}, "horner"), lit(a[k])}, "poly");
    poly = step("mul", {poly, t}, "series");
    Expr gauss = step("exp", {step("neg", {step("mul", {z, z}, "sq")}, "negsq")}, "gauss");
    Expr tail = step("mul", {poly, gauss}, "tail");
    Expr magnitude = step("add", {step("neg", {tail}, "negtail"), lit(1.0)}, "magnitude");
    return step("mul", {step("sign", {x}, "sign"), magnitude}, "value");
}

Expr bandMask(Context& ctx, const Expr& rows, const Expr& cols, const Expr& k,
              const std::string& cmp) {
    const Kwargs toI64{{"to", Expr::str("i64")}};
    // Row i holds i + k (a range from k), column j holds j; both cast from
    // tract's TDim items to i64 numbers.
    const bool noOffset = k.kind == Expr::Kind::Integer && k.integer == 0;
    Expr end = noOffset ? rows : Expr::binary("+", rows, k);
    Expr r = ctx.emitTemp("tract_core_range", {k, end, Expr::i(1)}, {}, "band_rows");
    r = ctx.emitTemp("tract_core_cast", {r}, toI64, "band_rows_i64");
    r = ctx.emitTemp("unsqueeze", {r}, {{"axes", Expr::ints({1})}}, "band_column");
    Expr c = ctx.emitTemp("tract_core_range", {Expr::i(0), cols, Expr::i(1)}, {}, "band_cols");
    c = ctx.emitTemp("tract_core_cast", {c}, toI64, "band_cols_i64");
    c = ctx.emitTemp("unsqueeze", {c}, {{"axes", Expr::ints({0})}}, "band_row");
    return ctx.emitTemp(cmp, {c, r}, {}, "band");
}

Expr floatTable(Context& ctx, const std::vector<float>& values, std::vector<int64_t> shape,
                const std::string& hint) {
    return table(ctx, DType::F32, values, std::move(shape), hint);
}

Expr doubleTable(Context& ctx, const std::vector<double>& values, std::vector<int64_t> shape,
                 const std::string& hint) {
    std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(values.data()),
                                     values.size() * sizeof(double));
    return ctx.storedVariable(TensorData::copyOf(DType::F64, std::move(shape), bytes), hint, {});
}

double largestFinite(DType t) {
    if (t == DType::F64)
        return std::numeric_limits<double>::max();
    if (t == DType::F16)
        return 65504.0;
    return static_cast<double>(std::numeric_limits<float>::max());
}

// slice(x, axes=[axis], begin=[b], end=[e] (, stride=[s])) with expressions.
// tract reads symbolic slice bounds since 0.19.6; before, begin and end were
// fixed integers (nnef/src/ops/nnef/deser.rs, `TVec<i64>`).
Kwargs sliceExprs(Context& ctx, int64_t axis, Expr begin, Expr end, int64_t stride) {
    const bool symbolic = begin.kind != Expr::Kind::Integer || end.kind != Expr::Kind::Integer;
    if (symbolic && !ctx.target().has("slice:symbolic-bounds"))
        ctx.unsupported(fmt::format("a slice whose bounds follow a dynamic axis (begin {}, end "
                                    "{}) needs tract 0.19.6 or newer",
                                    nnef::printExpr(begin), nnef::printExpr(end)),
                        "export for --target tract@0.19.6 or newer, or keep this axis static");
    Kwargs k{{"axes", Expr::ints({axis})},
             {"begin", Expr::array({std::move(begin)})},
             {"end", Expr::array({std::move(end)})}};
    if (stride != 1)
        k.emplace_back("stride", Expr::ints({stride}));
    return k;
}

// An index on a dynamic axis: a symbolic argument as its expression, a
// negative constant as (size + index), counted from the axis' symbolic end.
Expr dynamicIndex(Context& ctx, size_t arg, int64_t axis, int64_t fallback) {
    if (ctx.isSymbolic(arg))
        return ctx.sizeArg(arg);
    const int64_t i = ctx.isNone(arg) ? fallback : ctx.intArg(arg);
    if (i >= 0)
        return Expr::i(i);
    return Expr::binary("-", ctx.dimExpr(ctx.node().inputs[0], axis), Expr::i(-i));
}

} // namespace t2n::translate
