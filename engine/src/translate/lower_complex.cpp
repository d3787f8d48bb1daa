// Kinds that read or write a complex value (complexRegistry()). t2n has no
// complex dtype: a complex tensor is its real view, a trailing axis of 2
// (real, imaginary), as tract's Fft and Stft read and write it. Every
// lowering here keeps that axis last, and reads the axes the user gives
// against the complex tensor's own rank (PyTorch's), one less than the rank
// written. Kinds missing here are refused by the translator, naming the node.
// Khronos NNEF has no complex numbers: the translator refuses the family.
#include "translate/complex_util.h"
#include "translate/lower_util.h"
#include "translate/registry.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace t2n::translate {

int64_t logicalRank(const ir::Value& v) {
    return rankOf(v) - (v.complex ? 1 : 0);
}

namespace {

// Pads the trailing unit axis of `x` (rank `rank`) to 2 with a zero before
// (which 1: x is the imaginary part) or after (which 0: the real part).
Expr padPart(Context& ctx, Expr x, int64_t rank, int which, const std::string& tag) {
    return ctx.emitTemp("pad", {std::move(x)},
                        {{"padding", paddingPairs({{which, 1 - which}}, rank - 1)},
                         {"border", Expr::str("constant")},
                         {"value", lit(0.0)}},
                        tag);
}

} // namespace

Expr asComplex(Context& ctx, ir::ValueId id, int64_t rank) {
    const ir::Value& v = ctx.graph().value(id);
    if (v.complex)
        return ctx.operand(id, rank);
    if (v.kind != ir::ValueKind::Tensor) { // a Python number: [x, 0]
        std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
        shape.back() = 2;
        const auto* c = v.constant ? std::get_if<double>(&*v.constant) : nullptr;
        const auto* i = v.constant ? std::get_if<int64_t>(&*v.constant) : nullptr;
        if (!c && !i)
            ctx.unsupported(fmt::format("{} with a number computed in the graph (%{})",
                                        ctx.node().kind, v.debugName));
        const double x = c ? *c : static_cast<double>(*i);
        return floatTable(ctx, {static_cast<float>(x), 0.0f}, shape, "complex_number");
    }
    Expr r = rankedOperand(ctx, id, rank - 1, DType::F32);
    Expr u = ctx.emitTemp("unsqueeze", {r}, {{"axes", Expr::ints({rank - 1})}}, "re");
    return padPart(ctx, u, rank, 0, "complex");
}

Expr complexOperand(Context& ctx, size_t i) {
    const ir::Value& v = ctx.in(i);
    if (v.dtype != DType::F32)
        ctx.unsupported(fmt::format("{} of a {} tensor", ctx.node().kind, dtypeName(v.dtype)),
                        "t2n writes tract's Fourier transforms on f32 tensors");
    if (v.complex)
        return ctx.input(i);
    return asComplex(ctx, ctx.node().inputs[i], rankOf(v) + 1);
}

Expr complexPart(Context& ctx, Expr x, int64_t rank, int64_t which, const std::string& tag) {
    return ctx.emitTemp("slice", {std::move(x)}, sliceArgs(rank - 1, which, which + 1), tag);
}

void emitFromParts(Context& ctx, Expr re, Expr im, int64_t rank, bool sameShape) {
    const Kwargs last{{"axes", Expr::ints({rank})}};
    Expr ur = ctx.emitTemp("unsqueeze", {std::move(re)}, last, "re");
    Expr ui = ctx.emitTemp("unsqueeze", {std::move(im)}, last, "im");
    if (sameShape) {
        ctx.emitOut("concat", {Expr::array({ur, ui})}, {{"axis", Expr::i(rank)}});
        return;
    }
    ctx.emitOut("add", {padPart(ctx, ur, rank + 1, 0, "re_part"),
                        padPart(ctx, ui, rank + 1, 1, "im_part")});
}

namespace {

// A real squeezed part (0: real, 1: imaginary) of complex input 0.
Expr squeezedPart(Context& ctx, int which) {
    const int64_t r = rankOf(ctx.in(0));
    Expr p = complexPart(ctx, ctx.input(0), r, which, which ? "imag" : "real");
    return ctx.emitTemp("squeeze", {p}, {{"axes", Expr::ints({r - 1})}}, which ? "im" : "re");
}

// ---- values ---------------------------------------------------------------------

// |z| = sqrt(re^2 + im^2): the sum of squares over the trailing axis.
void lowerComplexAbs(Context& ctx) {
    const int64_t r = rankOf(ctx.in(0));
    Expr sq = ctx.emitTemp("sqr", {ctx.input(0)}, {}, "squares");
    Expr sum = ctx.emitTemp("sum_reduce", {sq}, {{"axes", Expr::ints({r - 1})}}, "norm2");
    Expr root = ctx.emitTemp("sqrt", {sum}, {}, "modulus");
    ctx.emitOut("squeeze", {root}, {{"axes", Expr::ints({r - 1})}});
}

// angle(z) = atan2(im, re), with PyTorch's signed zeros (std::arg).
void lowerComplexAngle(Context& ctx) {
    if (!ctx.in(0).complex)
        ctx.unsupported("aten::angle of a real tensor giving a complex value");
    emitAtan2(ctx, squeezedPart(ctx, 1), squeezedPart(ctx, 0), DType::F32);
}

// The real operands of complex(real, imag) / polar(abs, angle), aligned to the
// output's rank, and whether both have the output's shape.
std::pair<bool, int64_t> realPairShape(Context& ctx) {
    for (size_t i = 0; i < 2; ++i)
        if (ctx.in(i).complex || ctx.in(i).dtype != DType::F32)
            ctx.unsupported(fmt::format("{} of a {}{} tensor", ctx.node().kind,
                                        ctx.in(i).complex ? "complex " : "",
                                        dtypeName(ctx.in(i).dtype)),
                            "t2n builds complex64 values from f32 parts");
    const int64_t r = logicalRank(ctx.out());
    std::vector<int64_t> shape(ctx.out().shape.begin(), ctx.out().shape.end() - 1);
    return {ctx.in(0).shape == shape && ctx.in(1).shape == shape, r};
}

// complex(real, imag): the two parts on a new trailing axis.
void lowerComplexFromParts(Context& ctx) {
    const auto [same, r] = realPairShape(ctx);
    emitFromParts(ctx, rankedOperand(ctx, ctx.node().inputs[0], r, DType::F32),
                  rankedOperand(ctx, ctx.node().inputs[1], r, DType::F32), r, same);
}

// polar(abs, angle) = abs cos(angle) + i abs sin(angle).
void lowerPolar(Context& ctx) {
    const auto [same, r] = realPairShape(ctx);
    Expr m = rankedOperand(ctx, ctx.node().inputs[0], r, DType::F32);
    Expr a = rankedOperand(ctx, ctx.node().inputs[1], r, DType::F32);
    Expr re = ctx.emitTemp("mul", {m, ctx.emitTemp("cos", {a}, {}, "cos")}, {}, "x");
    Expr im = ctx.emitTemp("mul", {m, ctx.emitTemp("sin", {a}, {}, "sin")}, {}, "y");
    // The products broadcast: both parts have the output's shape.
    emitFromParts(ctx, re, im, r, true);
}

// add / sub(a, b, alpha): part by part; a real operand has a zero imaginary
// part, alpha (real) scales b.
template <bool Sub> void lowerComplexAddSub(Context& ctx) {
    const int64_t r = rankOf(ctx.out());
    Expr a = asComplex(ctx, ctx.node().inputs[0], r);
    Expr b = asComplex(ctx, ctx.node().inputs[1], r);
    if (ctx.numInputs() > 2 && !ctx.isNone(2)) {
        if (ctx.in(2).complex)
            ctx.unsupported(ctx.node().kind + " with a complex alpha");
        if (const double alpha = ctx.floatArg(2); alpha != 1.0)
            b = ctx.emitTemp("mul", {b, lit(alpha)}, {}, "scaled");
    }
    ctx.emitOut(Sub ? "sub" : "add", {a, b});
}

void lowerComplexNeg(Context& ctx) {
    ctx.emitOut("neg", {ctx.input(0)});
}

// A complex operand of `rank` (with its 2), or a real one as a multiplier with
// a unit trailing axis (broadcast over real and imaginary parts).
Expr mulOperand(Context& ctx, size_t i, int64_t rank) {
    const ir::Value& v = ctx.in(i);
    if (v.complex)
        return ctx.operand(ctx.node().inputs[i], rank);
    if (v.kind != ir::ValueKind::Tensor)
        return lit(ctx.floatArg(i));
    Expr r = ctx.operand(ctx.node().inputs[i], rank - 1, DType::F32);
    if (rankOf(v) == 0)
        return r;
    return ctx.emitTemp("unsqueeze", {r}, {{"axes", Expr::ints({rank - 1})}},
                        fmt::format("real{}", i));
}

// (a + bi)(c + di) = (ac - bd) + (ad + bc)i, parts sliced from the trailing
// axis and concatenated back; by a real factor: both parts scaled.
void lowerComplexMul(Context& ctx) {
    const int64_t r = rankOf(ctx.out());
    Expr a = mulOperand(ctx, 0, r), b = mulOperand(ctx, 1, r);
    if (!ctx.in(0).complex || !ctx.in(1).complex) {
        ctx.emitOut("mul", {a, b});
        return;
    }
    Expr ar = complexPart(ctx, a, r, 0, "a_re"), ai = complexPart(ctx, a, r, 1, "a_im");
    Expr br = complexPart(ctx, b, r, 0, "b_re"), bi = complexPart(ctx, b, r, 1, "b_im");
    Expr re = ctx.emitTemp(
        "sub", {ctx.emitTemp("mul", {ar, br}, {}, "ac"), ctx.emitTemp("mul", {ai, bi}, {}, "bd")},
        {}, "re");
    Expr im = ctx.emitTemp(
        "add", {ctx.emitTemp("mul", {ar, bi}, {}, "ad"), ctx.emitTemp("mul", {ai, br}, {}, "bc")},
        {}, "im");
    ctx.emitOut("concat", {Expr::array({re, im})}, {{"axis", Expr::i(r - 1)}});
}

// div(z, x) by a real divisor: both parts divided.
void lowerComplexDiv(Context& ctx) {
    if (ctx.numInputs() > 2 && !ctx.isNone(2))
        ctx.unsupported("aten::div of a complex tensor with a rounding mode");
    if (!ctx.in(0).complex || ctx.in(1).complex)
        ctx.unsupported(fmt::format("aten::div {}", ctx.in(0).complex ? "by a complex divisor"
                                                                      : "of a real dividend by a "
                                                                        "complex divisor"),
                        "t2n divides complex tensors by real tensors or numbers only");
    const int64_t r = rankOf(ctx.out());
    ctx.emitOut("div", {mulOperand(ctx, 0, r), mulOperand(ctx, 1, r)});
}

// real / imag: one part of the trailing axis, the axis dropped.
template <int Which> void lowerComplexPart(Context& ctx) {
    if (!ctx.in(0).complex) // PyTorch has no imaginary part of a real tensor
        ctx.unsupported(ctx.node().kind + " of a real tensor");
    const int64_t r = rankOf(ctx.in(0));
    Expr p = complexPart(ctx, ctx.input(0), r, Which, Which ? "imag" : "real");
    ctx.emitOut("squeeze", {p}, {{"axes", Expr::ints({r - 1})}});
}

} // namespace

void lowerComplexImag(Context& ctx) {
    lowerComplexPart<1>(ctx);
}

// conj / conj_physical: the imaginary part negated (times [1, -1]); a real
// tensor is its own conjugate.
void lowerComplexConj(Context& ctx) {
    if (!ctx.in(0).complex) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    const int64_t r = rankOf(ctx.in(0));
    std::vector<int64_t> shape(static_cast<size_t>(r), 1);
    shape.back() = 2;
    ctx.emitOut("mul", {ctx.input(0), floatTable(ctx, {1.0f, -1.0f}, shape, "conjugate")});
}

namespace {

// resolve_conj / resolve_neg / contiguous / clone / detach: t2n records
// complex values resolved, and has no memory layout.
void lowerComplexIdentity(Context& ctx) {
    ctx.bindOut(ctx.input(0));
}

// ---- shapes (the trailing 2 stays last) -----------------------------------------

// Refuses a complex input with a dynamic axis: these lowerings write sizes.
const ir::Value& staticComplex(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    for (const auto& s : x.symbols)
        if (!s.empty())
            ctx.unsupported(ctx.node().kind + " of a complex tensor with a dynamic axis",
                            "t2n translates shape operations of complex tensors of static shape");
    return x;
}

// reshape / view of a complex tensor: to its recorded shape, trailing 2 kept.
void lowerComplexReshape(Context& ctx) {
    const ir::Value& y = ctx.out();
    for (const auto& s : y.symbols)
        if (!s.empty())
            ctx.unsupported(ctx.node().kind + " of a complex tensor with a dynamic axis");
    ctx.emitOut("reshape", {ctx.input(0)}, {{"shape", Expr::ints(y.shape)}});
}

// A permutation of the complex axes (PyTorch's), the trailing 2 appended.
void emitPermutation(Context& ctx, std::vector<int64_t> perm) {
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i)
        identity = identity && perm[i] == static_cast<int64_t>(i);
    if (identity) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    perm.push_back(static_cast<int64_t>(perm.size()));
    ctx.emitOut("transpose", {ctx.input(0)}, {{"axes", Expr::ints(perm)}});
}

void lowerComplexTranspose(Context& ctx) {
    const int64_t l = logicalRank(ctx.in(0));
    std::vector<int64_t> perm(static_cast<size_t>(l));
    for (int64_t i = 0; i < l; ++i)
        perm[static_cast<size_t>(i)] = i;
    std::swap(perm[static_cast<size_t>(ctx.axis(ctx.intArg(1), l))],
              perm[static_cast<size_t>(ctx.axis(ctx.intArg(2), l))]);
    emitPermutation(ctx, perm);
}

void lowerComplexPermute(Context& ctx) {
    const int64_t l = logicalRank(ctx.in(0));
    std::vector<int64_t> perm = ctx.intsArg(1);
    if (static_cast<int64_t>(perm.size()) != l)
        ctx.unsupported(
            fmt::format("permute of {} axes of a complex tensor of {}", perm.size(), l));
    for (auto& a : perm)
        a = ctx.axis(a, l);
    emitPermutation(ctx, perm);
}

void lowerComplexUnsqueeze(Context& ctx) {
    const int64_t a = ctx.axis(ctx.intArg(1), logicalRank(ctx.in(0)) + 1);
    ctx.emitOut("unsqueeze", {ctx.input(0)}, {{"axes", Expr::ints({a})}});
}

// squeeze(x) / squeeze(x, dim) / squeeze(x, dims): the named unit axes (all
// of them without dim); a named axis longer than 1 stays, as in PyTorch.
void lowerComplexSqueeze(Context& ctx) {
    const ir::Value& x = staticComplex(ctx);
    const int64_t l = logicalRank(x);
    std::vector<int64_t> named;
    if (ctx.numInputs() > 1)
        for (int64_t a : ctx.intsArg(1))
            named.push_back(ctx.axis(a, l));
    else
        for (int64_t a = 0; a < l; ++a)
            named.push_back(a);
    std::vector<int64_t> axes;
    for (int64_t a : named)
        if (x.shape[static_cast<size_t>(a)] == 1)
            axes.push_back(a);
    std::sort(axes.begin(), axes.end());
    axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
    if (axes.empty()) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    ctx.emitOut("squeeze", {ctx.input(0)}, {{"axes", Expr::ints(axes)}});
}

// Refuses a dynamic axis `a` of complex input 0: a slice of it writes sizes
// (the other axes may be dynamic: FNO's modes of a batch of B).
void staticComplexAxis(Context& ctx, int64_t a) {
    if (dynamicAxis(ctx.in(0), a))
        ctx.unsupported(ctx.node().kind + " along a dynamic axis of a complex tensor",
                        "t2n slices complex tensors along static axes");
}

// select(x, dim, index): a slice of one, the axis dropped.
void lowerComplexSelect(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t a = ctx.axis(ctx.intArg(1), logicalRank(x));
    staticComplexAxis(ctx, a);
    const int64_t n = x.shape[static_cast<size_t>(a)];
    const int64_t i = ctx.intArg(2) < 0 ? ctx.intArg(2) + n : ctx.intArg(2);
    if (i < 0 || i >= n)
        ctx.unsupported(fmt::format("index {} out of range for size {}", ctx.intArg(2), n));
    Expr s = ctx.emitTemp("slice", {ctx.input(0)}, sliceArgs(a, i, i + 1), "slice");
    ctx.emitOut("squeeze", {s}, {{"axes", Expr::ints({a})}});
}

// slice(x, dim, start, end, step): PyTorch's clamped bounds, a static axis
// (a dynamic one only whole: x[:, :, :m] slices axis 0 from 0 to the end).
void lowerComplexSlice(Context& ctx) {
    const ir::Value& x = ctx.in(0);
    const int64_t a = ctx.axis(ctx.intArg(1), logicalRank(x));
    const int64_t n = x.shape[static_cast<size_t>(a)];
    const int64_t step = ctx.numInputs() > 4 ? ctx.intArg(4) : 1;
    const bool fromStart = ctx.isNone(2) || (!ctx.isSymbolic(2) && ctx.intArg(2) == 0);
    const bool toEnd = ctx.isNone(3) ||
                       (!ctx.isSymbolic(3) && ctx.intArg(3) == std::numeric_limits<int64_t>::max());
    if (dynamicAxis(x, a) && fromStart && toEnd && step == 1) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    staticComplexAxis(ctx, a);
    if (step < 1)
        ctx.unsupported(fmt::format("slice step {}", step));
    auto clamp = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
    const int64_t b = ctx.isNone(2) ? 0 : clamp(ctx.intArg(2));
    const int64_t e = std::max(b, ctx.isNone(3) ? n : clamp(ctx.intArg(3)));
    if (b == 0 && e == n && step == 1) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    ctx.emitOut("slice", {ctx.input(0)}, sliceArgs(a, b, e, step));
}

// The elements of list input 0 as complex tensors of `rank` axes (with the 2):
// PyTorch promotes real elements of a cat with complex ones.
std::vector<Expr> complexItems(Context& ctx, int64_t rank) {
    const ir::Value& l = ctx.in(0);
    if (l.elements.empty())
        ctx.unsupported(ctx.node().kind + " of a list of complex tensors built in a loop",
                        "t2n reads the elements of a prim::ListConstruct");
    std::vector<Expr> items;
    for (ir::ValueId e : l.elements)
        items.push_back(asComplex(ctx, e, rank));
    return items;
}

void lowerComplexCat(Context& ctx) {
    const int64_t l = logicalRank(ctx.out());
    const int64_t a = ctx.axis(ctx.intArg(1), l);
    auto items = complexItems(ctx, l + 1);
    if (items.size() == 1) {
        ctx.bindOut(items[0]);
        return;
    }
    ctx.emitOut("concat", {Expr::array(items)}, {{"axis", Expr::i(a)}});
}

void lowerComplexStack(Context& ctx) {
    const int64_t l = logicalRank(ctx.out()); // one more than the elements'
    const int64_t a = ctx.axis(ctx.intArg(1), l);
    ctx.emitOut("stack", {Expr::array(complexItems(ctx, l))}, {{"axis", Expr::i(a)}});
}

// flip(x, dims): a reversed tract_core_gather per named axis.
void lowerComplexFlip(Context& ctx) {
    const ir::Value& x = staticComplex(ctx);
    const int64_t l = logicalRank(x);
    std::vector<int64_t> axes;
    for (int64_t a : ctx.intsArg(1))
        axes.push_back(ctx.axis(a, l));
    std::sort(axes.begin(), axes.end());
    axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
    if (axes.empty()) {
        ctx.bindOut(ctx.input(0));
        return;
    }
    Expr y = ctx.input(0);
    for (size_t k = 0; k < axes.size(); ++k) {
        const int64_t n = x.shape[static_cast<size_t>(axes[k])];
        std::vector<int64_t> idx(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
            idx[static_cast<size_t>(i)] = n - 1 - i;
        y = emitStep(ctx, k + 1 == axes.size(), "tract_core_gather",
                     {y, indexTable(ctx, idx, {n}, "reversed")}, {{"axis", Expr::i(axes[k])}},
                     "flipped");
    }
}

// pad(x, pad, mode, value) / constant_pad_nd(x, pad, value): zeros (0 + 0i)
// around the complex axes, PyTorch's pairs given last axis first; the
// trailing 2 is not padded.
void lowerComplexPad(Context& ctx) {
    const bool nd = ctx.node().kind == "aten::constant_pad_nd";
    const std::string mode = nd || ctx.numInputs() < 3 ? "constant" : ctx.stringArg(2);
    const size_t valueArg = nd ? 2 : 3;
    const double value =
        ctx.numInputs() > valueArg && !ctx.isNone(valueArg) ? ctx.floatArg(valueArg) : 0.0;
    if (mode != "constant" || value != 0.0)
        ctx.unsupported(fmt::format("{} of a complex tensor in mode '{}' with value {}",
                                    ctx.node().kind, mode, value),
                        "t2n pads complex tensors with zeros");
    const std::vector<int64_t> p = ctx.intsArg(1);
    const int64_t l = logicalRank(ctx.in(0));
    if (p.size() % 2 != 0 || static_cast<int64_t>(p.size() / 2) > l)
        ctx.unsupported(fmt::format("{} pads for a complex tensor of {} axes", p.size(), l));
    std::vector<std::pair<int64_t, int64_t>> pairs(static_cast<size_t>(l + 1), {0, 0});
    for (size_t k = 0; k < p.size() / 2; ++k) {
        if (p[2 * k] < 0 || p[2 * k + 1] < 0)
            ctx.unsupported("negative padding (cropping) of a complex tensor",
                            "slice the complex tensor instead");
        pairs[static_cast<size_t>(l) - 1 - k] = {p[2 * k], p[2 * k + 1]};
    }
    ctx.emitOut("pad", {ctx.input(0)},
                {{"padding", paddingPairs(pairs, 0)},
                 {"border", Expr::str("constant")},
                 {"value", lit(0.0)}});
}

// prim::ListConstruct of complex tensors: the consumers read the elements.
void lowerComplexList(Context&) {}

// zeros(sizes, dtype=complex64) / new_zeros / zeros_like: zeros of the
// sizes (symbolic ones too) with the trailing 2.
void lowerComplexZeros(Context& ctx) {
    const std::string& kind = ctx.node().kind;
    std::vector<Expr> shape;
    if (kind.ends_with("_like"))
        for (int64_t d = 0; d < logicalRank(ctx.out()); ++d)
            shape.push_back(ctx.dimExpr(ctx.node().inputs[0], d));
    else
        shape = ctx.sizesArg(kind.starts_with("aten::new_") ? 1 : 0);
    shape.push_back(Expr::i(2));
    const auto rank = static_cast<int64_t>(shape.size());
    ctx.emitOut("tract_core_broadcast", {unitTensorLiteral(lit(0.0), rank)},
                {{"shape", Expr::array(std::move(shape))}});
}

// type_as(z, other) / expand_as(z, other) of a complex z to a complex
// value of its own dtype and shape: z itself.
void lowerComplexAs(Context& ctx) {
    const ir::Value &z = ctx.in(0), &other = ctx.in(1);
    const bool sameShape = z.shape == other.shape && z.symbols == other.symbols;
    if (!z.complex || !other.complex || z.dtype != other.dtype ||
        (ctx.node().kind == "aten::expand_as" && !sameShape))
        ctx.unsupported(ctx.node().kind + " of a complex tensor to another dtype or shape",
                        "t2n keeps complex tensors in their own dtype and shape here");
    ctx.bindOut(ctx.input(0));
}

// einsum of two complex (or real) operands: (a + bi)(c + di) as one real
// einsum over an extra pair of letters, 'A p, B p q -> C q', the second
// operand written as the 2x2 real matrix [[c, d], [-d, c]] of each element.
void lowerComplexEinsum(Context& ctx) {
    std::string eq = ctx.stringArg(0);
    std::erase(eq, ' ');
    const auto arrow = eq.find("->");
    const auto comma = eq.find(',');
    const auto& elems = ctx.graph().value(ctx.node().inputs[1]).elements;
    if (arrow == std::string::npos || eq.find("...") != std::string::npos ||
        comma == std::string::npos || eq.find(',', comma + 1) != std::string::npos ||
        elems.size() != 2)
        ctx.unsupported("einsum of complex tensors other than two operands with an explicit "
                        "'->' and no ellipsis");
    std::string spare;
    for (char c = 'a'; c <= 'z' && spare.size() < 2; ++c)
        if (eq.find(c) == std::string::npos)
            spare += c;
    if (spare.size() < 2)
        ctx.unsupported("einsum of complex tensors using every letter");
    const char p = spare[0], q = spare[1];
    const std::string real = eq.substr(0, comma) + p + "," +
                             eq.substr(comma + 1, arrow - comma - 1) + p + q + "->" +
                             eq.substr(arrow + 2) + q;
    const int64_t ra = logicalRank(ctx.graph().value(elems[0])) + 1;
    const int64_t rb = logicalRank(ctx.graph().value(elems[1])) + 1;
    Expr a = asComplex(ctx, elems[0], ra);
    Expr b = asComplex(ctx, elems[1], rb);
    Expr re = complexPart(ctx, b, rb, 0, "b_re"), im = complexPart(ctx, b, rb, 1, "b_im");
    Expr minusIm = ctx.emitTemp("neg", {im}, {}, "b_minus_im");
    Expr row =
        ctx.emitTemp("concat", {Expr::array({minusIm, re})}, {{"axis", Expr::i(rb - 1)}}, "b_row");
    Expr matrix =
        ctx.emitTemp("stack", {Expr::array({b, row})}, {{"axis", Expr::i(rb - 1)}}, "b_matrix");
    ctx.emitOut("tract_core_einsum", {Expr::array({a, matrix})},
                {{"expr", Expr::str(real)}, {"acc", Expr::str("f32")}});
}

} // namespace

// Kinds that read or write a complex value (ir::Value::complex): the
// translator looks them up here instead of in the default registry.
void registerComplexOps(Registry& r) {
    r.beginFamily("complex");
    r.add("aten::abs", lowerComplexAbs, "sqrt of the sum of squares",
          "sqr sum_reduce sqrt squeeze !khronos");
    r.add("aten::angle", lowerComplexAngle, "atan2(imag, real), signed zeros as PyTorch",
          "slice squeeze atan div add sub lt or select and eq tract_core_cast !khronos");
    r.add("aten::complex", lowerComplexFromParts, "f32 parts, broadcast",
          "unsqueeze concat +pad +add !khronos");
    r.add("aten::polar", lowerPolar, "abs cos(angle), abs sin(angle)",
          "cos sin mul unsqueeze concat !khronos");
    r.add("aten::add", lowerComplexAddSub<false>, "part by part; real operands promoted",
          "add +mul +unsqueeze +pad !khronos");
    r.add("aten::sub", lowerComplexAddSub<true>, "part by part; real operands promoted",
          "sub +mul +unsqueeze +pad !khronos");
    r.add("aten::neg", lowerComplexNeg, "", "neg !khronos");
    r.add("aten::mul", lowerComplexMul, "by a complex or real tensor or number",
          "mul +unsqueeze +slice +sub +add +concat !khronos");
    r.add("aten::div", lowerComplexDiv, "by a real tensor or number", "div +unsqueeze !khronos");
    r.add("aten::real", lowerComplexPart<0>, "", "slice squeeze !khronos");
    r.add("aten::conj_physical", lowerComplexConj, "", "mul !khronos");
    for (const char* k : {"aten::resolve_conj", "aten::resolve_neg", "aten::contiguous",
                          "aten::clone", "aten::detach"})
        r.add(k, lowerComplexIdentity, "identity", "- !khronos");
    for (const char* k : {"aten::reshape", "aten::view"})
        r.add(k, lowerComplexReshape, "static shapes", "reshape !khronos");
    r.add("aten::transpose", lowerComplexTranspose, "the trailing 2 stays last",
          "+transpose !khronos");
    r.add("aten::permute", lowerComplexPermute, "the trailing 2 stays last", "+transpose !khronos");
    r.add("aten::unsqueeze", lowerComplexUnsqueeze, "", "unsqueeze !khronos");
    r.add("aten::squeeze", lowerComplexSqueeze, "static shapes", "+squeeze !khronos");
    r.add("aten::select", lowerComplexSelect, "static shapes", "slice squeeze !khronos");
    r.add("aten::slice", lowerComplexSlice, "static shapes, positive step", "+slice !khronos");
    r.add("aten::cat", lowerComplexCat, "real elements promoted",
          "+concat +unsqueeze +pad !khronos");
    r.add("aten::stack", lowerComplexStack, "real elements promoted",
          "stack +unsqueeze +pad !khronos");
    r.add("aten::flip", lowerComplexFlip, "static shapes", "+tract_core_gather !khronos");
    for (const char* k : {"aten::pad", "aten::constant_pad_nd"})
        r.add(k, lowerComplexPad, "zeros, non-negative pads", "pad !khronos");
    r.add("prim::ListConstruct", lowerComplexList, "complex tensor lists", "- !khronos");
    for (const char* k : {"aten::zeros", "aten::new_zeros", "aten::zeros_like"})
        r.add(k, lowerComplexZeros, "symbolic sizes too", "tract_core_broadcast !khronos");
    for (const char* k : {"aten::type_as", "aten::expand_as"})
        r.add(k, lowerComplexAs, "to a complex value of the same dtype and shape: identity",
              "- !khronos");
    r.add("aten::einsum", lowerComplexEinsum,
          "two operands: one real einsum over the 2x2 real matrices of the second's elements",
          "tract_core_einsum slice neg concat stack +unsqueeze +pad !khronos");
    r.add("aten::slice_scatter", lowerSliceScatter,
          "step 1, static axis (a dynamic one only whole): slices and concat",
          "+slice +concat !khronos");
}

const Registry& complexRegistry() {
    static const Registry registry = [] {
        Registry r;
        registerComplexOps(r);
        // The spectral kinds know complex values themselves.
        registerSpectralOps(r);
        return r;
    }();
    return registry;
}

} // namespace t2n::translate
