// Reductions. NNEF reductions keep the reduced axes (size 1); PyTorch's
// keepdim=False is a squeeze afterwards.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>

namespace t2n::translate {

namespace {

// mean/sum(x[, dims, keepdim][, dtype]): the single-argument forms reduce all.
template <const char* Op> void lowerSumLike(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> axes = reduceAxes(ctx, {}, r);
    bool keep = false;
    // (x, dtype) has an int or None second argument; (x, dims, keepdim, ...)
    // a list, or None for "all axes" followed by keepdim.
    if (ctx.numInputs() > 2 && ctx.in(2).kind == ir::ValueKind::Bool) {
        if (ctx.in(1).kind == ir::ValueKind::IntList)
            axes = reduceAxes(ctx, ctx.intsArg(1), r);
        keep = ctx.boolArg(2);
    }
    emitReduce(ctx, Op, axes, keep, 0, ctx.out().dtype);
}

// max/min(x) over everything, max/min(x, dim, keepdim) -> (values, indices),
// and max/min(x, other) element-wise.
template <const char* Reduce, const char* Arg, const char* Binary> void lowerMaxLike(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (ctx.numInputs() == 1) {
        emitReduce(ctx, Reduce, reduceAxes(ctx, {}, r), false);
        return;
    }
    if (ctx.in(1).kind == ir::ValueKind::Tensor) {
        emitBinary(ctx, Binary);
        return;
    }
    std::vector<int64_t> axes{ctx.axis(ctx.intArg(1), r)};
    bool keep = ctx.numInputs() > 2 && ctx.boolArg(2);
    emitReduce(ctx, Reduce, axes, keep, 0);
    if (ctx.node().outputs.size() > 1 && ctx.isUsed(ctx.node().outputs[1]))
        emitReduce(ctx, Arg, axes, keep, 1);
}

// amax/amin(x, dims, keepdim)
template <const char* Reduce> void lowerAmax(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    emitReduce(ctx, Reduce, reduceAxes(ctx, ctx.intsArg(1), r),
               ctx.numInputs() > 2 && ctx.boolArg(2));
}

// argmax/argmin(x, dim, keepdim); without dim over the flattened tensor.
template <const char* Arg> void lowerArgmax(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (ctx.isNone(1)) {
        Expr flat = ctx.emitTemp("reshape", {ctx.input(0)}, {{"shape", Expr::ints({-1})}}, "flat");
        Expr a = ctx.emitTemp(Arg, {flat}, {{"axes", Expr::ints({0})}}, "arg");
        if (ctx.numInputs() > 2 && ctx.boolArg(2))
            ctx.emitOut("reshape", {a}, {{"shape", Expr::ints(std::vector<int64_t>(r, 1))}});
        else
            ctx.emitOut("squeeze", {a}, {{"axes", Expr::ints({0})}});
        return;
    }
    emitReduce(ctx, Arg, {ctx.axis(ctx.intArg(1), r)}, ctx.numInputs() > 2 && ctx.boolArg(2));
}

// count_nonzero(x, dims?): x != 0 counted (as i64) over dims, all when None.
void lowerCountNonzero(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    std::vector<int64_t> dims;
    if (ctx.numInputs() > 1 && !ctx.isNone(1))
        dims = ctx.intsArg(1);
    const std::vector<int64_t> axes = reduceAxes(ctx, dims, r);
    Expr zero = Context::scalarLiteral(0.0, x.dtype);
    Expr nz = ctx.emitTemp("ne", {ctx.input(0), zero}, {}, "nonzero");
    Expr counted = ctx.cast(nz, DType::Bool, ctx.out().dtype, "counted");
    if (r == 0) {
        ctx.emitOut("copy", {counted});
        return;
    }
    Expr s = ctx.emitTemp("sum_reduce", {counted}, {{"axes", Expr::ints(axes)}}, "count");
    ctx.emitOut("squeeze", {s}, {{"axes", Expr::ints(axes)}});
}

// aminmax(x, dim?, keepdim) -> (min, max) over dim, or over everything.
void lowerAminmax(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const bool all = ctx.numInputs() < 2 || ctx.isNone(1);
    const std::vector<int64_t> axes =
        all ? reduceAxes(ctx, {}, r) : std::vector<int64_t>{ctx.axis(ctx.intArg(1), r)};
    const bool keep = ctx.numInputs() > 2 && ctx.boolArg(2);
    emitReduce(ctx, "min_reduce", axes, keep, 0);
    emitReduce(ctx, "max_reduce", axes, keep, 1);
}

constexpr char kMean[] = "mean_reduce", kSum[] = "sum_reduce", kMaxR[] = "max_reduce",
               kMinR[] = "min_reduce", kArgMax[] = "argmax_reduce", kArgMin[] = "argmin_reduce";

} // namespace

void registerReduceOps(Registry& r) {
    r.beginFamily("reduce");
    r.add("aten::mean", lowerSumLike<kMean>, "over all, one or several axes");
    r.add("aten::sum", lowerSumLike<kSum>, "over all, one or several axes");
    r.add("aten::max", lowerMaxLike<kMaxR, kArgMax, kMax>, "values and indices, or element-wise");
    r.add("aten::min", lowerMaxLike<kMinR, kArgMin, kMin>, "values and indices, or element-wise");
    r.add("aten::amax", lowerAmax<kMaxR>);
    r.add("aten::amin", lowerAmax<kMinR>);
    r.add("aten::argmax", lowerArgmax<kArgMax>);
    r.add("aten::argmin", lowerArgmax<kArgMin>);
    r.add("aten::count_nonzero", lowerCountNonzero, "over all, one or several axes",
          "ne sum_reduce +squeeze +copy");
    r.add("aten::aminmax", lowerAminmax, "over all or one axis",
          "+min_reduce +max_reduce +squeeze");
}

} // namespace t2n::translate
