#include "interp/quant.h"

#include "interp/kernel_util.h"

#include "t2n/error.h"

#include <ATen/ATen.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace t2n::interp {

using nnef::ast::Expr;
using nnef::ast::invocationArgument;

int64_t QuantParams::low() const {
    return isSigned ? -(int64_t{1} << (bits - 1)) : 0;
}
int64_t QuantParams::high() const {
    return isSigned ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
}

namespace {

[[noreturn]] void refuse(const nnef::ast::QuantEntry& e, const std::string& why) {
    NodeRef ref;
    ref.kind = e.op;
    ref.valueName = e.tensor;
    ref.sourceFile = "graph.quant";
    ref.sourceLine = e.loc.line;
    throw Error(Stage::Check, ErrorCode::Unsupported,
                fmt::format("graph.quant entry for '{}': {}", e.tensor, why), ref,
                "tract reads zero_point_linear_quantize(zero_point, scale, bits = 8 or 32, "
                "signed, symmetric) with scalar values only");
}

double number(const nnef::ast::QuantEntry& e, const std::string& name, bool required = true) {
    for (const auto& [n, v] : e.args)
        if (n == name) {
            bool neg = v->kind == Expr::Kind::Unary && v->op == "-" && !v->items.empty();
            const Expr& x = neg ? *v->items[0] : *v;
            double d = 0;
            if (x.kind == Expr::Kind::Integer)
                d = static_cast<double>(x.integer);
            else if (x.kind == Expr::Kind::Scalar)
                d = x.scalar;
            else if (x.kind == Expr::Kind::Logical)
                d = x.logical ? 1 : 0;
            else
                refuse(e, fmt::format("'{}' must be a scalar literal (per-channel lists are not "
                                      "read by tract)",
                                      name));
            return neg ? -d : d;
        }
    if (required)
        refuse(e, fmt::format("missing '{}'", name));
    return 0;
}

} // namespace

QuantTable readQuantTable(const std::vector<nnef::ast::QuantEntry>& entries) {
    QuantTable table;
    for (const auto& e : entries) {
        if (e.op != "zero_point_linear_quantize")
            refuse(e, fmt::format("'{}' is not supported by the checker", e.op));
        QuantParams q;
        q.scale = number(e, "scale");
        q.zeroPoint = static_cast<int64_t>(number(e, "zero_point"));
        q.bits = static_cast<int>(number(e, "bits"));
        q.isSigned = number(e, "signed") != 0;
        if (q.bits != 8 && q.bits != 32)
            refuse(e, fmt::format("{} bits (tract reads 8 or 32)", q.bits));
        if (!(q.scale > 0))
            refuse(e, fmt::format("scale {} is not positive", q.scale));
        table[e.tensor] = q;
    }
    return table;
}

at::Tensor applyQuant(const at::Tensor& t, const QuantParams& q, QuantRounding rounding) {
    // tract reads the scale as an f32; a product in double rounded once to
    // f32 is the f32 product.
    const float scale32 = static_cast<float>(q.scale);
    if (!t.is_floating_point())
        return ((t.to(at::kDouble) - static_cast<double>(q.zeroPoint)) * scale32).to(at::kFloat);
    const at::Tensor x = t.to(at::kFloat);
    at::Tensor stored;
    if (rounding == QuantRounding::Cast) {
        // x / scale + zero_point in f32, each step rounded, then half to even
        // (at::round rounds half to even). (tract's ONNX QuantizeLinear rounds
        // x * (1 / scale) half away from zero: not what an NNEF graph runs.)
        stored = at::round(x / scale32 + static_cast<float>(q.zeroPoint));
    } else {
        // scale_by(x, 1 / scale): round_ties_to_even(|x| * inv) * sign(x),
        // which is half to even of x * inv; the zero point added after.
        const float inverse = 1.0f / scale32;
        stored = at::round(x * inverse) + static_cast<double>(q.zeroPoint);
    }
    stored = at::clamp(stored, static_cast<double>(q.low()), static_cast<double>(q.high()))
                 .to(at::kDouble);
    return ((stored - static_cast<double>(q.zeroPoint)) * scale32).to(t.scalar_type());
}

namespace {

std::string identifierOf(const Expr* e) {
    return e && e->kind == Expr::Kind::Identifier ? e->text : std::string();
}

const QuantParams* entryOf(const QuantTable& table, const std::string& id) {
    auto it = table.find(id);
    return it == table.end() ? nullptr : &it->second;
}

bool isU8(const QuantParams* q) {
    return q && q->bits == 8 && !q->isSigned;
}

} // namespace

QuantRounding roundingOf(const Expr& rhs, const std::string& output, const QuantTable& table) {
    // tract's binary operations requantize all-u8 operands with scale_by;
    // any other quantized combination goes through casts (binary.rs,
    // generic_q_binary_as_float_op).
    static const std::set<std::string> kBinary{"add", "sub", "mul", "div", "min", "max"};
    if (rhs.kind != Expr::Kind::Invocation || !kBinary.count(rhs.text) || rhs.args.size() < 2)
        return QuantRounding::Cast;
    const QuantParams* a = entryOf(table, identifierOf(rhs.args[0].second.get()));
    const QuantParams* b = entryOf(table, identifierOf(rhs.args[1].second.get()));
    return isU8(a) && isU8(b) && isU8(entryOf(table, output)) ? QuantRounding::InverseScale
                                                              : QuantRounding::Cast;
}

namespace {

std::string describeQuant(const QuantParams* q) {
    if (!q)
        return "an unquantized tensor";
    return fmt::format("{}{}(Z:{} S:{})", q->isSigned ? "QI" : "QU", q->bits, q->zeroPoint,
                       static_cast<float>(q->scale));
}

bool sameType(const QuantParams& a, const QuantParams& b) {
    return a.bits == b.bits && a.isSigned == b.isSigned && a.zeroPoint == b.zeroPoint &&
           static_cast<float>(a.scale) == static_cast<float>(b.scale);
}

/// tract's NNEF reader wires a binary operation at one operating type
/// (nnef/src/registry.rs): the operands' common type unless one is a
/// constant, whose type it does not trust. A quantized type has no common
/// type with any other (data/src/datum.rs, super_types), so two computed
/// operands of different quantized types, or a quantized and a plain one,
/// fail to load: "No super type for QU8(...) and QU8(...)".
std::optional<std::string> refusedOperands(const Expr& rhs, const QuantTable& table,
                                           const std::set<std::string>& constants) {
    static const std::set<std::string> kBinary{"add", "sub", "mul", "div", "pow", "min", "max",
                                               "eq",  "ne",  "lt",  "gt",  "le",  "ge"};
    if (!kBinary.count(rhs.text) || rhs.args.size() < 2)
        return std::nullopt;
    const Expr* x = rhs.args[0].second.get();
    const Expr* y = rhs.args[1].second.get();
    // Literals and variables are constants tract casts to the other operand's type.
    if (x == nullptr || y == nullptr || x->kind != Expr::Kind::Identifier ||
        y->kind != Expr::Kind::Identifier || constants.count(x->text) || constants.count(y->text))
        return std::nullopt;
    const QuantParams* a = entryOf(table, x->text);
    const QuantParams* b = entryOf(table, y->text);
    if ((!a && !b) || (a && b && sameType(*a, *b)))
        return std::nullopt;
    return fmt::format("'{}' is {} and '{}' is {}: tract's {} needs operands of one type and a "
                       "quantized type has no common type with another (\"No super type\"): "
                       "compute on the real values (tract_core_cast to f32) and requantize",
                       x->text, describeQuant(a), y->text, describeQuant(b), rhs.text);
}

} // namespace

std::optional<std::string> tractRefusesQuantized(const Expr& rhs, const QuantTable& table,
                                                 const std::set<std::string>& constants) {
    if (table.empty() || rhs.kind != Expr::Kind::Invocation)
        return std::nullopt;
    if (auto why = refusedOperands(rhs, table, constants))
        return why;
    const bool pool = rhs.text == "avg_pool" || rhs.text == "box" || rhs.text == "rms_pool";
    const bool sum = rhs.text == "sum_reduce" || rhs.text == "mean_reduce";
    if (!pool && !sum)
        return std::nullopt;
    const std::string input = identifierOf(invocationArgument(rhs, "input", 0));
    const QuantParams* q = entryOf(table, input);
    if (!q || q->bits != 8)
        return std::nullopt;
    return pool ? fmt::format("'{}' is a quantized tensor (graph.quant), and tract's {} "
                              "(SumPool) computes floating-point types only: dequantize it "
                              "first (tract_core_cast to f32)",
                              input, rhs.text)
                : fmt::format("'{}' is a quantized tensor (graph.quant), and tract's {} adds "
                              "its stored integers clamping every partial sum to {} bits: "
                              "dequantize it first (tract_core_cast to f32)",
                              input, rhs.text, q->bits);
}

int64_t scaleRoundingEven(int64_t acc, float factor) {
    if (factor == 0.0f)
        return acc; // tract: no multiplier, no shift
    uint32_t bits = 0;
    std::memcpy(&bits, &factor, sizeof bits);
    const int64_t exponent = (bits >> 23) & 0xff;
    const uint32_t fraction = bits & 0x007fffff;
    int64_t value = acc;
    int64_t shift = 127 - exponent; // a power of two: a plain shift
    if (fraction != 0) {
        // the 24-bit mantissa as a Q0.31 multiplier in [0.5, 1)
        const int64_t multiplier = static_cast<int64_t>((fraction | 0x800000u) << 7);
        value = multiplier * acc;
        shift = 127 - exponent - 1 + 31;
    }
    if (shift <= 0)
        return static_cast<int32_t>(value << -shift);
    if (shift >= 63)
        return 0;
    const int64_t magnitude = value < 0 ? -value : value;
    const int64_t half = int64_t{1} << (shift - 1);
    const int64_t nudge = ((magnitude >> shift) & 1) - 1; // ties to even
    const int64_t rounded = (magnitude + half + nudge) >> shift;
    return static_cast<int32_t>(value < 0 ? -rounded : rounded);
}

std::optional<Value> quantizedProduct(const Expr& rhs, const std::string& output, Scope& scope,
                                      const QuantTable& table,
                                      const std::function<Value()>& evaluate) {
    if (table.empty() || rhs.kind != Expr::Kind::Invocation ||
        (rhs.text != "conv" && rhs.text != "linear"))
        return std::nullopt;
    const std::string input = identifierOf(invocationArgument(rhs, "input", 0));
    const std::string filter = identifierOf(invocationArgument(rhs, "filter", 1));
    const std::string bias = identifierOf(invocationArgument(rhs, "bias", 2));
    const QuantParams* qi = entryOf(table, input);
    const QuantParams* qf = entryOf(table, filter);
    const QuantParams* qo = entryOf(table, output);
    if (!qi || !qf || !qo || (!bias.empty() && table.count(bias)))
        return std::nullopt;
    const Value* x = scope.find(input);
    const Value* w = scope.find(filter);
    const Value* b = bias.empty() ? nullptr : scope.find(bias);
    if (!x || !x->isTensor() || !w || !w->isTensor() ||
        (b && (!b->isTensor() || b->tensor.is_floating_point())))
        return std::nullopt;
    // The integers q - z: the real values divided by their scale are within
    // an f32 rounding of them.
    auto integers = [](const Value& v, const QuantParams& q) {
        Value out = v;
        out.tensor =
            at::round(v.tensor.to(at::kDouble) / static_cast<double>(static_cast<float>(q.scale)));
        return out;
    };
    std::vector<std::pair<std::string, Value>> saved{{input, *x}, {filter, *w}};
    if (b)
        saved.emplace_back(bias, *b);
    scope.replace(input, integers(*x, *qi));
    scope.replace(filter, integers(*w, *qf));
    if (b) {
        Value exact = *b;
        exact.tensor = b->tensor.to(at::kDouble);
        scope.replace(bias, std::move(exact));
    }
    Value acc;
    try {
        acc = evaluate();
    } catch (...) {
        for (auto& [name, v] : saved)
            scope.replace(name, std::move(v));
        throw;
    }
    for (auto& [name, v] : saved)
        scope.replace(name, std::move(v));
    if (!acc.isTensor())
        return std::nullopt;
    const float sInput = static_cast<float>(qi->scale), sFilter = static_cast<float>(qf->scale);
    if (rhs.text == "linear") {
        // matmul in i32 typed QI32(s_input * s_filter), then cast: the
        // accumulator as f32 times that scale, in f32.
        acc.tensor = acc.tensor.to(at::kFloat) * (sInput * sFilter);
        acc.tensor = applyQuant(acc.tensor, *qo, QuantRounding::Cast);
        return acc;
    }
    // conv (core/src/ops/matmul/quant.rs combine_scales and requant): the
    // factor (s_filter * s_input) / s_output in f32, Scaler with ties to even,
    // + zero point, clamped.
    const float factor = (sFilter * sInput) / static_cast<float>(qo->scale);
    at::Tensor a = at::round(acc.tensor.to(at::kDouble)).to(at::kLong).contiguous();
    int64_t* p = a.data_ptr<int64_t>();
    for (int64_t i = 0; i < a.numel(); ++i)
        p[i] = std::clamp(scaleRoundingEven(p[i], factor) + qo->zeroPoint, qo->low(), qo->high());
    acc.tensor = ((a.to(at::kDouble) - static_cast<double>(qo->zeroPoint)) *
                  static_cast<double>(static_cast<float>(qo->scale)))
                     .to(at::kFloat);
    return acc;
}

std::optional<Value> storedIntegers(const Expr& rhs, const Scope& scope, const QuantTable& table) {
    if (table.empty() || rhs.kind != Expr::Kind::Invocation || rhs.text != "tract_core_cast")
        return std::nullopt;
    const Expr* to = invocationArgument(rhs, "to", 1);
    const QuantParams* q = entryOf(table, identifierOf(invocationArgument(rhs, "input", 0)));
    const Value* x = q ? scope.find(identifierOf(invocationArgument(rhs, "input", 0))) : nullptr;
    if (!to || to->kind != Expr::Kind::String || !x || !x->isTensor())
        return std::nullopt;
    const c10::ScalarType type = kernels::dtypeFromName(to->text);
    if (at::isFloatingType(type) || type == at::kBool)
        return std::nullopt;
    Value out = *x;
    out.tensor =
        (at::round(x->tensor.to(at::kDouble) / static_cast<double>(static_cast<float>(q->scale))) +
         static_cast<double>(q->zeroPoint))
            .to(type);
    return out;
}

std::optional<std::pair<std::string, Value>> realBias(const Expr& rhs, const Scope& scope,
                                                      const QuantTable& table) {
    if (table.empty() || rhs.kind != Expr::Kind::Invocation ||
        (rhs.text != "conv" && rhs.text != "deconv" && rhs.text != "linear"))
        return std::nullopt;
    const Expr* input = invocationArgument(rhs, "input", 0);
    const Expr* filter = invocationArgument(rhs, "filter", 1);
    const Expr* bias = invocationArgument(rhs, "bias", 2);
    auto idOf = [](const Expr* e) {
        return e && e->kind == Expr::Kind::Identifier ? e->text : std::string();
    };
    auto qi = table.find(idOf(input));
    auto qf = table.find(idOf(filter));
    const std::string b = idOf(bias);
    if (qi == table.end() || qf == table.end() || b.empty() || table.count(b))
        return std::nullopt;
    const Value* v = scope.find(b);
    if (!v || !v->isTensor() || v->tensor.is_floating_point())
        return std::nullopt;
    Value real = *v;
    real.tensor =
        (v->tensor.to(at::kDouble) * (qi->second.scale * qf->second.scale)).to(at::kFloat);
    return std::make_pair(b, std::move(real));
}

std::optional<double> dequantizedStep(const nnef::LoadedModel& model, const std::string& output) {
    const QuantTable table = readQuantTable(model.quant);
    if (auto own = table.find(output); own != table.end())
        return own->second.scale; // a quantized graph output
    std::string name = output;
    for (int hops = 0; hops < 2; ++hops) {
        const nnef::ast::Assignment* def = nullptr;
        for (const auto& a : model.document.graph.body)
            if (a.lhs->kind == Expr::Kind::Identifier && a.lhs->text == name)
                def = &a;
        if (!def || def->rhs->kind != Expr::Kind::Invocation)
            return std::nullopt;
        const Expr* x = invocationArgument(*def->rhs, def->rhs->text == "copy" ? "x" : "input", 0);
        if (!x || x->kind != Expr::Kind::Identifier)
            return std::nullopt;
        if (def->rhs->text == "copy") {
            name = x->text;
            continue;
        }
        if (def->rhs->text != "tract_core_cast")
            return std::nullopt;
        auto q = table.find(x->text);
        if (q == table.end())
            return std::nullopt;
        return q->second.scale;
    }
    return std::nullopt;
}

} // namespace t2n::interp
