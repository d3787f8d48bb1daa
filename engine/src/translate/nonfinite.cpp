// Non-finite scalar literals (issue 11, class 1). Attention masks are built
// with masked_fill(mask, -inf) or full(..., -inf).triu(1): the -inf reaches a
// lowering as a Python float and becomes a scalar literal. What each target
// can read:
//   - tract reads `inf` and `-inf` as numeric literals since 0.20.19 (nnef
//     crate, ast/parse.rs numeric_literal and deser.rs, commit 77231e2ae);
//     nothing in NNEF or tract reads a NaN literal;
//   - Khronos NNEF 1.0.5 and older tract have no literal for either.
// An operand that has no literal form is stored as a rank-0 variable holding
// the exact value (a .dat keeps IEEE infinities and NaN), so the numbers do
// not change. An attribute (a keyword argument such as pad's `value`) cannot
// be a variable: an infinity there becomes the largest finite value of its
// type, with a warning that says the value changed; a NaN there is refused.
// t2n's lowerings pass tensor operands positionally and attributes by
// keyword, which is what tells the two apart.
#include "translate/nonfinite.h"

#include "translate/context.h"
#include "translate/lower_util.h"
#include "translate/tensor_convert.h"

#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>

namespace t2n::translate {

namespace {

bool nonFinite(const Expr& e) {
    return e.kind == Expr::Kind::Scalar && !std::isfinite(e.scalar);
}

bool anyNonFinite(const Expr& e) {
    if (nonFinite(e))
        return true;
    for (const auto& item : e.items)
        if (anyNonFinite(item))
            return true;
    return false;
}

std::string spelled(double v) {
    return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}

// The float type the literal stands for: the node's output when it is one.
DType literalType(const Context& ctx) {
    for (ir::ValueId id : ctx.node().outputs)
        if (isFloat(ctx.graph().value(id).dtype))
            return ctx.graph().value(id).dtype;
    return DType::F32;
}

Expr asVariable(Context& ctx, double v) {
    const DType t = literalType(ctx);
    std::byte bytes[8];
    std::span<const std::byte> span;
    if (t == DType::F64) {
        std::memcpy(bytes, &v, sizeof v);
        span = {bytes, sizeof v};
    } else {
        const float f = static_cast<float>(v);
        std::memcpy(bytes, &f, sizeof f);
        span = {bytes, sizeof f};
    }
    TensorData data = TensorData::copyOf(t == DType::F64 ? DType::F64 : DType::F32, {}, span);
    if (t == DType::F16)
        data = convertDType(data, DType::F16);
    return ctx.derivedTensor(std::move(data), std::isnan(v) ? "not_a_number"
                                              : v > 0       ? "pos_infinity"
                                                            : "neg_infinity");
}

} // namespace

int legalizeNonFiniteLiterals(Context& ctx, nnef::Invocation& inv) {
    int rewritten = 0;
    const bool infinity = ctx.target().readsInfinityLiterals();
    const std::string reader =
        ctx.target().isKhronos() ? std::string("Khronos NNEF") : std::string("this tract version");
    for (auto& arg : inv.args) {
        if (!nonFinite(arg) && anyNonFinite(arg))
            ctx.unsupported(fmt::format("an operand of {} holds a non-finite number inside a "
                                        "list, which NNEF cannot write",
                                        inv.op));
        if (!nonFinite(arg) || (infinity && !std::isnan(arg.scalar)))
            continue;
        arg = asVariable(ctx, arg.scalar);
        ++rewritten;
    }
    for (auto& [name, value] : inv.kwargs) {
        if (!anyNonFinite(value))
            continue;
        if (!nonFinite(value))
            ctx.unsupported(fmt::format("attribute '{}' of {} holds a non-finite number inside a "
                                        "list, which NNEF cannot write",
                                        name, inv.op));
        if (infinity && !std::isnan(value.scalar))
            continue;
        if (std::isnan(value.scalar))
            ctx.unsupported(fmt::format("attribute '{}' of {} is NaN, which NNEF cannot write "
                                        "(no literal, and an attribute cannot be a variable)",
                                        name, inv.op));
        const DType t = literalType(ctx);
        const double finite = std::copysign(largestFinite(t), value.scalar);
        ctx.warn(fmt::format("{} has no literal for {}: attribute '{}' of {} is written as {} "
                             "(the largest finite {}); results differ where the value itself "
                             "reaches an output",
                             reader, spelled(value.scalar), name, inv.op,
                             nnef::formatScalar(finite), dtypeName(t)));
        value = Expr::f(finite);
        ++rewritten;
    }
    return rewritten;
}

} // namespace t2n::translate
