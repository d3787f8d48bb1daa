// Diagonals and flat selections: diagonal / diag / diag_embed / diagflat as
// transposes, reshapes, slices and zero padding (no index tables, so
// leading axes may stay dynamic), and take / take_along_dim as gathers.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace t2n::translate {

namespace {

// Size of axis `a` of input `i`, which must be static.
int64_t staticSize(Context& ctx, size_t i, int64_t a) {
    const ir::Value& x = ctx.in(i);
    if (!x.symbols.empty() && !x.symbols[static_cast<size_t>(a)].empty())
        ctx.unsupported(fmt::format("{} along dynamic axis {}", ctx.node().kind, a));
    return x.shape[static_cast<size_t>(a)];
}

// The diagonal `offset` of an n x m matrix whose items are the last axis
// `axis` of `merged` (row-major, n * m items), as the node's output: the
// items from the diagonal's first on, padded to length * (m + 1), read as
// [length, m + 1], first column. Not a strided slice: tract 0.23.5's
// declutter fails to pull its Downsample over the Reshape before it
// ("Pulling Downsample over Reshape: Invalid axis").
void takeDiagonal(Context& ctx, Expr e, int64_t axis, int64_t n, int64_t m, int64_t offset,
                  int64_t length) {
    const int64_t begin = offset >= 0 ? offset : -offset * m;
    const int64_t end = begin + length * (m + 1), items = n * m;
    if (begin > 0 || end < items)
        e = ctx.emitTemp("slice", {e}, sliceArgs(axis, begin, std::min(end, items)), "from");
    if (end > items) {
        std::vector<Expr> pads(static_cast<size_t>(axis), Expr::tuple({Expr::i(0), Expr::i(0)}));
        pads.push_back(Expr::tuple({Expr::i(0), Expr::i(end - items)}));
        e = ctx.emitTemp("pad", {e},
                         {{"padding", Expr::array(std::move(pads))},
                          {"border", Expr::str("constant")},
                          {"value", Context::scalarLiteral(0.0, ctx.out().dtype)}},
                         "padded");
    }
    e = ctx.emitTemp("reshape", {e},
                     {{"shape", Expr::ints({length, m + 1})},
                      {"axis_start", Expr::i(axis)},
                      {"axis_count", Expr::i(1)}},
                     "rows");
    Expr first = ctx.emitTemp("slice", {e}, sliceArgs(axis + 1, 0, 1), "first");
    ctx.emitOut("squeeze", {first}, {{"axes", Expr::ints({axis + 1})}});
}

// diagonal(x, offset, dim1, dim2) and linalg_diagonal(A, offset, dim1, dim2):
// the two axes moved last and merged into one of n * m items, in which the
// diagonal is every (m + 1)th item from `offset` (or -offset * m below the
// main diagonal, takeDiagonal), appended as the last axis as PyTorch does.
void lowerDiagonal(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const int64_t offset = ctx.intArg(1);
    const int64_t d1 = ctx.axis(ctx.intArg(2), r), d2 = ctx.axis(ctx.intArg(3), r);
    if (d1 == d2)
        ctx.unsupported("diagonal over the same axis twice");
    const int64_t n = staticSize(ctx, 0, d1), m = staticSize(ctx, 0, d2);
    const int64_t length = offset >= 0 ? std::min(n, m - offset) : std::min(n + offset, m);
    if (length <= 0)
        ctx.unsupported(
            fmt::format("an empty diagonal (offset {} of a {}x{} matrix)", offset, n, m));
    std::vector<int64_t> perm;
    for (int64_t a = 0; a < r; ++a)
        if (a != d1 && a != d2)
            perm.push_back(a);
    perm.push_back(d1);
    perm.push_back(d2);
    Expr e = ctx.input(0);
    std::vector<int64_t> identity(static_cast<size_t>(r));
    std::iota(identity.begin(), identity.end(), 0);
    if (perm != identity)
        e = ctx.emitTemp("transpose", {e}, {{"axes", Expr::ints(perm)}}, "moved");
    e = ctx.emitTemp("reshape", {e},
                     {{"shape", Expr::ints({n * m})},
                      {"axis_start", Expr::i(r - 2)},
                      {"axis_count", Expr::i(2)}},
                     "merged");
    takeDiagonal(ctx, e, r - 2, n, m, offset, length);
}

// [..., n] (rank r) to [..., N, N], N = n + |offset|, with the items on the
// diagonal `offset` and zeros elsewhere: [..., n, 1] padded to [..., n, n + 1]
// and flattened puts item i at i (n + 1), which the first n * n items read as
// [..., n, n] place at (i, i); padding then shifts that diagonal.
Expr embedDiagonal(Context& ctx, Expr x, int64_t r, int64_t n, int64_t offset, bool last) {
    const DType t = ctx.out().dtype;
    Expr zero = Context::scalarLiteral(0.0, t);
    auto pads = [r](int64_t rowsBefore, int64_t rowsAfter, int64_t colsBefore, int64_t colsAfter) {
        std::vector<Expr> p;
        for (int64_t a = 0; a < r - 1; ++a)
            p.push_back(Expr::tuple({Expr::i(0), Expr::i(0)}));
        p.push_back(Expr::tuple({Expr::i(rowsBefore), Expr::i(rowsAfter)}));
        p.push_back(Expr::tuple({Expr::i(colsBefore), Expr::i(colsAfter)}));
        return Expr::array(std::move(p));
    };
    Expr u = ctx.emitTemp("unsqueeze", {std::move(x)}, {{"axes", Expr::ints({r})}}, "column");
    Expr p = ctx.emitTemp(
        "pad", {u},
        {{"padding", pads(0, 0, 0, n)}, {"border", Expr::str("constant")}, {"value", zero}},
        "spread");
    Expr f = ctx.emitTemp("reshape", {p},
                          {{"shape", Expr::ints({n * (n + 1)})},
                           {"axis_start", Expr::i(r - 1)},
                           {"axis_count", Expr::i(2)}},
                          "flat");
    Expr s = ctx.emitTemp("slice", {f}, sliceArgs(r - 1, 0, n * n), "square");
    const bool shifted = offset != 0;
    Expr d = emitStep(
        ctx, last && !shifted, "reshape", {s},
        {{"shape", Expr::ints({n, n})}, {"axis_start", Expr::i(r - 1)}, {"axis_count", Expr::i(1)}},
        "diagonal");
    if (!shifted)
        return d;
    const int64_t k = offset > 0 ? offset : -offset;
    Expr padding = offset > 0 ? pads(0, k, k, 0) : pads(k, 0, 0, k);
    return emitStep(ctx, last, "pad", {d},
                    {{"padding", padding}, {"border", Expr::str("constant")}, {"value", zero}},
                    "shifted");
}

// diag_embed(x, offset, dim1, dim2): the matrix built last, then its two axes
// moved to dim1 and dim2 of the output.
void lowerDiagEmbed(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    if (r < 1)
        ctx.unsupported("diag_embed of a 0-d tensor");
    const int64_t offset = ctx.intArg(1);
    const int64_t d1 = ctx.axis(ctx.intArg(2), r + 1), d2 = ctx.axis(ctx.intArg(3), r + 1);
    if (d1 == d2)
        ctx.unsupported("diag_embed into the same axis twice");
    const int64_t n = staticSize(ctx, 0, r - 1);
    std::vector<int64_t> perm(static_cast<size_t>(r + 1), -1);
    perm[static_cast<size_t>(d1)] = r - 1;
    perm[static_cast<size_t>(d2)] = r;
    int64_t next = 0;
    for (auto& p : perm)
        if (p < 0)
            p = next++;
    const bool moved = d1 != r - 1 || d2 != r;
    Expr m = embedDiagonal(ctx, ctx.input(0), r, n, offset, !moved);
    if (moved)
        ctx.emitOut("transpose", {m}, {{"axes", Expr::ints(perm)}});
}

// diag(x, k): a vector becomes a matrix with x on diagonal k; a matrix gives
// its diagonal k.
void lowerDiag(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    const int64_t k = ctx.numInputs() > 1 ? ctx.intArg(1) : 0;
    if (r == 1) {
        embedDiagonal(ctx, ctx.input(0), 1, staticSize(ctx, 0, 0), k, true);
        return;
    }
    if (r != 2)
        ctx.unsupported(fmt::format("diag of a rank-{} tensor", r));
    const int64_t n = staticSize(ctx, 0, 0), m = staticSize(ctx, 0, 1);
    const int64_t length = k >= 0 ? std::min(n, m - k) : std::min(n + k, m);
    if (length <= 0)
        ctx.unsupported(fmt::format("an empty diagonal (offset {} of a {}x{} matrix)", k, n, m));
    Expr f = ctx.emitTemp("reshape", {ctx.input(0)}, {{"shape", Expr::ints({n * m})}}, "flat");
    takeDiagonal(ctx, f, 0, n, m, k, length);
}

// diagflat(x, offset): the flattened input on diagonal `offset` of a matrix.
void lowerDiagflat(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    int64_t n = 1;
    for (size_t a = 0; a < x.shape.size(); ++a)
        n *= staticSize(ctx, 0, static_cast<int64_t>(a));
    Expr e = ctx.input(0);
    if (rankOf(x) != 1)
        e = ctx.emitTemp("reshape", {e}, {{"shape", Expr::ints({n})}}, "flat");
    embedDiagonal(ctx, e, 1, n, ctx.numInputs() > 1 ? ctx.intArg(1) : 0, true);
}

// take(x, index): x read as a vector, gathered at `index` (any shape, which
// the result has).
void lowerTake(Context& ctx) {
    Expr e = ctx.input(0);
    if (rankOf(ctx.in(0)) != 1)
        e = ctx.emitTemp("reshape", {e}, {{"shape", Expr::ints({-1})}}, "flat");
    ctx.emitOut("tract_core_gather", {e, ctx.input(1)}, {{"axis", Expr::i(0)}});
}

// take_along_dim(x, index, dim): gather_elements when index has x's shape
// except along dim (PyTorch would broadcast the other axes; refused here);
// without dim, over both flattened.
void lowerTakeAlongDim(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const ir::Value& idx = ctx.in(1);
    if (ctx.numInputs() < 3 || ctx.isNone(2)) {
        Kwargs flat{{"shape", Expr::ints({-1})}};
        Expr fx = ctx.emitTemp("reshape", {ctx.input(0)}, flat, "flat");
        Expr fi = ctx.emitTemp("reshape", {ctx.input(1)}, flat, "flat_index");
        ctx.emitOut("tract_core_gather_elements", {fx, fi}, {{"axis", Expr::i(0)}});
        return;
    }
    const int64_t r = rankOf(x);
    const int64_t dim = ctx.axis(ctx.intArg(2), r);
    bool same = rankOf(idx) == r;
    for (int64_t a = 0; same && a < r; ++a)
        same = a == dim || x.shape[static_cast<size_t>(a)] == idx.shape[static_cast<size_t>(a)];
    if (!same)
        ctx.unsupported("take_along_dim with an index broadcast against the input",
                        "expand the index to the input's shape first");
    ctx.emitOut("tract_core_gather_elements", {ctx.input(0), ctx.input(1)},
                {{"axis", Expr::i(dim)}});
}

// embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
// per_sample_weights, include_last_offset[, padding_idx]) -> (output, ...):
// bags of one size (constant offsets 0, s, 2s, ..., as F.embedding_bag makes
// for a 2-D input) as a gather, a reshape to [bags, s, D] and a sum, mean or
// max over the bag; per-sample weights scale the rows (sum mode). Ragged
// bags, padding_idx and the other outputs are refused.
void lowerEmbeddingBag(Context& ctx) {
    for (size_t i = 1; i < ctx.node().outputs.size(); ++i)
        if (ctx.isUsed(ctx.node().outputs[i]))
            ctx.unsupported("embedding_bag with its offset2bag, bag_size or max_indices used");
    if (ctx.numInputs() > 8 && !ctx.isNone(8) && ctx.intArg(8) >= 0)
        ctx.unsupported("embedding_bag with padding_idx");
    const ir::Value& idx = ctx.in(1);
    const ir::Value& offsets = ctx.in(2);
    const auto* o = offsets.constant ? std::get_if<TensorData>(&*offsets.constant) : nullptr;
    if (rankOf(idx) != 1 || !o || o->numel() < 1 ||
        (!idx.symbols.empty() && !idx.symbols[0].empty()))
        ctx.unsupported("embedding_bag with offsets the model computes",
                        "pass a 2-D input of equal bags (no offsets)");
    const bool includeLast = ctx.boolArg(7);
    const int64_t n = idx.shape[0];
    const int64_t bags = o->numel() - (includeLast ? 1 : 0);
    const int64_t size = bags > 0 ? n / bags : 0;
    bool even = bags > 0 && size > 0 && size * bags == n;
    for (int64_t b = 0; even && b < o->numel(); ++b)
        even = o->asInt(b) == b * size;
    if (!even)
        ctx.unsupported("embedding_bag with bags of different sizes (or empty ones)");
    const int64_t mode = ctx.intArg(4);
    const char* reduce = mode == 0 ? "sum_reduce" : mode == 1 ? "mean_reduce" : "max_reduce";
    if (mode < 0 || mode > 2)
        ctx.unsupported(fmt::format("embedding_bag mode {}", mode));
    const int64_t dim = ctx.in(0).shape.at(1);
    Expr rows = ctx.emitTemp("tract_core_gather", {ctx.input(0), ctx.input(1)},
                             {{"axis", Expr::i(0)}}, "rows");
    if (!ctx.isNone(6)) {
        if (mode != 0)
            ctx.unsupported("embedding_bag with per_sample_weights in a mode other than sum");
        Expr w = ctx.emitTemp("unsqueeze", {ctx.operand(ctx.node().inputs[6], 1, ctx.out().dtype)},
                              {{"axes", Expr::ints({1})}}, "sample_weight");
        rows = ctx.emitTemp("mul", {rows, w}, {}, "weighted");
    }
    Expr grouped =
        ctx.emitTemp("reshape", {rows}, {{"shape", Expr::ints({bags, size, dim})}}, "bags");
    Expr r = ctx.emitTemp(reduce, {grouped}, {{"axes", Expr::ints({1})}}, "bag");
    ctx.emitOut("squeeze", {r}, {{"axes", Expr::ints({1})}});
}

} // namespace

void registerDiagonalOps(Registry& r) {
    r.beginFamily("indexing");
    r.add("aten::diagonal", lowerDiagonal,
          "static diagonal axes: transpose, reshape, slice, pad, squeeze",
          "+transpose reshape slice +pad squeeze");
    r.add("aten::diagonal_copy", lowerDiagonal, "as diagonal",
          "+transpose reshape slice +pad squeeze");
    r.add("aten::linalg_diagonal", lowerDiagonal,
          "static diagonal axes: transpose, reshape, slice, pad, squeeze",
          "+transpose reshape slice +pad squeeze");
    r.add("aten::diag", lowerDiag, "static sizes: padding, reshapes and slices",
          "+unsqueeze +pad reshape slice +squeeze");
    r.add("aten::diag_embed", lowerDiagEmbed, "static last axis: padding and reshapes",
          "unsqueeze pad reshape slice +transpose");
    r.add("aten::diagflat", lowerDiagflat, "static sizes: padding and reshapes",
          "unsqueeze pad reshape slice");
    r.add("aten::take", lowerTake, "tract_core_gather of the flattened input",
          "+reshape tract_core_gather");
    r.add("aten::embedding_bag", lowerEmbeddingBag,
          "bags of one size (a 2-D input); sum, mean or max; per-sample weights (sum)",
          "tract_core_gather reshape squeeze +sum_reduce +mean_reduce +max_reduce +unsqueeze +mul");
    r.add("aten::take_along_dim", lowerTakeAlongDim,
          "tract_core_gather_elements; index of the input's shape along the other axes",
          "+reshape tract_core_gather_elements");
}

} // namespace t2n::translate
