// Sorting and order statistics on tract_core_topk, which sorts a whole axis
// when k is its size: tract's Topk is a stable sort (equal values keep their
// order, descending too), as PyTorch's sort(stable=True) and, for distinct
// values, any sort. kthvalue, median and quantile read the sorted axis.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <cmath>
#include <fmt/format.h>

namespace t2n::translate {

namespace {

struct Sorted {
    Expr values, indices;
};

// tract_core_topk over all of `axis` of input 0 (an ascending or descending sort).
Sorted sortAxis(Context& ctx, int64_t axis, bool descending) {
    if (rankOf(ctx.in(0)) == 0)
        ctx.unsupported("sorting a 0-d tensor");
    const int64_t n = ctx.in(0).shape.at(static_cast<size_t>(axis));
    auto res = ctx.emitMulti(
        "tract_core_topk", {ctx.input(0)},
        {{"k", Expr::i(n)}, {"axis", Expr::i(axis)}, {"largest", Expr::b(descending)}},
        {"sorted", "order"});
    return {res.at(0), res.at(1)};
}

// sort(self, dim, descending) and sort(self, stable, dim, descending)
void lowerSort(Context& ctx) {
    const size_t first = ctx.numInputs() == 4 ? 2 : 1;
    const int64_t axis = ctx.axis(ctx.intArg(first), rankOf(ctx.in(0)));
    Sorted s = sortAxis(ctx, axis, ctx.boolArg(first + 1));
    ctx.bindOut(s.values, 0);
    ctx.bindOut(s.indices, 1);
}

// argsort(self, dim, descending) and argsort(self, stable, dim, descending)
void lowerArgsort(Context& ctx) {
    const size_t first = ctx.numInputs() == 4 ? 2 : 1;
    const int64_t axis = ctx.axis(ctx.intArg(first), rankOf(ctx.in(0)));
    ctx.bindOut(sortAxis(ctx, axis, ctx.boolArg(first + 1)).indices);
}

// msort(self): values sorted along axis 0.
void lowerMsort(Context& ctx) {
    ctx.bindOut(sortAxis(ctx, 0, false).values);
}

// Item `k` of the sorted axis, squeezed unless keepdim; outputs values and
// (when the node has them) indices.
void pickSorted(Context& ctx, const Sorted& s, int64_t axis, int64_t k, bool keepdim) {
    auto pick = [&](Expr e, size_t out, const std::string& suffix) {
        if (!keepdim) {
            Expr one = ctx.emitTemp("slice", {e}, sliceArgs(axis, k, k + 1), suffix);
            ctx.emitOut("squeeze", {one}, {{"axes", Expr::ints({axis})}}, out);
        } else {
            ctx.emitOut("slice", {e}, sliceArgs(axis, k, k + 1), out);
        }
    };
    pick(s.values, 0, "value");
    if (ctx.node().outputs.size() > 1)
        pick(s.indices, 1, "index");
}

// kthvalue(self, k, dim, keepdim): the k-th smallest (1-based).
void lowerKthvalue(Context& ctx) {
    const int64_t axis = ctx.axis(ctx.intArg(2), rankOf(ctx.in(0)));
    pickSorted(ctx, sortAxis(ctx, axis, false), axis, ctx.intArg(1) - 1, ctx.boolArg(3));
}

// median(self, dim, keepdim) -> (values, indices): the lower median,
// item (n - 1) / 2 of the ascending axis; median(self): of every element.
void lowerMedian(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    if (ctx.numInputs() == 1) {
        int64_t n = 1;
        for (int64_t d : x.shape)
            n *= d;
        Expr flat = ctx.emitTemp("reshape", {ctx.input(0)}, {{"shape", Expr::ints({n})}}, "flat");
        auto res =
            ctx.emitMulti("tract_core_topk", {flat},
                          {{"k", Expr::i(n)}, {"axis", Expr::i(0)}, {"largest", Expr::b(false)}},
                          {"sorted", "order"});
        Expr one =
            ctx.emitTemp("slice", {res[0]}, sliceArgs(0, (n - 1) / 2, (n - 1) / 2 + 1), "value");
        ctx.emitOut("squeeze", {one}, {{"axes", Expr::ints({0})}});
        return;
    }
    const int64_t axis = ctx.axis(ctx.intArg(1), rankOf(x));
    const int64_t n = x.shape.at(static_cast<size_t>(axis));
    pickSorted(ctx, sortAxis(ctx, axis, false), axis, (n - 1) / 2, ctx.boolArg(2));
}

// quantile(self, q, dim, keepdim, interpolation): for each q, the sorted
// axis at position q (n - 1), interpolated between its neighbours (linear,
// lower, higher, nearest, midpoint, as numpy); q a number or a constant
// 1-D tensor (then a leading axis of the result).
void lowerQuantile(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    std::vector<double> qs;
    const ir::Value& qv = ctx.in(1);
    const bool qTensor = qv.kind == ir::ValueKind::Tensor;
    if (!qTensor) {
        qs.push_back(ctx.floatArg(1));
    } else if (qv.constant && std::holds_alternative<TensorData>(*qv.constant)) {
        const auto& t = std::get<TensorData>(*qv.constant);
        for (int64_t i = 0; i < t.numel(); ++i)
            qs.push_back(t.asDouble(i));
    } else {
        ctx.unsupported("quantile with q computed from input data");
    }
    const bool all = ctx.isNone(2);
    const bool keepdim = ctx.boolArg(3);
    const std::string mode = ctx.numInputs() > 4 ? ctx.stringArg(4) : "linear";
    Expr e = ctx.input(0);
    int64_t axis = 0, n = 1;
    if (all) {
        for (int64_t d : x.shape)
            n *= d;
        e = ctx.emitTemp("reshape", {e}, {{"shape", Expr::ints({n})}}, "flat");
    } else {
        axis = ctx.axis(ctx.intArg(2), rankOf(x));
        n = x.shape.at(static_cast<size_t>(axis));
    }
    auto res =
        ctx.emitMulti("tract_core_topk", {e},
                      {{"k", Expr::i(n)}, {"axis", Expr::i(axis)}, {"largest", Expr::b(false)}},
                      {"sorted", "order"});
    const DType t = ctx.out().dtype;
    std::vector<Expr> parts;
    for (size_t k = 0; k < qs.size(); ++k) {
        const double pos = qs[k] * static_cast<double>(n - 1);
        auto lo = static_cast<int64_t>(std::floor(pos)), hi = static_cast<int64_t>(std::ceil(pos));
        double w = pos - static_cast<double>(lo);
        if (mode == "lower")
            hi = lo, w = 0;
        else if (mode == "higher")
            lo = hi, w = 0;
        else if (mode == "nearest")
            lo = hi = static_cast<int64_t>(std::nearbyint(pos)), w = 0;
        else if (mode == "midpoint")
            w = lo == hi ? 0.0 : 0.5;
        else if (mode != "linear")
            ctx.unsupported(fmt::format("quantile interpolation '{}'", mode));
        const std::string tag = fmt::format("q{}", k);
        Expr a = ctx.emitTemp("slice", {res[0]}, sliceArgs(axis, lo, lo + 1), tag + "_lo");
        Expr v = a;
        if (w != 0.0) {
            Expr b = ctx.emitTemp("slice", {res[0]}, sliceArgs(axis, hi, hi + 1), tag + "_hi");
            Expr d = ctx.emitTemp("sub", {b, a}, {}, tag + "_delta");
            Expr s = ctx.emitTemp("mul", {d, Context::scalarLiteral(w, t)}, {}, tag + "_step");
            v = ctx.emitTemp("add", {a, s}, {}, tag);
        }
        if (!keepdim || all)
            v = ctx.emitTemp("squeeze", {v}, {{"axes", Expr::ints({axis})}}, tag + "_squeezed");
        if (keepdim && all) {
            std::vector<int64_t> ones(x.shape.size(), 1);
            v = ctx.emitTemp("reshape", {v}, {{"shape", Expr::ints(ones)}}, tag + "_kept");
        }
        parts.push_back(v);
    }
    if (!qTensor) {
        ctx.bindOut(parts[0]);
        return;
    }
    ctx.emitOut("stack", {Expr::array(parts)}, {{"axis", Expr::i(0)}});
}

} // namespace

void registerSortOps(Registry& r) {
    r.beginFamily("sort");
    const std::string topk = "tract_core_topk";
    r.add("aten::sort", lowerSort,
          "tract_core_topk over the whole axis (a stable sort, also for stable=False)", topk);
    r.add("aten::argsort", lowerArgsort, "tract_core_topk over the whole axis", topk);
    r.add("aten::msort", lowerMsort, "tract_core_topk over axis 0", topk);
    r.add("aten::kthvalue", lowerKthvalue, "tract_core_topk, then one slice",
          topk + " slice squeeze");
    r.add("aten::median", lowerMedian, "the lower median, as PyTorch; tract_core_topk",
          topk + " slice squeeze reshape");
    r.add("aten::quantile", lowerQuantile,
          "q a number or a constant tensor; every interpolation; tract_core_topk",
          topk + " slice squeeze reshape sub mul add stack");
}

} // namespace t2n::translate
