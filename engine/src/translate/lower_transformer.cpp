// Transformer and attention building blocks: layer and instance norm,
// embeddings and index-based selection (tract_core_gather*), triangular
// masks (tract_core_trilu), einsum (tract_core_einsum), batched and
// vector products, and top-k.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <set>

namespace t2n::translate {

namespace {

// (x - mean) / sqrt(var + eps) over `axes` (kept), the statistics biased.
Expr normalized(Context& ctx, Expr x, const std::vector<int64_t>& axes, double eps, DType t) {
    Kwargs k{{"axes", Expr::ints(axes)}};
    Expr mean = ctx.emitTemp("mean_reduce", {x}, k, "mean");
    Expr c = ctx.emitTemp("sub", {x, mean}, {}, "centered");
    Expr var =
        ctx.emitTemp("mean_reduce", {ctx.emitTemp("mul", {c, c}, {}, "squared")}, k, "variance");
    Expr sd = ctx.emitTemp("sqrt", {ctx.emitTemp("add", {var, lit(eps, t)}, {}, "eps")}, {}, "std");
    return ctx.emitTemp("div", {c, sd}, {}, "normalized");
}

// y * weight + bias, either optional; weight/bias as given by `param`; all
// computed in `t`, the result cast to the output's type when that differs.
template <typename Param>
void affine(Context& ctx, Expr y, size_t wi, size_t bi, Param param, DType t) {
    const bool w = !ctx.isNone(wi), b = !ctx.isNone(bi);
    if (!w && !b) {
        bindAs(ctx, y, t);
        return;
    }
    if (w && !b) {
        emitFinal(ctx, "mul", {y, param(wi)}, t);
        return;
    }
    if (w)
        y = ctx.emitTemp("mul", {y, param(wi)}, {}, "scaled");
    emitFinal(ctx, "add", {y, param(bi)}, t);
}

// layer_norm(x, normalized_shape, weight?, bias?, eps, cudnn_enable)
void lowerLayerNorm(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const int64_t k = static_cast<int64_t>(ctx.intsArg(1).size());
    if (k < 1 || k > r)
        ctx.unsupported("layer_norm over more axes than the input has");
    // --f32-norm: an f16 layer norm computed in f32 (input and parameters).
    const DType t = upcastType(ctx, ctx.options().f32Norm);
    std::vector<int64_t> axes;
    for (int64_t a = r - k; a < r; ++a)
        axes.push_back(a);
    Expr x = ctx.operand(ctx.node().inputs[0], r, t);
    Expr y = normalized(ctx, x, axes, ctx.floatArg(4), t);
    // [normalized_shape] parameters meet the trailing axes once padded.
    affine(
        ctx, y, 2, 3, [&](size_t i) { return ctx.operand(ctx.node().inputs[i], r, t); }, t);
}

// native_layer_norm(x, normalized_shape, weight, bias, eps) -> (y, mean,
// rstd): layer_norm's arguments; the statistics outputs are refused.
void lowerNativeLayerNorm(Context& ctx) {
    for (size_t i = 1; i < ctx.node().outputs.size(); ++i)
        if (ctx.isUsed(ctx.node().outputs[i]))
            ctx.unsupported("native_layer_norm with its mean or rstd used");
    lowerLayerNorm(ctx);
}

// A [C] tensor as [1, C, 1, ...] to meet the channel axis of a rank-r input.
Expr perChannel(Context& ctx, size_t i, int64_t r) {
    const ir::Value& v = ctx.in(i);
    std::vector<int64_t> shape(static_cast<size_t>(r), 1);
    shape[1] = v.shape.at(0);
    if (v.constant)
        if (auto* d = std::get_if<TensorData>(&*v.constant))
            return ctx.constantTensor(d->reshaped(shape), v.paramName,
                                      v.name.empty() ? v.debugName : v.name);
    return ctx.emitTemp("reshape", {ctx.input(i)}, {{"shape", Expr::ints(shape)}}, "channel");
}

// instance_norm(x, weight?, bias?, running_mean?, running_var?,
//               use_input_stats, momentum, eps, cudnn_enabled)
void lowerInstanceNorm(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (r < 3)
        ctx.unsupported("instance_norm of an input without spatial axes");
    if (!ctx.boolArg(5))
        ctx.unsupported("instance_norm with running statistics (track_running_stats=True)",
                        "InstanceNorm with track_running_stats=False normalizes each sample");
    // --f32-norm: an f16 instance norm computed in f32, its f16 parameters cast.
    const DType t = upcastType(ctx, ctx.options().f32Norm);
    std::vector<int64_t> axes;
    for (int64_t a = 2; a < r; ++a)
        axes.push_back(a);
    Expr x = ctx.operand(ctx.node().inputs[0], r, t);
    Expr y = normalized(ctx, x, axes, ctx.floatArg(7), t);
    affine(
        ctx, y, 1, 2,
        [&](size_t i) { return ctx.cast(perChannel(ctx, i, r), ctx.in(i).dtype, t, "param_f32"); },
        t);
}

// embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse)
// With --weights-q4-0 the weight may be stored as Q4_0 blocks, which tract
// gathers only when told the output type (datum_type, tract >= 0.21.11 as
// Q4_0 itself): the weight's own type, so a plain weight reads the same.
void lowerEmbedding(Context& ctx) {
    Kwargs k{{"axis", Expr::i(0)}};
    if (ctx.options().weightsQ4_0)
        k.emplace_back("datum_type", Expr::str(std::string(dtypeName(ctx.out().dtype))));
    ctx.emitOut("tract_core_gather", {ctx.input(0), ctx.input(1)}, k);
}

// triu/tril: tract_core_trilu with a constant diagonal. A diagonal that is a
// size (the causal mask of a decoding step, offset by the KV cache's past
// length) is no constant tract_core_trilu takes: the kept band is written
// from ranges and a comparison (bandMask) and the rest zeroed by select.
template <bool Upper> void lowerTrilu(Context& ctx) {
    const int64_t rank = rankOf(ctx.in(0));
    if (rank < 2)
        ctx.unsupported("triu/tril of a tensor of rank < 2");
    if (ctx.numInputs() < 2 || !ctx.isSymbolic(1)) {
        const int64_t k = ctx.numInputs() > 1 ? ctx.intArg(1) : 0;
        ctx.emitOut("tract_core_trilu", {ctx.input(0), Expr::i(k)}, {{"upper", Expr::b(Upper)}});
        return;
    }
    const ir::ValueId x = ctx.node().inputs[0];
    Expr keep = bandMask(ctx, ctx.dimExpr(x, rank - 2), ctx.dimExpr(x, rank - 1), ctx.sizeArg(1),
                         Upper ? "ge" : "le");
    if (rank > 2) {
        std::vector<int64_t> lead(static_cast<size_t>(rank - 2));
        std::iota(lead.begin(), lead.end(), 0);
        keep = ctx.emitTemp("unsqueeze", {keep}, {{"axes", Expr::ints(lead)}}, "band_ranked");
    }
    ctx.emitOut("select", {keep, ctx.input(0), Context::scalarLiteral(0.0, ctx.out().dtype)});
}

// einsum of two operands as one batched matmul, for targets without
// tract_core_einsum (Khronos NNEF has none; attention blocks such as MaxViT's
// write `bhid,bhjd->bhij`). Each index must be a batch index (both operands
// and the output), contracted (both operands only) or free (one operand and
// the output); static shapes. A is laid out [batch, freeA, contracted], B
// [batch, contracted, freeB], both flattened to rank batch + 2, multiplied,
// unflattened and transposed to the output's order. False when the equation
// is not of that form.
bool einsumAsMatmul(Context& ctx, const std::string& eq, const std::vector<ir::ValueId>& ids) {
    const auto arrow = eq.find("->");
    const auto comma = eq.find(',');
    if (ids.size() != 2 || comma == std::string::npos || comma > arrow)
        return false;
    const std::string a = eq.substr(0, comma), b = eq.substr(comma + 1, arrow - comma - 1),
                      o = eq.substr(arrow + 2);
    const ir::Value& va = ctx.graph().value(ids[0]);
    const ir::Value& vb = ctx.graph().value(ids[1]);
    auto unique = [](const std::string& s) {
        return std::set<char>(s.begin(), s.end()).size() == s.size();
    };
    auto symbolic = [](const ir::Value& v) {
        return std::any_of(v.symbols.begin(), v.symbols.end(),
                           [](const std::string& s) { return !s.empty(); });
    };
    if (!unique(a) || !unique(b) || !unique(o) || rankOf(va) != std::ssize(a) ||
        rankOf(vb) != std::ssize(b) || symbolic(va) || symbolic(vb))
        return false;
    auto has = [](const std::string& s, char c) { return s.find(c) != std::string::npos; };
    std::string batch, contracted, freeA, freeB;
    for (char c : o) {
        if (has(a, c) && has(b, c))
            batch += c;
        else if (has(a, c))
            freeA += c;
        else if (has(b, c))
            freeB += c;
        else
            return false;
    }
    for (char c : a)
        if (has(b, c) && !has(o, c))
            contracted += c;
        else if (!has(b, c) && !has(o, c))
            return false; // summed over one operand alone
    for (char c : b)
        if (!has(a, c) && !has(o, c))
            return false;
    auto size = [&](char c) {
        const auto at = a.find(c);
        return at != std::string::npos ? va.shape[at] : vb.shape[b.find(c)];
    };
    auto product = [&](const std::string& labels) {
        int64_t n = 1;
        for (char c : labels)
            n *= size(c);
        return n;
    };
    for (char c : batch + contracted)
        if (va.shape[a.find(c)] != vb.shape[b.find(c)])
            return false; // broadcast batch axes: left to tract_core_einsum
    const DType t = ctx.out().dtype;
    // `x` (labelled `from`) transposed to `to` and reshaped to `shape`.
    auto arrange = [&](Expr x, const std::string& from, const std::string& to,
                       std::vector<int64_t> shape, const std::string& name) {
        std::vector<int64_t> perm;
        for (char c : to)
            perm.push_back(static_cast<int64_t>(from.find(c)));
        bool identity = true;
        for (size_t i = 0; i < perm.size(); ++i)
            identity = identity && perm[i] == static_cast<int64_t>(i);
        if (!identity)
            x = ctx.emitTemp("transpose", {x}, {{"axes", Expr::ints(perm)}}, name + "_t");
        std::vector<int64_t> dims;
        for (char c : to)
            dims.push_back(size(c));
        if (dims != shape)
            x = ctx.emitTemp("reshape", {x}, {{"shape", Expr::ints(shape)}}, name + "_r");
        return x;
    };
    std::vector<int64_t> lead;
    for (char c : batch)
        lead.push_back(size(c));
    auto with = [&](std::vector<int64_t> tail) {
        std::vector<int64_t> s = lead;
        s.insert(s.end(), tail.begin(), tail.end());
        return s;
    };
    Expr x = arrange(ctx.operand(ids[0], rankOf(va), t), a, batch + freeA + contracted,
                     with({product(freeA), product(contracted)}), "lhs");
    Expr y = arrange(ctx.operand(ids[1], rankOf(vb), t), b, batch + contracted + freeB,
                     with({product(contracted), product(freeB)}), "rhs");
    Expr m =
        ctx.emitTemp("matmul", {x, y},
                     {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}}, "product");
    // Unflatten to [batch, freeA, freeB], then the output's order.
    const std::string got = batch + freeA + freeB;
    std::vector<int64_t> dims;
    for (char c : got)
        dims.push_back(size(c));
    if (with({product(freeA), product(freeB)}) != dims)
        m = ctx.emitTemp("reshape", {m}, {{"shape", Expr::ints(dims)}}, "unflat");
    std::vector<int64_t> perm;
    for (char c : o)
        perm.push_back(static_cast<int64_t>(got.find(c)));
    ctx.emitOut("transpose", {m}, {{"axes", Expr::ints(perm)}});
    return true;
}

// einsum(equation, tensors, path?)
// The equation with each '...' written out as letters the equation does
// not use, right-aligned as PyTorch broadcasts them ('...xi,oij,...yj->...oxy'
// of rank-3 operands: 'Axi,oij,Ayj->Aoxy'): tract_core_einsum has no ellipsis.
std::string expandEllipsis(Context& ctx, const std::string& eq,
                           const std::vector<ir::ValueId>& operands) {
    const auto arrow = eq.find("->");
    std::vector<std::string> terms;
    for (size_t b = 0, e; b <= arrow; b = e + 1) {
        e = std::min(eq.find(',', b), arrow);
        terms.push_back(eq.substr(b, e - b));
    }
    if (terms.size() != operands.size())
        ctx.unsupported("einsum with an ellipsis over a list t2n cannot see built");
    std::string spare;
    for (char c = 'a'; c <= 'z'; ++c)
        if (eq.find(c) == std::string::npos)
            spare += c;
    for (char c = 'A'; c <= 'Z'; ++c)
        if (eq.find(c) == std::string::npos)
            spare += c;
    std::vector<int64_t> widths;
    int64_t widest = 0;
    for (size_t i = 0; i < terms.size(); ++i) {
        const int64_t letters =
            std::ssize(terms[i]) - (terms[i].find("...") != std::string::npos ? 3 : 0);
        widths.push_back(rankOf(ctx.graph().value(operands[i])) - letters);
        if (widths.back() < 0)
            ctx.unsupported("einsum term '" + terms[i] + "' with more letters than axes");
        widest = std::max(widest, widths.back());
    }
    if (widest > std::ssize(spare))
        ctx.unsupported("einsum with more ellipsis axes than free letters");
    const std::string all = spare.substr(0, static_cast<size_t>(widest));
    auto expand = [&](std::string term, int64_t width) {
        const auto at = term.find("...");
        if (at != std::string::npos)
            term.replace(at, 3, all.substr(all.size() - static_cast<size_t>(width)));
        return term;
    };
    std::string out;
    for (size_t i = 0; i < terms.size(); ++i)
        out += (i ? "," : "") + expand(terms[i], widths[i]);
    return out + "->" + expand(eq.substr(arrow + 2), widest);
}

void lowerEinsum(Context& ctx) {
    std::string eq = ctx.stringArg(0);
    std::erase(eq, ' ');
    if (eq.find("->") == std::string::npos)
        ctx.unsupported("einsum without an explicit output ('->')");
    if (eq.find("...") != std::string::npos)
        eq = expandEllipsis(ctx, eq, ctx.graph().value(ctx.node().inputs[1]).elements);
    DType t = ctx.out().dtype;
    if (!isFloat(t))
        ctx.unsupported("einsum of integer tensors");
    std::vector<Expr> items;
    const auto& elems = ctx.graph().value(ctx.node().inputs[1]).elements;
    if (!ctx.target().has("tract_core_einsum") && einsumAsMatmul(ctx, eq, elems))
        return;
    if (elems.empty())
        items = ctx.list(ctx.node().inputs[1]);
    for (ir::ValueId id : elems)
        items.push_back(ctx.operand(id, rankOf(ctx.graph().value(id)), t));
    ctx.emitOut("tract_core_einsum", {Expr::array(items)},
                {{"expr", Expr::str(eq)}, {"acc", Expr::str(std::string(dtypeName(t)))}});
}

Kwargs plainMatmul() {
    return {{"transposeA", Expr::b(false)}, {"transposeB", Expr::b(false)}};
}

// beta * self + alpha * product, skipping unit factors.
void emitScaledSum(Context& ctx, Expr self, Expr product, double beta, double alpha) {
    DType t = ctx.out().dtype;
    if (alpha != 1.0)
        product = ctx.emitTemp("mul", {product, lit(alpha, t)}, {}, "alpha");
    if (beta == 0.0) {
        ctx.bindOut(product);
        return;
    }
    if (beta != 1.0)
        self = ctx.emitTemp("mul", {self, lit(beta, t)}, {}, "beta");
    ctx.emitOut("add", {self, product});
}

// baddbmm(self, b1, b2, beta, alpha)
void lowerBaddbmm(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr m = ctx.emitTemp(
        "matmul",
        {ctx.operand(ctx.node().inputs[1], 3, t), ctx.operand(ctx.node().inputs[2], 3, t)},
        plainMatmul(), "product");
    emitScaledSum(ctx, ctx.operand(ctx.node().inputs[0], 3, t), m,
                  ctx.numInputs() > 3 ? ctx.floatArg(3) : 1.0,
                  ctx.numInputs() > 4 ? ctx.floatArg(4) : 1.0);
}

// mat [n, m] times vec [m] as a [n, 1] column, squeezed.
Expr matVec(Context& ctx, size_t mat, size_t vec) {
    DType t = ctx.out().dtype;
    Expr v = ctx.emitTemp("unsqueeze", {ctx.operand(ctx.node().inputs[vec], 1, t)},
                          {{"axes", Expr::ints({1})}}, "column");
    Expr m = ctx.emitTemp("matmul", {ctx.operand(ctx.node().inputs[mat], 2, t), v}, plainMatmul(),
                          "product");
    return ctx.emitTemp("squeeze", {m}, {{"axes", Expr::ints({1})}}, "vector");
}

void lowerMv(Context& ctx) {
    ctx.bindOut(matVec(ctx, 0, 1));
}

// addmv(self, mat, vec, beta, alpha)
void lowerAddmv(Context& ctx) {
    emitScaledSum(ctx, ctx.operand(ctx.node().inputs[0], 1, ctx.out().dtype), matVec(ctx, 1, 2),
                  ctx.numInputs() > 3 ? ctx.floatArg(3) : 1.0,
                  ctx.numInputs() > 4 ? ctx.floatArg(4) : 1.0);
}

void lowerDot(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr p = ctx.emitTemp(
        "mul", {ctx.operand(ctx.node().inputs[0], 1, t), ctx.operand(ctx.node().inputs[1], 1, t)},
        {}, "products");
    Expr s = ctx.emitTemp("sum_reduce", {p}, {{"axes", Expr::ints({0})}}, "sum");
    ctx.emitOut("squeeze", {s}, {{"axes", Expr::ints({0})}});
}

void lowerOuter(Context& ctx) {
    DType t = ctx.out().dtype;
    Expr a = ctx.emitTemp("unsqueeze", {ctx.operand(ctx.node().inputs[0], 1, t)},
                          {{"axes", Expr::ints({1})}}, "column");
    Expr b = ctx.emitTemp("unsqueeze", {ctx.operand(ctx.node().inputs[1], 1, t)},
                          {{"axes", Expr::ints({0})}}, "row");
    ctx.emitOut("mul", {a, b});
}

// topk(x, k, dim, largest, sorted) -> (values, indices), always sorted.
void lowerTopk(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const int64_t axis = ctx.axis(ctx.intArg(2), r);
    auto res = ctx.emitMulti("tract_core_topk", {ctx.input(0)},
                             {{"k", Expr::i(ctx.intArg(1))},
                              {"axis", Expr::i(axis)},
                              {"largest", Expr::b(ctx.boolArg(3))}},
                             {"values", "indices"});
    ctx.bindOut(res.at(0), 0);
    ctx.bindOut(res.at(1), 1);
}

// gather(x, dim, index, sparse_grad)
void lowerGather(Context& ctx) {
    const int64_t axis = ctx.axis(ctx.intArg(1), rankOf(ctx.in(0)));
    ctx.emitOut("tract_core_gather_elements", {ctx.input(0), ctx.input(2)},
                {{"axis", Expr::i(axis)}});
}

// index_select(x, dim, index)
void lowerIndexSelect(Context& ctx) {
    const int64_t axis = ctx.axis(ctx.intArg(1), rankOf(ctx.in(0)));
    ctx.emitOut("tract_core_gather", {ctx.input(0), ctx.input(2)}, {{"axis", Expr::i(axis)}});
}

} // namespace

void registerTransformerOps(Registry& r) {
    r.beginFamily("norm");
    r.add("aten::layer_norm", lowerLayerNorm, "statistics over the normalized trailing axes");
    r.add("aten::native_layer_norm", lowerNativeLayerNorm,
          "as layer_norm; mean and rstd outputs unused", "mean_reduce sub mul add sqrt div");
    r.add("aten::instance_norm", lowerInstanceNorm, "per-sample statistics (no running stats)");
    r.beginFamily("indexing");
    r.add("aten::embedding", lowerEmbedding, "tract_core_gather on axis 0");
    r.add("aten::gather", lowerGather, "tract_core_gather_elements");
    r.add("aten::index_select", lowerIndexSelect, "tract_core_gather");
    r.add("aten::triu", lowerTrilu<true>,
          "tract_core_trilu; a diagonal that follows a dynamic axis: written from "
          "tract_core_range, ge and select");
    r.add("aten::tril", lowerTrilu<false>,
          "tract_core_trilu; a diagonal that follows a dynamic axis: written from "
          "tract_core_range, le and select");
    r.add("aten::topk", lowerTopk, "tract_core_topk; results always sorted");
    r.beginFamily("matmul");
    r.add("aten::einsum", lowerEinsum,
          "tract_core_einsum; explicit '->', an ellipsis written out as letters; without "
          "tract_core_einsum (Khronos): "
          "two operands in batched-matmul form, static shapes");
    r.add("aten::baddbmm", lowerBaddbmm, "beta and alpha");
    r.add("aten::mv", lowerMv);
    r.add("aten::addmv", lowerAddmv, "beta and alpha");
    r.add("aten::dot", lowerDot);
    r.add("aten::outer", lowerOuter);
}

} // namespace t2n::translate
