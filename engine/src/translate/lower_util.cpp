#include "translate/lower_util.h"

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

} // namespace t2n::translate
