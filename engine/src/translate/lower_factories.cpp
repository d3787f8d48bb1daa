// Tensors built from sizes: arange, ones / zeros / full / empty and their
// _like and new_ forms, prim::NumToTensor. They are known at export time
// and folded, unless a size changes with a symbolic axis (positions from
// torch.arange(S), a causal mask from torch.ones(S, S)): then they are
// computed in the graph from the symbol (symbolic_sizes.h).
//
// tract reads an integer literal or symbol given for a tensor as a TDim
// constant (nnef/src/deser.rs: CoerceFrom<Value> for OutletId), and
// tract_core_range over TDim gave TDim items before 0.21.12 (i64 after); a
// tract_core_cast to the PyTorch dtype after each makes the items concrete
// numbers of the right type in every version (cast from TDim evaluates the
// symbols, core/src/ops/cast.rs).
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <cmath>
#include <optional>

#include <fmt/format.h>

namespace t2n::translate {

namespace {

Expr castTo(Context& ctx, Expr e, DType to, bool last, const std::string& suffix) {
    return emitStep(ctx, last, "tract_core_cast", {std::move(e)},
                    {{"to", Expr::str(std::string(dtypeName(to)))}}, suffix);
}

// arange(end, dtype, layout, device, pin_memory), arange(start, end, ...),
// arange(start, end, step, ...): tract_core_range over integer sizes. A
// float bound or step with a whole value (arange(S - 1, -1, -1.0), the
// relative positions of Transformer-XL) is that integer. A negative step is
// written as start + step * range(0, n) with n = (start - end - step - 1) /
// -step, a count that stays a size expression.
void lowerArange(Context& ctx) {
    const size_t n = ctx.numInputs();
    const size_t bounds = n >= 7 ? 3 : n == 6 ? 2 : 1;
    std::vector<Expr> args;
    std::vector<std::optional<int64_t>> known;
    for (size_t i = 0; i < bounds; ++i) {
        if (!ctx.isSymbolic(i) && ctx.in(i).kind == ir::ValueKind::Float) {
            const double v = ctx.floatArg(i);
            if (v != std::floor(v))
                ctx.unsupported("arange over a dynamic axis with a fractional bound or step",
                                "t2n computes arange(S) and arange(a, S, k) with whole bounds");
            args.push_back(Expr::i(static_cast<int64_t>(v)));
            known.push_back(static_cast<int64_t>(v));
            continue;
        }
        args.push_back(ctx.sizeArg(i, true)); // a min/max of sizes as a number (sizeExpr)
        known.push_back(ctx.isSymbolic(i) ? std::nullopt : std::optional(ctx.intArg(i)));
    }
    Expr start = bounds > 1 ? args[0] : Expr::i(0);
    Expr end = args[bounds > 1 ? 1 : 0];
    const int64_t step = bounds > 2 && known[2] ? *known[2] : 1;
    if (bounds > 2 && !known[2])
        ctx.unsupported("arange whose step follows a dynamic axis");
    if (step > 0) {
        Expr range = ctx.emitTemp("tract_core_range", {start, end, Expr::i(step)}, {}, "range");
        castTo(ctx, range, ctx.out().dtype, true, "cast");
        return;
    }
    if (step == 0)
        ctx.unsupported("arange with step 0");
    const DType dt = ctx.out().dtype;
    Expr count = end.kind != Expr::Kind::Integer ? Expr::binary("-", start, end)
                 : end.integer < 0               ? Expr::binary("+", start, Expr::i(-end.integer))
                 : end.integer > 0               ? Expr::binary("-", start, end)
                                                 : start;
    if (step != -1)
        count = Expr::binary("/", Expr::binary("+", count, Expr::i(-step - 1)), Expr::i(-step));
    Expr range = ctx.emitTemp("tract_core_range", {Expr::i(0), count, Expr::i(1)}, {}, "range");
    range = castTo(ctx, range, dt, false, "cast");
    Expr first = bounds > 1 && ctx.isSymbolic(0)
                     ? ctx.sizeTensor(ctx.node().inputs[0], dt)
                     : Context::scalarLiteral(static_cast<double>(known[0].value_or(0)), dt);
    Expr scaled =
        ctx.emitTemp("mul", {range, Context::scalarLiteral(double(step), dt)}, {}, "steps");
    ctx.emitOut("add", {first, scaled});
}

// The value a filled tensor holds, as a literal of its kind.
Expr fillValue(Context& ctx, const std::string& kind, size_t fillArg) {
    const DType dt = ctx.out().dtype;
    double v = 0;
    if (kind.find("ones") != std::string::npos)
        v = 1;
    else if (kind.find("full") != std::string::npos)
        v = ctx.floatArg(fillArg);
    return Context::scalarLiteral(v, dt);
}

// ones / zeros / full / empty (sizes), *_like(x) (x's dims), new_*(self, sizes):
// tract_core_broadcast of the fill value to the symbolic shape. empty is
// written as zeros: its contents are unspecified.
void lowerFilled(Context& ctx) {
    const std::string& kind = ctx.node().kind;
    const ir::Value& y = ctx.out();
    std::vector<Expr> shape;
    size_t fillArg = 1;
    if (kind.ends_with("_like")) {
        for (int64_t d = 0; d < rankOf(y); ++d)
            shape.push_back(ctx.dimExpr(ctx.node().inputs[0], d));
    } else if (kind.starts_with("aten::new_")) {
        shape = ctx.sizesArg(1);
        fillArg = 2;
    } else {
        shape = ctx.sizesArg(0);
    }
    Expr value = fillValue(ctx, kind, fillArg);
    // An integer literal is a TDim constant in tract: cast the items to the
    // dtype; a scalar literal is f32.
    const bool exact = (y.dtype == DType::F32 && value.kind == Expr::Kind::Scalar) ||
                       (y.dtype == DType::Bool && value.kind == Expr::Kind::Logical);
    // A non-finite fill stays a scalar: NNEF has no infinity inside a list
    // (nonfinite.cpp makes the scalar a variable where the target needs one).
    const bool finite = value.kind != Expr::Kind::Scalar || std::isfinite(value.scalar);
    const auto rank = finite ? static_cast<int64_t>(shape.size()) : 0;
    Expr filled = emitStep(ctx, exact, "tract_core_broadcast", {unitTensorLiteral(value, rank)},
                           {{"shape", Expr::array(std::move(shape))}}, "filled");
    if (!exact)
        castTo(ctx, filled, y.dtype, true, "cast");
}

// prim::NumToTensor / scalar_tensor(s, dtype, ...): a size as a 0-d tensor.
void lowerNumToTensor(Context& ctx) {
    ctx.bindOut(ctx.sizeTensor(ctx.node().inputs.at(0), ctx.out().dtype));
}

// float(t) of a one-element tensor of the data, kept as that tensor
// (numbers_from_tensors.h: only elementwise operations and outputs read it),
// as a 0-d tensor; a number (a size that follows a symbol) is handed on.
void lowerNumberOfTensor(Context& ctx) {
    const ir::Value& in = ctx.in(0);
    if (in.kind != ir::ValueKind::Tensor) {
        ctx.bindOut(ctx.tensor(ctx.node().inputs[0]));
        return;
    }
    Expr e = ctx.input(0);
    if (rankOf(in) > 0) {
        std::vector<int64_t> axes(static_cast<size_t>(rankOf(in)));
        for (size_t i = 0; i < axes.size(); ++i)
            axes[i] = static_cast<int64_t>(i);
        e = ctx.emitTemp("squeeze", {e}, {{"axes", Expr::ints(axes)}}, "number");
    }
    ctx.bindOut(e);
}

} // namespace

void registerFactoryOps(Registry& r) {
    r.beginFamily("factories");
    const char* note = "folded; computed in the graph when a size follows a dynamic axis";
    r.add("aten::arange", lowerArange,
          std::string(note) +
              " (tract_core_range; whole float bounds; a negative step as start + step * "
              "range)",
          "+tract_core_range +tract_core_cast +mul +add");
    for (const char* k :
         {"aten::ones", "aten::zeros", "aten::full", "aten::empty", "aten::ones_like",
          "aten::zeros_like", "aten::full_like", "aten::empty_like", "aten::new_ones",
          "aten::new_zeros", "aten::new_full", "aten::new_empty"})
        r.add(k, lowerFilled, std::string(note) + " (tract_core_broadcast)",
              "+tract_core_broadcast");
    r.add("prim::NumToTensor", lowerNumToTensor, std::string(note) + " (tract_core_cast)", "-");
    r.add("aten::scalar_tensor", lowerNumToTensor, std::string(note) + " (tract_core_cast)", "-");
    // The number kinds are folded (frozen, with a warning, when they read
    // data) unless numbers_from_tensors.cpp keeps them as tensors.
    for (const char* k : {"aten::Float", "aten::FloatImplicit"})
        r.add(k, lowerNumberOfTensor,
              "a number taken from a one-element tensor of the data, read only by elementwise "
              "operations or returned: kept as a 0-d tensor; otherwise frozen at its example "
              "value",
              "+squeeze");
}

} // namespace t2n::translate
