// Losses, after PyTorch 1.13's definitions (aten/src/ATen/native/Loss.cpp,
// LossNLL.cpp, BinaryCrossEntropy.cpp): an element-wise loss, then the
// reduction argument (PyTorch's Reduction enum: 0 none, 1 mean, 2 sum). The
// class-index losses (nll_loss*, cross_entropy_loss) pick x[n, target[n]]
// with a one-hot comparison against the class numbers, so the class axis
// must be static; an ignored class (ignore_index) has weight 0.
#include "translate/lower_util.h"
#include "translate/norms.h"
#include "translate/registry.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

namespace t2n::translate {

namespace {

std::vector<int64_t> allAxes(int64_t rank) {
    std::vector<int64_t> axes(static_cast<size_t>(rank));
    std::iota(axes.begin(), axes.end(), int64_t{0});
    return axes;
}

// The rank the element-wise loss has: the output's without reduction, else
// the largest of the tensor inputs (PyTorch broadcasts them).
int64_t lossRank(Context& ctx, int64_t reduction) {
    if (reduction == 0)
        return rankOf(ctx.out());
    int64_t r = 0;
    for (size_t i = 0; i < ctx.numInputs(); ++i)
        if (ctx.in(i).kind == ir::ValueKind::Tensor)
            r = std::max(r, rankOf(ctx.in(i)));
    return r;
}

int64_t reductionArg(Context& ctx, size_t i) {
    const int64_t reduction = ctx.intArg(i);
    if (reduction < 0 || reduction > 2)
        ctx.unsupported(fmt::format("loss reduction {}", reduction));
    return reduction;
}

// The element-wise loss `loss` (of rank `rank`) reduced as asked, as the output.
void finishLoss(Context& ctx, Expr loss, int64_t rank, int64_t reduction) {
    if (reduction == 0 || rank == 0) {
        ctx.bindOut(loss);
        return;
    }
    const std::vector<int64_t> axes = allAxes(rank);
    Expr r = ctx.emitTemp(reduction == 1 ? "mean_reduce" : "sum_reduce", {loss},
                          {{"axes", Expr::ints(axes)}}, "reduced");
    ctx.emitOut("squeeze", {r}, {{"axes", Expr::ints(axes)}});
}

// Input i of a loss at `rank` in the output's dtype.
Expr at(Context& ctx, size_t i, int64_t rank) {
    return ctx.operand(ctx.node().inputs.at(i), rank, ctx.out().dtype);
}

// The (input, target, reduction[, parameter]) losses of a difference d = x - y.
enum class DiffLoss { Squared, Absolute, SmoothL1, Huber };

template <DiffLoss L> void lowerDiffLoss(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t reduction = reductionArg(ctx, 2);
    const int64_t r = lossRank(ctx, reduction);
    Expr d = ctx.emitTemp("sub", {at(ctx, 0, r), at(ctx, 1, r)}, {}, "diff");
    Expr loss;
    if (L == DiffLoss::Squared) {
        loss = ctx.emitTemp("mul", {d, d}, {}, "loss");
    } else {
        Expr ad = ctx.emitTemp("abs", {d}, {}, "abs");
        // smooth_l1: |d| < beta ? 0.5 d^2 / beta : |d| - 0.5 beta (l1 for beta 0);
        // huber: |d| < delta ? 0.5 d^2 : delta (|d| - 0.5 delta).
        const double k = L == DiffLoss::Absolute ? 0.0 : ctx.floatArg(3);
        if (L == DiffLoss::Absolute || (L == DiffLoss::SmoothL1 && k == 0.0)) {
            loss = ad;
        } else {
            Expr half =
                ctx.emitTemp("mul", {ctx.emitTemp("mul", {d, d}, {}, "squared"), lit(0.5, t)}, {},
                             "half_squared");
            Expr quad =
                L == DiffLoss::SmoothL1 ? ctx.emitTemp("div", {half, lit(k, t)}, {}, "quad") : half;
            Expr linear = ctx.emitTemp("sub", {ad, lit(0.5 * k, t)}, {}, "linear");
            if (L == DiffLoss::Huber)
                linear = ctx.emitTemp("mul", {linear, lit(k, t)}, {}, "linear_scaled");
            loss = ctx.emitTemp("select",
                                {ctx.emitTemp("lt", {ad, lit(k, t)}, {}, "inner"), quad, linear},
                                {}, "loss");
        }
    }
    finishLoss(ctx, loss, r, reduction);
}

// kl_div(x, target, reduction, log_target): exp(t) (t - x) for log targets,
// else xlogy(t, t) - t x (0 where t == 0).
void lowerKlDiv(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t reduction = reductionArg(ctx, 2);
    const int64_t r = lossRank(ctx, reduction);
    Expr x = at(ctx, 0, r), y = at(ctx, 1, r);
    Expr loss;
    if (ctx.numInputs() > 3 && ctx.boolArg(3)) {
        loss = ctx.emitTemp(
            "mul",
            {ctx.emitTemp("exp", {y}, {}, "target_exp"), ctx.emitTemp("sub", {y, x}, {}, "diff")},
            {}, "loss");
    } else {
        Expr ylogy = ctx.emitTemp("mul", {y, ctx.emitTemp("log", {y}, {}, "target_log")}, {},
                                  "target_log_target");
        Expr xlogy = ctx.emitTemp(
            "select", {ctx.emitTemp("eq", {y, lit(0.0, t)}, {}, "target_zero"), lit(0.0, t), ylogy},
            {}, "xlogy");
        loss = ctx.emitTemp("sub", {xlogy, ctx.emitTemp("mul", {y, x}, {}, "cross")}, {}, "loss");
    }
    finishLoss(ctx, loss, r, reduction);
}

// soft_margin_loss(x, y, reduction) = log(1 + exp(-y x))
void lowerSoftMargin(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t reduction = reductionArg(ctx, 2);
    const int64_t r = lossRank(ctx, reduction);
    Expr e = ctx.emitTemp(
        "exp",
        {ctx.emitTemp("neg", {ctx.emitTemp("mul", {at(ctx, 0, r), at(ctx, 1, r)}, {}, "yx")}, {},
                      "minus_yx")},
        {}, "exp");
    finishLoss(
        ctx,
        ctx.emitTemp("log", {ctx.emitTemp("add", {e, lit(1.0, t)}, {}, "plus_one")}, {}, "loss"), r,
        reduction);
}

// margin_ranking_loss(x1, x2, target, margin, reduction) =
// max(0, -target (x1 - x2) + margin)
void lowerMarginRanking(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t reduction = reductionArg(ctx, 4);
    const int64_t r = lossRank(ctx, reduction);
    Expr d = ctx.emitTemp("sub", {at(ctx, 0, r), at(ctx, 1, r)}, {}, "diff");
    Expr m = ctx.emitTemp(
        "sub", {lit(ctx.floatArg(3), t), ctx.emitTemp("mul", {at(ctx, 2, r), d}, {}, "signed")}, {},
        "margin");
    finishLoss(ctx, ctx.emitTemp("max", {m, lit(0.0, t)}, {}, "loss"), r, reduction);
}

// hinge_embedding_loss(x, target, margin, reduction): max(0, margin - x)
// where target != 1, plus x where target != -1.
void lowerHingeEmbedding(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t reduction = reductionArg(ctx, 3);
    const int64_t r = lossRank(ctx, reduction);
    Expr x = at(ctx, 0, r), y = at(ctx, 1, r);
    Expr clamped = ctx.emitTemp(
        "max", {ctx.emitTemp("sub", {lit(ctx.floatArg(2), t), x}, {}, "margin"), lit(0.0, t)}, {},
        "clamped");
    Expr a = ctx.emitTemp(
        "select", {ctx.emitTemp("ne", {y, lit(1.0, t)}, {}, "not_one"), clamped, lit(0.0, t)}, {},
        "margin_part");
    Expr b = ctx.emitTemp(
        "select", {ctx.emitTemp("ne", {y, lit(-1.0, t)}, {}, "not_minus_one"), x, lit(0.0, t)}, {},
        "input_part");
    finishLoss(ctx, ctx.emitTemp("add", {a, b}, {}, "loss"), r, reduction);
}

// cosine_embedding_loss(x1, x2, target, margin, reduction): cos = <x1, x2> /
// sqrt((|x1|^2 + 1e-12)(|x2|^2 + 1e-12)) over the last axis; 1 - cos where
// target == 1, max(0, cos - margin) where target == -1, else 0.
void lowerCosineEmbedding(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t reduction = reductionArg(ctx, 4);
    const int64_t rt = rankOf(ctx.in(2)), r = rt + 1;
    if (rankOf(ctx.in(0)) != r || rankOf(ctx.in(1)) != r)
        ctx.unsupported("cosine_embedding_loss with inputs of unequal ranks");
    Expr a = at(ctx, 0, r), b = at(ctx, 1, r);
    Kwargs k{{"axes", Expr::ints({rt})}};
    auto sumSq = [&](Expr u, Expr v, const std::string& tag) {
        return ctx.emitTemp(
            "squeeze",
            {ctx.emitTemp("sum_reduce", {ctx.emitTemp("mul", {u, v}, {}, tag + "_prod")}, k,
                          tag + "_sum")},
            k, tag);
    };
    Expr dot = sumSq(a, b, "dot");
    Expr m1 = ctx.emitTemp("add", {sumSq(a, a, "mag1"), lit(1e-12, t)}, {}, "mag1_eps");
    Expr m2 = ctx.emitTemp("add", {sumSq(b, b, "mag2"), lit(1e-12, t)}, {}, "mag2_eps");
    Expr cos = ctx.emitTemp(
        "div",
        {dot, ctx.emitTemp("sqrt", {ctx.emitTemp("mul", {m1, m2}, {}, "mags")}, {}, "denom")}, {},
        "cos");
    Expr y = at(ctx, 2, rt);
    Expr pos =
        ctx.emitTemp("select",
                     {ctx.emitTemp("eq", {y, lit(1.0, t)}, {}, "positive"),
                      ctx.emitTemp("sub", {lit(1.0, t), cos}, {}, "one_minus_cos"), lit(0.0, t)},
                     {}, "positive_part");
    Expr neg = ctx.emitTemp(
        "select",
        {ctx.emitTemp("eq", {y, lit(-1.0, t)}, {}, "negative"),
         ctx.emitTemp(
             "max", {ctx.emitTemp("sub", {cos, lit(ctx.floatArg(3), t)}, {}, "over"), lit(0.0, t)},
             {}, "clamped"),
         lit(0.0, t)},
        {}, "negative_part");
    finishLoss(ctx, ctx.emitTemp("add", {pos, neg}, {}, "loss"), rt, reduction);
}

// triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
// reduction) = max(0, margin + d(a, p) - d(a, n)), d(u, v) the p-norm of
// u - v + eps over the last axis; with swap, d(a, n) is min(d(a, n), d(p, n)).
void lowerTripletMargin(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t reduction = reductionArg(ctx, 7);
    int64_t r = 0;
    for (size_t i = 0; i < 3; ++i)
        r = std::max(r, rankOf(ctx.in(i)));
    if (r == 0)
        ctx.unsupported("triplet_margin_loss of 0-d inputs");
    const double p = ctx.floatArg(4), eps = ctx.floatArg(5);
    auto dist = [&](size_t i, size_t j, const std::string& tag) {
        Expr d = ctx.emitTemp(
            "add",
            {ctx.emitTemp("sub", {at(ctx, i, r), at(ctx, j, r)}, {}, tag + "_diff"), lit(eps, t)},
            {}, tag + "_eps");
        return ctx.emitTemp("squeeze", {vectorNormOf(ctx, d, p, {r - 1}, t, tag + "_norm")},
                            {{"axes", Expr::ints({r - 1})}}, tag);
    };
    Expr dp = dist(0, 1, "positive"), dn = dist(0, 2, "negative");
    if (ctx.boolArg(6))
        dn = ctx.emitTemp("min", {dn, dist(1, 2, "swap")}, {}, "negative_swapped");
    Expr m = ctx.emitTemp(
        "sub", {ctx.emitTemp("add", {dp, lit(ctx.floatArg(3), t)}, {}, "margin"), dn}, {}, "gap");
    finishLoss(ctx, ctx.emitTemp("max", {m, lit(0.0, t)}, {}, "loss"), r - 1, reduction);
}

// Multiplies `loss` by the optional weight input i (broadcast to `rank`).
Expr weighted(Context& ctx, Expr loss, size_t i, int64_t rank) {
    if (ctx.numInputs() <= i || ctx.isNone(i))
        return loss;
    return ctx.emitTemp("mul", {loss, at(ctx, i, rank)}, {}, "weighted");
}

// binary_cross_entropy(x, y, weight?, reduction) =
// -w (y max(log x, -100) + (1 - y) max(log(1 - x), -100))
void lowerBinaryCrossEntropy(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t reduction = reductionArg(ctx, 3);
    const int64_t r = lossRank(ctx, reduction);
    Expr x = at(ctx, 0, r), y = at(ctx, 1, r);
    Expr logX = ctx.emitTemp("max", {ctx.emitTemp("log", {x}, {}, "log"), lit(-100.0, t)}, {},
                             "log_clamped");
    Expr log1mX = ctx.emitTemp(
        "max",
        {ctx.emitTemp("log", {ctx.emitTemp("sub", {lit(1.0, t), x}, {}, "one_minus")}, {}, "log1m"),
         lit(-100.0, t)},
        {}, "log1m_clamped");
    // (y - 1) log(1 - x) - y log(x), PyTorch's order of operations.
    Expr a = ctx.emitTemp("mul", {ctx.emitTemp("sub", {y, lit(1.0, t)}, {}, "y_minus_one"), log1mX},
                          {}, "negative_term");
    Expr loss =
        ctx.emitTemp("sub", {a, ctx.emitTemp("mul", {y, logX}, {}, "positive_term")}, {}, "loss");
    finishLoss(ctx, weighted(ctx, loss, 2, r), r, reduction);
}

// binary_cross_entropy_with_logits(x, y, weight?, pos_weight?, reduction):
// (1 - y) x + l (log(exp(-m) + exp(-x - m)) + m), m = max(-x, 0), l = 1 +
// (pos_weight - 1) y (1 without pos_weight); times weight.
void lowerBinaryCrossEntropyLogits(Context& ctx) {
    const DType t = ctx.out().dtype;
    const int64_t reduction = reductionArg(ctx, 4);
    const int64_t r = lossRank(ctx, reduction);
    Expr x = at(ctx, 0, r), y = at(ctx, 1, r);
    Expr m =
        ctx.emitTemp("max", {ctx.emitTemp("neg", {x}, {}, "minus_x"), lit(0.0, t)}, {}, "max_val");
    Expr e1 = ctx.emitTemp("exp", {ctx.emitTemp("neg", {m}, {}, "minus_max")}, {}, "exp_max");
    Expr e2 = ctx.emitTemp(
        "exp", {ctx.emitTemp("sub", {ctx.emitTemp("neg", {x}, {}, "minus_x2"), m}, {}, "shifted")},
        {}, "exp_shifted");
    Expr soft = ctx.emitTemp(
        "add", {ctx.emitTemp("log", {ctx.emitTemp("add", {e1, e2}, {}, "sum_exp")}, {}, "log"), m},
        {}, "softplus");
    if (ctx.numInputs() > 3 && !ctx.isNone(3)) {
        Expr lw = ctx.emitTemp(
            "add",
            {ctx.emitTemp(
                 "mul", {ctx.emitTemp("sub", {at(ctx, 3, r), lit(1.0, t)}, {}, "pos_weight_m1"), y},
                 {}, "pos_scaled"),
             lit(1.0, t)},
            {}, "log_weight");
        soft = ctx.emitTemp("mul", {lw, soft}, {}, "softplus_weighted");
    }
    Expr lin = ctx.emitTemp("mul", {ctx.emitTemp("sub", {lit(1.0, t), y}, {}, "one_minus_y"), x},
                            {}, "linear");
    Expr loss = ctx.emitTemp("add", {lin, soft}, {}, "loss");
    finishLoss(ctx, weighted(ctx, loss, 2, r), r, reduction);
}

// --- class-index losses ---------------------------------------------------------

// The class axis of a (N, C, d...) input, or 0 for a (C) one; its size static.
int64_t classAxis(Context& ctx, int64_t& classes) {
    const ir::Value& x = ctx.in(0);
    const int64_t axis = rankOf(x) == 1 ? 0 : 1;
    if (rankOf(x) == 0)
        ctx.unsupported(fmt::format("{} of a 0-d input", ctx.node().kind));
    if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(axis)].empty())
        ctx.unsupported(fmt::format("{} over a dynamic class axis", ctx.node().kind),
                        "the classes are compared with a table of their numbers");
    classes = x.shape[static_cast<size_t>(axis)];
    return axis;
}

struct Picked {
    Expr value;  ///< x at the target class, class axis kept (size 1)
    Expr weight; ///< the target's class weight (0 for ignore_index), same shape
};

// x[n, target[n], ...] and weight[target[n]] through a one-hot comparison of
// the target (unsqueezed at the class axis) with the class numbers.
Picked pickTarget(Context& ctx, Expr logp, int64_t axis, int64_t classes, size_t weightArg,
                  int64_t ignoreIndex) {
    const DType t = ctx.out().dtype;
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> tableShape(static_cast<size_t>(r), 1);
    tableShape[static_cast<size_t>(axis)] = classes;
    std::vector<int64_t> numbers(static_cast<size_t>(classes));
    std::iota(numbers.begin(), numbers.end(), int64_t{0});
    Expr target = ctx.emitTemp("unsqueeze", {ctx.operand(ctx.node().inputs[1], r - 1, DType::I64)},
                               {{"axes", Expr::ints({axis})}}, "target");
    Expr hot = ctx.emitTemp("eq", {target, indexTable(ctx, numbers, tableShape, "classes")}, {},
                            "one_hot");
    Kwargs k{{"axes", Expr::ints({axis})}};
    Expr value = ctx.emitTemp("sum_reduce",
                              {ctx.emitTemp("select", {hot, logp, lit(0.0, t)}, {}, "hot_values")},
                              k, "picked");
    // The class weights, the ignored class zeroed.
    std::vector<float> keep(static_cast<size_t>(classes), 1.0f);
    if (ignoreIndex >= 0 && ignoreIndex < classes)
        keep[static_cast<size_t>(ignoreIndex)] = 0.0f;
    Expr w = floatTable(ctx, keep, tableShape, "class_keep");
    if (ctx.numInputs() > weightArg && !ctx.isNone(weightArg)) {
        Expr given = ctx.emitTemp("reshape", {ctx.input(weightArg)},
                                  {{"shape", Expr::ints(tableShape)}}, "class_weight");
        w = ctx.emitTemp("mul", {given, w}, {}, "class_weight_kept");
    }
    Expr weight = ctx.emitTemp("sum_reduce",
                               {ctx.emitTemp("select", {hot, w, lit(0.0, t)}, {}, "hot_weights")},
                               k, "target_weight");
    return {value, weight};
}

// -w[t] x[n, t] per element (class axis squeezed), reduced: the mean divides
// by the sum of the weights of the targets, as PyTorch.
void finishNll(Context& ctx, const Picked& p, int64_t axis, int64_t reduction, double scale,
               std::optional<Expr> extra) {
    const DType t = ctx.out().dtype;
    const int64_t r = rankOf(ctx.in(0));
    Expr loss =
        ctx.emitTemp("neg", {ctx.emitTemp("mul", {p.value, p.weight}, {}, "weighted")}, {}, "nll");
    if (scale != 1.0)
        loss = ctx.emitTemp("mul", {loss, lit(scale, t)}, {}, "nll_scaled");
    if (extra)
        loss = ctx.emitTemp("add", {loss, *extra}, {}, "nll_smoothed");
    if (reduction == 0) {
        ctx.emitOut("squeeze", {loss}, {{"axes", Expr::ints({axis})}});
        return;
    }
    const std::vector<int64_t> axes = allAxes(r);
    Kwargs k{{"axes", Expr::ints(axes)}};
    Expr sum = ctx.emitTemp("sum_reduce", {loss}, k, "sum");
    if (reduction == 1)
        sum = ctx.emitTemp("div", {sum, ctx.emitTemp("sum_reduce", {p.weight}, k, "weight_sum")},
                           {}, "mean");
    ctx.emitOut("squeeze", {sum}, k);
}

// nll_loss / nll_loss2d / nll_loss_nd(x, target, weight?, reduction, ignore_index)
void lowerNllLoss(Context& ctx) {
    int64_t classes = 0;
    const int64_t axis = classAxis(ctx, classes);
    const int64_t reduction = reductionArg(ctx, 3);
    Expr x = ctx.operand(ctx.node().inputs[0], rankOf(ctx.in(0)), ctx.out().dtype);
    finishNll(ctx, pickTarget(ctx, x, axis, classes, 2, ctx.intArg(4)), axis, reduction, 1.0, {});
}

// log_softmax over the class axis: x - (log(sum(exp(x - max))) + max).
Expr logSoftmaxOf(Context& ctx, Expr x, int64_t axis) {
    Kwargs k{{"axes", Expr::ints({axis})}};
    Expr m = ctx.emitTemp("max_reduce", {x}, k, "max");
    Expr s = ctx.emitTemp("sub", {x, m}, {}, "shifted");
    Expr lse = ctx.emitTemp(
        "log", {ctx.emitTemp("sum_reduce", {ctx.emitTemp("exp", {s}, {}, "exp")}, k, "sum_exp")},
        {}, "log_sum_exp");
    return ctx.emitTemp("sub", {s, lse}, {}, "log_probs");
}

// cross_entropy_loss(x, target, weight?, reduction, ignore_index,
// label_smoothing): class indices are nll_loss of log_softmax, mixed with
// label_smoothing / C times the summed -w log p of each element (0 where the
// target is ignored);
// probabilities are -sum(w y' log p) over the classes, y' the smoothed
// target, the mean dividing by the element count.
void lowerCrossEntropy(Context& ctx) {
    const DType t = ctx.out().dtype;
    int64_t classes = 0;
    const int64_t axis = classAxis(ctx, classes);
    const int64_t reduction = reductionArg(ctx, 3);
    const double smoothing = ctx.floatArg(5);
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> classShape(static_cast<size_t>(r), 1);
    classShape[static_cast<size_t>(axis)] = classes;
    Expr logp = logSoftmaxOf(ctx, ctx.operand(ctx.node().inputs[0], r, t), axis);
    const bool hasWeight = !ctx.isNone(2);
    Kwargs k{{"axes", Expr::ints({axis})}};
    if (isFloat(ctx.in(1).dtype)) { // class probabilities
        Expr y = ctx.operand(ctx.node().inputs[1], r, t);
        if (smoothing > 0)
            y = ctx.emitTemp(
                "add",
                {ctx.emitTemp("mul", {y, lit(1.0 - smoothing, t)}, {}, "target_scaled"),
                 lit(smoothing / static_cast<double>(classes), t)},
                {}, "target_smoothed");
        Expr prod = ctx.emitTemp("mul", {logp, y}, {}, "cross");
        if (hasWeight)
            prod = ctx.emitTemp(
                "mul",
                {prod, ctx.emitTemp("reshape", {ctx.input(2)}, {{"shape", Expr::ints(classShape)}},
                                    "class_weight")},
                {}, "cross_weighted");
        Expr loss =
            ctx.emitTemp("neg", {ctx.emitTemp("sum_reduce", {prod}, k, "cross_sum")}, {}, "loss");
        if (reduction == 0) {
            ctx.emitOut("squeeze", {loss}, k);
            return;
        }
        finishLoss(ctx, loss, r, reduction); // the class axis has size 1: mean per element
        return;
    }
    const int64_t ignore = ctx.intArg(4);
    Picked p = pickTarget(ctx, logp, axis, classes, 2, ignore);
    if (smoothing <= 0) {
        finishNll(ctx, p, axis, reduction, 1.0, {});
        return;
    }
    // The smoothing term: -sum(w log p) over the classes, 0 where ignored.
    Expr wlogp = hasWeight ? ctx.emitTemp("mul",
                                          {logp, ctx.emitTemp("reshape", {ctx.input(2)},
                                                              {{"shape", Expr::ints(classShape)}},
                                                              "smooth_weight")},
                                          {}, "smooth_weighted")
                           : logp;
    Expr smooth =
        ctx.emitTemp("neg", {ctx.emitTemp("sum_reduce", {wlogp}, k, "smooth_sum")}, {}, "smooth");
    Expr target = ctx.emitTemp("unsqueeze", {ctx.operand(ctx.node().inputs[1], r - 1, DType::I64)},
                               {{"axes", Expr::ints({axis})}}, "target_for_mask");
    Expr ignored = ctx.emitTemp(
        "eq", {target, Context::scalarLiteral(static_cast<double>(ignore), DType::I64)}, {},
        "ignored");
    smooth = ctx.emitTemp("select", {ignored, lit(0.0, t), smooth}, {}, "smooth_kept");
    const double share = smoothing / static_cast<double>(classes);
    // Both terms reduce alike (none, sum, or the mean over the sum of the
    // targets' weights, the count of kept targets without weights): mix them
    // per element first.
    finishNll(ctx, p, axis, reduction, 1.0 - smoothing,
              ctx.emitTemp("mul", {smooth, lit(share, t)}, {}, "smooth_share"));
}

} // namespace

void registerLossOps(Registry& r) {
    r.beginFamily("loss");
    const char* reduce = " mean_reduce sum_reduce squeeze";
    r.add("aten::mse_loss", lowerDiffLoss<DiffLoss::Squared>, "reductions none, mean, sum",
          std::string("sub mul") + reduce);
    r.add("aten::l1_loss", lowerDiffLoss<DiffLoss::Absolute>, "reductions none, mean, sum",
          std::string("sub abs") + reduce);
    r.add("aten::smooth_l1_loss", lowerDiffLoss<DiffLoss::SmoothL1>, "any beta (0: l1)",
          std::string("sub abs mul div lt select") + reduce);
    r.add("aten::huber_loss", lowerDiffLoss<DiffLoss::Huber>, "any delta",
          std::string("sub abs mul lt select") + reduce);
    r.add("aten::kl_div", lowerKlDiv, "log or probability targets; batchmean divides after it",
          std::string("exp sub mul log eq select") + reduce);
    r.add("aten::soft_margin_loss", lowerSoftMargin, "log(1 + exp(-y x))",
          std::string("mul neg exp add log") + reduce);
    r.add("aten::margin_ranking_loss", lowerMarginRanking, "", std::string("sub mul max") + reduce);
    r.add("aten::hinge_embedding_loss", lowerHingeEmbedding, "",
          std::string("sub max ne select add") + reduce);
    r.add("aten::cosine_embedding_loss", lowerCosineEmbedding, "PyTorch's 1e-12 in the magnitudes",
          std::string("mul sum_reduce squeeze add sqrt div eq sub max select") + reduce);
    r.add("aten::triplet_margin_loss", lowerTripletMargin,
          "p-norm distances (orders 1, 2, inf, any positive), swap",
          std::string("sub add mul sqrt sum_reduce abs max_reduce min_reduce pow squeeze min max") +
              reduce);
    r.add("aten::binary_cross_entropy", lowerBinaryCrossEntropy, "logs clamped at -100; weight",
          std::string("log max sub mul") + reduce);
    r.add("aten::binary_cross_entropy_with_logits", lowerBinaryCrossEntropyLogits,
          "weight and pos_weight", std::string("neg max exp sub add log mul") + reduce);
    const char* nll = "unsqueeze eq select sum_reduce reshape mul neg div squeeze";
    for (const char* k : {"aten::nll_loss", "aten::nll_loss2d", "aten::nll_loss_nd"})
        r.add(k, lowerNllLoss, "class weights, ignore_index; static class axis", nll);
    r.add("aten::cross_entropy_loss", lowerCrossEntropy,
          "class indices or probabilities; weights, ignore_index, label_smoothing; static class "
          "axis",
          std::string(nll) + " max_reduce sub exp log add mean_reduce");
}

} // namespace t2n::translate
