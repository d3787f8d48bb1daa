// Advanced indexing: reading (aten::index, x[rows, cols]) and writing
// (aten::index_put, x[rows, cols] = v) with index tensors. One index tensor
// read is tract_core_gather on its axis; several are coordinates for
// tract_core_gather_nd / tract_core_scatter_nd; a boolean mask written with
// one value is a select.
//
// PyTorch's rule for several index tensors (advanced indexing): they
// broadcast to one shape B; the result has B where the indexed axes were when
// those axes are consecutive, and B first, then the other axes in order, when
// a full slice separates them. tract's _nd operations read the coordinates on
// the LEADING axes, so the indexed axes are moved first and, for a read,
// moved back after.
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace t2n::translate {

namespace {

constexpr const char* kNdReductionGate = "tract_core_scatter_nd:reduction";

// An integer index with negative entries counted from the end (gather_nd and
// scatter_nd read the coordinates as unsigned offsets). `size` is the
// indexed axis's size as an expression (a symbol's when the axis follows
// one: a canvas sized at run time), `n` its example value.
Expr nonNegative(Context& ctx, ir::ValueId id, int64_t n, const Expr& size,
                 const std::string& suffix) {
    const ir::Value& v = ctx.graph().value(id);
    // An index computed from a dynamic axis (arange(S) % 4) is folded at the
    // example's size: it is computed in the graph instead.
    if (v.constant && !v.varies)
        if (auto* t = std::get_if<TensorData>(&*v.constant)) {
            std::vector<int64_t> values;
            for (int64_t k = 0; k < t->numel(); ++k) {
                const auto i = static_cast<int64_t>(t->asDouble(k));
                values.push_back(i < 0 ? i + n : i);
            }
            return indexTable(ctx, values, t->shape(), suffix);
        }
    Expr e = ctx.operand(id, rankOf(v), DType::I64);
    Expr neg = ctx.emitTemp("lt", {e, Expr::i(0)}, {}, suffix + "_negative");
    Expr length = size.kind == Expr::Kind::Integer
                      ? Expr::i(n)
                      : ctx.emitTemp("tract_core_cast", {size}, {{"to", Expr::str("i64")}},
                                     suffix + "_length");
    Expr wrapped = ctx.emitTemp("add", {e, length}, {}, suffix + "_wrapped");
    return ctx.emitTemp("select", {neg, wrapped, e}, {}, suffix);
}

// The index tensors of an index / index_put list, as coordinates.
struct AdvancedIndex {
    std::vector<size_t> at;       ///< the indexed axes, ascending
    std::vector<int64_t> b;       ///< the indices' broadcast shape B
    std::vector<Expr> bShape;     ///< B as sizes that may follow symbols
    bool consecutive = true;      ///< B stays where the indexed axes were
    Expr coordinates;             ///< [B..., m], non-negative
    std::vector<int64_t> toFront; ///< permutation moving the indexed axes first
    bool moved = false;           ///< toFront is not the identity
};

// The list's integer index tensors (None entries are full slices); refuses
// boolean masks among several indices.
std::vector<size_t> indexedAxes(Context& ctx, const std::vector<ir::ValueId>& elems,
                                const char* what) {
    std::vector<size_t> at;
    for (size_t i = 0; i < elems.size(); ++i)
        if (ctx.graph().value(elems[i]).kind != ir::ValueKind::None)
            at.push_back(i);
    if (at.empty())
        ctx.unsupported(fmt::format("{} without an index tensor", what));
    if (at.size() > 1)
        for (size_t k : at)
            if (ctx.graph().value(elems[k]).dtype == DType::Bool)
                ctx.unsupported(fmt::format("{} mixing a boolean mask with other indices", what),
                                "a boolean mask selects a data-dependent number of items");
    return at;
}

AdvancedIndex advancedIndex(Context& ctx, const std::vector<ir::ValueId>& elems,
                            std::vector<size_t> at) {
    AdvancedIndex ix;
    ix.at = std::move(at);
    const ir::Value& x = ctx.in(0);
    const int64_t r = rankOf(x);
    for (size_t k = 1; k < ix.at.size(); ++k)
        ix.consecutive = ix.consecutive && ix.at[k] == ix.at[k - 1] + 1;
    // B, with where each of its axes comes from (for sizes that follow a
    // dynamic axis: the index tensor's own dimension, not the example's).
    std::vector<std::pair<ir::ValueId, int64_t>> from;
    for (size_t k : ix.at) {
        const ir::Value& v = ctx.graph().value(elems[k]);
        const auto& s = v.shape;
        if (s.size() > ix.b.size()) {
            const size_t grow = s.size() - ix.b.size();
            ix.b.insert(ix.b.begin(), grow, 1);
            from.insert(from.begin(), grow, {-1, 0});
        }
        for (size_t j = 0; j < s.size(); ++j) {
            const size_t d = ix.b.size() - s.size() + j;
            if (ix.b[d] == 1 && s[j] != 1) {
                ix.b[d] = s[j];
                from[d] = {v.id, static_cast<int64_t>(j)};
            }
        }
    }
    const auto nb = static_cast<int64_t>(ix.b.size());
    std::vector<Expr> bShape;
    for (size_t d = 0; d < ix.b.size(); ++d)
        bShape.push_back(from[d].first < 0 ? Expr::i(1)
                                           : ctx.dimExpr(from[d].first, from[d].second));
    std::vector<Expr> coords;
    for (size_t k = 0; k < ix.at.size(); ++k) {
        const ir::ValueId id = elems[ix.at[k]];
        Expr c = nonNegative(ctx, id, x.shape[ix.at[k]],
                             ctx.dimExpr(ctx.node().inputs[0], static_cast<int64_t>(ix.at[k])),
                             fmt::format("index{}", k));
        if (ctx.graph().value(id).shape != ix.b)
            c = ctx.emitTemp("tract_core_broadcast", {c}, {{"shape", Expr::array(bShape)}},
                             fmt::format("index{}_b", k));
        coords.push_back(c);
    }
    ix.coordinates =
        coords.size() == 1
            ? ctx.emitTemp("unsqueeze", {coords[0]}, {{"axes", Expr::ints({nb})}}, "coordinates")
            : ctx.emitTemp("stack", {Expr::array(coords)}, {{"axis", Expr::i(nb)}}, "coordinates");
    ix.bShape = bShape;
    for (size_t k : ix.at)
        ix.toFront.push_back(static_cast<int64_t>(k));
    for (int64_t a = 0; a < r; ++a)
        if (std::find(ix.at.begin(), ix.at.end(), static_cast<size_t>(a)) == ix.at.end())
            ix.toFront.push_back(a);
    for (size_t a = 0; a < ix.toFront.size(); ++a)
        ix.moved = ix.moved || ix.toFront[a] != static_cast<int64_t>(a);
    return ix;
}

std::vector<int64_t> inverse(const std::vector<int64_t>& perm) {
    std::vector<int64_t> back(perm.size());
    for (size_t a = 0; a < perm.size(); ++a)
        back[static_cast<size_t>(perm[a])] = static_cast<int64_t>(a);
    return back;
}

// index(x, [None, ..., idx, ...]): one integer index tensor is a gather
// along its axis; several are tract_core_gather_nd on the indexed axes moved
// first, giving [B..., other axes...], which is PyTorch's order when a full
// slice separates the indexed axes; when they are consecutive from axis p, the
// p axes before them move back in front of B.
void lowerIndex(Context& ctx) {
    const auto& elems = ctx.graph().value(ctx.node().inputs[1]).elements;
    const auto at = indexedAxes(ctx, elems, "index");
    if (at.size() == 1) {
        const ir::Value& v = ctx.graph().value(elems[at[0]]);
        if (v.dtype == DType::Bool)
            ctx.unsupported("indexing with a boolean mask (data-dependent shape)",
                            "use torch.where or masked_fill instead");
        ctx.emitOut("tract_core_gather", {ctx.input(0), ctx.tensor(elems[at[0]])},
                    {{"axis", Expr::i(static_cast<int64_t>(at[0]))}});
        return;
    }
    AdvancedIndex ix = advancedIndex(ctx, elems, at);
    Expr data = ctx.input(0);
    if (ix.moved)
        data = ctx.emitTemp("transpose", {data}, {{"axes", Expr::ints(ix.toFront)}}, "moved");
    const auto p = static_cast<int64_t>(ix.at.front());
    Kwargs k{{"batch_dims", Expr::i(0)}};
    if (!ix.consecutive || p == 0) {
        ctx.emitOut("tract_core_gather_nd", {data, ix.coordinates}, k);
        return;
    }
    // [B..., x[:p]..., x[p+m:]...] -> [x[:p]..., B..., x[p+m:]...]
    Expr g = ctx.emitTemp("tract_core_gather_nd", {data, ix.coordinates}, k, "gathered");
    const auto nb = static_cast<int64_t>(ix.b.size());
    const int64_t rank = rankOf(ctx.out());
    std::vector<int64_t> perm;
    for (int64_t a = 0; a < p; ++a)
        perm.push_back(nb + a);
    for (int64_t a = 0; a < nb; ++a)
        perm.push_back(a);
    for (int64_t a = nb + p; a < rank; ++a)
        perm.push_back(a);
    ctx.emitOut("transpose", {g}, {{"axes", Expr::ints(perm)}});
}

// index_put(self, indices, values, accumulate) with one boolean mask: a select.
void maskPut(Context& ctx, ir::ValueId mask, bool accumulate) {
    const ir::Value& m = ctx.graph().value(mask);
    const ir::Value& values = ctx.in(2);
    int64_t count = 1;
    for (int64_t d : values.shape)
        count *= d;
    if (count != 1)
        ctx.unsupported("index_put with a boolean mask and a tensor of values (their number "
                        "depends on the data)",
                        "write torch.where(mask, value, x) with one value");
    const int64_t r = rankOf(ctx.out());
    // The mask covers the leading axes: trailing unit axes align it.
    Expr me = ctx.tensor(mask);
    if (rankOf(m) < r) {
        std::vector<int64_t> axes;
        for (int64_t a = rankOf(m); a < r; ++a)
            axes.push_back(a);
        me = ctx.emitTemp("unsqueeze", {me}, {{"axes", Expr::ints(axes)}}, "mask");
    }
    Expr x = ctx.operand(ctx.node().inputs[0], r, ctx.out().dtype);
    Expr v = ctx.operand(ctx.node().inputs[2], r, ctx.out().dtype);
    if (accumulate)
        v = ctx.emitTemp("add", {x, v}, {}, "accumulated");
    ctx.emitOut("select", {me, v, x});
}

// index_put(self, indices, values, accumulate) with integer index tensors:
// the indexed axes moved first, the values broadcast to PyTorch's indexed
// shape (B in place of consecutive indexed axes, else B first) and laid out
// as [B..., other axes...], tract_core_scatter_nd writes, and the axes move
// back.
void lowerIndexPut(Context& ctx) {
    const auto& elems = ctx.graph().value(ctx.node().inputs[1]).elements;
    const bool accumulate = ctx.numInputs() > 3 && ctx.boolArg(3);
    const auto at = indexedAxes(ctx, elems, "index_put");
    if (at.size() == 1 && ctx.graph().value(elems[at[0]]).dtype == DType::Bool) {
        if (at[0] != 0)
            ctx.unsupported("index_put with a boolean mask after a full slice");
        maskPut(ctx, elems[at[0]], accumulate);
        return;
    }
    if (accumulate)
        requireTract(ctx, kNdReductionGate, "index_put with accumulate=True");
    AdvancedIndex ix = advancedIndex(ctx, elems, at);
    const auto& xs = ctx.in(0).shape;
    const auto p = static_cast<int64_t>(ix.at.front());
    const auto nb = static_cast<int64_t>(ix.b.size());
    // The indexed shape in PyTorch's order, and the permutation taking it to
    // [B..., other axes...].
    // The indexed shape as sizes: the data's axes follow their symbols (a
    // canvas sized at run time), B the indices' (a dynamic number of points).
    const ir::ValueId self = ctx.node().inputs[0];
    auto dim = [&](size_t a) { return ctx.dimExpr(self, static_cast<int64_t>(a)); };
    std::vector<Expr> indexed;
    std::vector<int64_t> valuePerm;
    if (ix.consecutive) {
        for (int64_t a = 0; a < p; ++a)
            indexed.push_back(dim(static_cast<size_t>(a)));
        indexed.insert(indexed.end(), ix.bShape.begin(), ix.bShape.end());
        for (size_t a = static_cast<size_t>(p) + ix.at.size(); a < xs.size(); ++a)
            indexed.push_back(dim(a));
        for (int64_t a = 0; a < nb; ++a)
            valuePerm.push_back(p + a);
        for (int64_t a = 0; a < static_cast<int64_t>(indexed.size()); ++a)
            if (a < p || a >= p + nb)
                valuePerm.push_back(a);
    } else {
        indexed = ix.bShape;
        for (size_t a = 0; a < xs.size(); ++a)
            if (std::find(ix.at.begin(), ix.at.end(), a) == ix.at.end())
                indexed.push_back(dim(a));
        valuePerm.resize(indexed.size());
        std::iota(valuePerm.begin(), valuePerm.end(), 0);
    }
    Expr values =
        ctx.emitTemp("tract_core_broadcast",
                     {ctx.operand(ctx.node().inputs[2], rankOf(ctx.in(2)), ctx.out().dtype)},
                     {{"shape", Expr::array(indexed)}}, "values");
    Expr data = ctx.operand(ctx.node().inputs[0], rankOf(ctx.in(0)), ctx.out().dtype);
    bool valuesMoved = false;
    for (size_t a = 0; a < valuePerm.size(); ++a)
        valuesMoved = valuesMoved || valuePerm[a] != static_cast<int64_t>(a);
    if (ix.moved)
        data = ctx.emitTemp("transpose", {data}, {{"axes", Expr::ints(ix.toFront)}}, "moved");
    if (valuesMoved)
        values =
            ctx.emitTemp("transpose", {values}, {{"axes", Expr::ints(valuePerm)}}, "values_moved");
    Kwargs k;
    if (accumulate)
        k.emplace_back("reduction", Expr::str("add"));
    if (!ix.moved) {
        ctx.emitOut("tract_core_scatter_nd", {data, ix.coordinates, values}, k);
        return;
    }
    Expr written =
        ctx.emitTemp("tract_core_scatter_nd", {data, ix.coordinates, values}, k, "written");
    ctx.emitOut("transpose", {written}, {{"axes", Expr::ints(inverse(ix.toFront))}});
}

} // namespace

void registerAdvancedIndexOps(Registry& r) {
    r.beginFamily("indexing");
    r.add("aten::index", lowerIndex,
          "one integer index tensor: tract_core_gather; several (broadcast together, on any "
          "axes): tract_core_gather_nd; no boolean masks",
          "+tract_core_gather +tract_core_gather_nd +transpose +stack +unsqueeze "
          "+tract_core_broadcast +lt +add +select +tract_core_cast");
    r.add("aten::index_put", lowerIndexPut,
          "a boolean mask with one value: select; integer indices on any axes: "
          "tract_core_scatter_nd (accumulate needs tract >= 0.23.0)",
          "select +add +lt +tract_core_scatter_nd +tract_core_broadcast +stack +unsqueeze "
          "+transpose +tract_core_cast +" +
              std::string(kNdReductionGate));
}

} // namespace t2n::translate
