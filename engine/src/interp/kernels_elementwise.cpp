// Element-wise kernels (§1.3 arithmetic, comparison, logic, rounding,
// activations, quantisation; §2.2-2.3 tract's unary and binary operations)
// and the helpers of kernel_util.h.
#include "interp/kernel_util.h"
#include "interp/op_list.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <type_traits>

namespace t2n::interp::kernels {

// ---- shared helpers -----------------------------------------------------------

at::Tensor padTrailing(const at::Tensor& t, int64_t rank) {
    if (t.dim() >= rank)
        return t;
    auto shape = t.sizes().vec();
    shape.resize(static_cast<std::size_t>(rank), 1);
    return t.reshape(shape);
}

std::vector<at::Tensor> broadcastTrailing(std::vector<at::Tensor> ts) {
    int64_t rank = 0;
    for (const auto& t : ts)
        rank = std::max<int64_t>(rank, t.dim());
    for (auto& t : ts)
        t = padTrailing(t, rank);
    for (int64_t axis = 0; axis < rank; ++axis) {
        int64_t size = 1;
        for (const auto& t : ts) {
            const int64_t d = t.size(axis);
            if (d == 1)
                continue;
            if (size != 1 && d != size) {
                std::vector<std::string> shapes;
                for (const auto& u : ts)
                    shapes.push_back(describeTensor(u));
                throw InterpError(fmt::format(
                    "shapes {} do not broadcast at axis {} (NNEF pads a lower rank with trailing "
                    "unit axes)",
                    fmt::join(shapes, " and "), axis));
            }
            size = d;
        }
    }
    return ts;
}

std::pair<at::Tensor, at::Tensor> alignOperands(const Value& a, const Value& b) {
    at::Tensor x = literalTensor(a), y = literalTensor(b);
    if (x.scalar_type() == y.scalar_type())
        return {x, y};
    const bool aConst = !a.isTensor() || a.constant;
    const bool bConst = !b.isTensor() || b.constant;
    c10::ScalarType dt;
    if (aConst && x.numel() == 1)
        dt = y.scalar_type();
    else if (bConst && y.numel() == 1)
        dt = x.scalar_type();
    else if (aConst)
        dt = y.scalar_type();
    else if (bConst)
        dt = x.scalar_type();
    else
        dt = at::promote_types(x.scalar_type(), y.scalar_type());
    return {x.to(dt), y.to(dt)};
}

int64_t checkAxis(int64_t axis, int64_t rank, std::string_view what) {
    if (axis < 0 || axis >= rank)
        throw InterpError(fmt::format(
            "{} {} is out of range for rank {} (NNEF axes are non-negative)", what, axis, rank));
    return axis;
}

std::vector<int64_t> checkAxes(const std::vector<int64_t>& axes, int64_t rank,
                               std::string_view what) {
    for (std::size_t i = 0; i < axes.size(); ++i) {
        checkAxis(axes[i], rank, what);
        for (std::size_t j = 0; j < i; ++j)
            if (axes[j] == axes[i])
                throw InterpError(fmt::format("{} {} is repeated", what, axes[i]));
    }
    return axes;
}

c10::ScalarType dtypeFromName(std::string_view name) {
    std::string n(name);
    for (auto& c : n)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const std::map<std::string, c10::ScalarType> names{
        {"f16", at::kHalf},  {"f32", at::kFloat},    {"f64", at::kDouble},   {"i8", at::kChar},
        {"i16", at::kShort}, {"i32", at::kInt},      {"i64", at::kLong},     {"u8", at::kByte},
        {"bool", at::kBool}, {"scalar", at::kFloat}, {"integer", at::kLong}, {"logical", at::kBool},
        {"tdim", at::kLong}};
    auto it = names.find(n);
    if (it == names.end())
        throw InterpError(fmt::format("datum type '{}' is not supported by the interpreter", name));
    return it->second;
}

c10::ScalarType dtypeOfTypeName(std::string_view typeName) {
    if (typeName.empty() || typeName == "scalar")
        return at::kFloat;
    if (typeName == "integer")
        return at::kLong;
    if (typeName == "logical")
        return at::kBool;
    throw InterpError(fmt::format("type '{}' has no tensor dtype", typeName));
}

// ---- local helpers ------------------------------------------------------------

namespace {

/// NNEF / tract `round`: halves away from zero (Rust f32::round), unlike
/// at::round which rounds halves to even (that one is tract_core_round_even).
at::Tensor roundHalfAway(const at::Tensor& x) {
    if (!x.is_floating_point())
        return x;
    auto t = at::trunc(x);
    return at::where(at::abs(x - t) == 0.5, t + at::sign(x), at::round(x));
}

at::Tensor requireBool(const at::Tensor& t, std::string_view op) {
    if (t.scalar_type() != at::kBool)
        throw InterpError(fmt::format("{} needs logical tensors, got {}", op, describeTensor(t)));
    return t;
}

at::Tensor scalarLike(double v, const at::Tensor& like) {
    return at::scalar_tensor(v, like.options());
}

// tract_shl / tract_shr (ShiftLeft / ShiftRight): Rust's `a << b` / `a >> b`
// on integers as a release build computes them, the shift amount taken
// modulo the bit width (wrapping_shl / wrapping_shr); `>>` of a signed
// integer is arithmetic.
at::Tensor shift(const at::Tensor& x, const at::Tensor& y, bool left, std::string_view op) {
    if (x.is_floating_point() || x.scalar_type() == at::kBool)
        throw InterpError(fmt::format("{} needs integer tensors, got {}", op, describeTensor(x)));
    const at::Tensor a = x.contiguous();
    const at::Tensor b = y.to(x.scalar_type()).contiguous();
    at::Tensor out = at::empty_like(a);
    AT_DISPATCH_INTEGRAL_TYPES(a.scalar_type(), "shift", [&] {
        const scalar_t* pa = a.data_ptr<scalar_t>();
        const scalar_t* pb = b.data_ptr<scalar_t>();
        scalar_t* po = out.data_ptr<scalar_t>();
        constexpr auto bits = static_cast<int64_t>(sizeof(scalar_t) * 8);
        using U = std::make_unsigned_t<scalar_t>;
        for (int64_t i = 0; i < a.numel(); ++i) {
            const auto n = static_cast<int>(static_cast<int64_t>(pb[i]) & (bits - 1));
            po[i] = left ? static_cast<scalar_t>(static_cast<U>(pa[i]) << n)
                         : static_cast<scalar_t>(pa[i] >> n);
        }
    });
    return out;
}

} // namespace

at::Tensor applyBinary(std::string_view op, const Value& a, const Value& b) {
    auto [x0, y0] = alignOperands(a, b);
    auto bt = broadcastTrailing({x0, y0});
    const at::Tensor &x = bt[0], &y = bt[1];
    if (op == "add")
        return at::add(x, y);
    if (op == "sub")
        return at::sub(x, y);
    if (op == "mul")
        return at::mul(x, y);
    if (op == "div")
        // Integer division truncates as tract's (Rust's) does; at::div would
        // return floats.
        return x.is_floating_point() ? at::div(x, y) : at::div(x, y, "trunc");
    if (op == "pow")
        return at::pow(x, y);
    if (op == "min")
        return at::minimum(x, y);
    if (op == "max")
        return at::maximum(x, y);
    if (op == "lt")
        return at::lt(x, y);
    if (op == "gt")
        return at::gt(x, y);
    if (op == "le")
        return at::le(x, y);
    if (op == "ge")
        return at::ge(x, y);
    if (op == "eq")
        return at::eq(x, y);
    if (op == "ne")
        return at::ne(x, y);
    if (op == "and")
        return at::logical_and(requireBool(x, op), requireBool(y, op));
    if (op == "or")
        return at::logical_or(requireBool(x, op), requireBool(y, op));
    if (op == "tract_core_xor")
        return x.scalar_type() == at::kBool ? at::logical_xor(x, y) : at::bitwise_xor(x, y);
    if (op == "tract_core_bitand")
        return at::bitwise_and(x, y);
    if (op == "tract_core_bitor")
        return at::bitwise_or(x, y);
    if (op == "tract_core_bitxor")
        return at::bitwise_xor(x, y);
    if (op == "tract_shl" || op == "tract_shr") {
        const auto shape = at::infer_size(x.sizes(), y.sizes());
        return shift(x.expand(shape), y.expand(shape), op == "tract_shl", op);
    }
    throw InterpError(fmt::format("no binary kernel for '{}'", op));
}

// ---- kernels ------------------------------------------------------------------

std::vector<Value> kUnary(const Call& call) {
    const at::Tensor x = call.tensor("x");
    std::string_view op = call.op;
    if (op.starts_with("tract_core_") && op != "tract_core_erf" && op != "tract_core_round_even" &&
        op != "tract_core_hard_swish" && op != "tract_core_silu" && op != "tract_core_bitnot" &&
        op != "tract_core_is_nan")
        op.remove_prefix(11); // tract_core_tan ... tract_core_atanh: aliases
    if (op == "copy")
        return one(x.clone());
    if (op == "neg")
        return one(at::neg(x));
    if (op == "abs")
        return one(at::abs(x));
    if (op == "sign")
        return one(at::sign(x));
    if (op == "exp")
        return one(at::exp(x));
    if (op == "log")
        return one(at::log(x));
    if (op == "log2") // stdlib body: log(x) / log(2.0)
        return one(at::log(x) / at::log(scalarLike(2.0, x)));
    if (op == "sin")
        return one(at::sin(x));
    if (op == "cos")
        return one(at::cos(x));
    if (op == "tan")
        return one(at::tan(x));
    if (op == "sinh")
        return one(at::sinh(x));
    if (op == "cosh")
        return one(at::cosh(x));
    if (op == "tanh")
        return one(at::tanh(x));
    if (op == "asin")
        return one(at::asin(x));
    if (op == "acos")
        return one(at::acos(x));
    if (op == "atan")
        return one(at::atan(x));
    if (op == "asinh")
        return one(at::asinh(x));
    if (op == "acosh")
        return one(at::acosh(x));
    if (op == "atanh")
        return one(at::atanh(x));
    if (op == "floor")
        return one(x.is_floating_point() ? at::floor(x) : x.clone());
    if (op == "ceil")
        return one(x.is_floating_point() ? at::ceil(x) : x.clone());
    if (op == "round")
        return one(roundHalfAway(x));
    if (op == "tract_core_round_even")
        return one(x.is_floating_point() ? at::round(x) : x.clone());
    if (op == "sqrt")
        return one(at::sqrt(x));
    if (op == "rsqrt")
        return one(at::rsqrt(x));
    if (op == "sqr") // stdlib body: x ^ 2.0
        return one(at::pow(x, 2.0));
    if (op == "rsqr") // stdlib body: x ^ -2.0
        return one(at::pow(x, -2.0));
    if (op == "rcp" || op == "recip")
        return one(at::reciprocal(x));
    if (op == "square")
        return one(at::mul(x, x));
    if (op == "not")
        return one(at::logical_not(requireBool(x, op)));
    if (op == "sigmoid")
        return one(at::sigmoid(x));
    if (op == "relu") // stdlib body: max(x, 0.0)
        return one(at::maximum(x, scalarLike(0.0, x)));
    if (op == "softplus") // stdlib body: log(exp(x) + 1.0), overflow included
        return one(at::log(at::exp(x) + 1.0));
    if (op == "gelu") // Khronos stdlib: the sigmoid approximation (§1.3)
        return one(x * at::sigmoid(1.702 * x));
    if (op == "silu" || op == "tract_core_silu")
        return one(x * at::sigmoid(x));
    if (op == "tract_core_erf")
        return one(at::erf(x));
    if (op == "tract_core_hard_swish") // x * clamp(x / 6 + 0.5, 0, 1)
        return one(x * at::clamp(x / 6.0 + 0.5, 0.0, 1.0));
    if (op == "tract_core_bitnot")
        return one(x.scalar_type() == at::kBool ? at::logical_not(x) : at::bitwise_not(x));
    if (op == "tract_core_is_nan")
        return one(at::isnan(x));
    throw InterpError(fmt::format("no unary kernel for '{}'", call.op));
}

std::vector<Value> kElu(const Call& call) {
    const at::Tensor x = call.tensor("x");
    // tract's stdlib elu has no alpha parameter: alpha = 1 (§2.2).
    const double alpha = call.tract() ? 1.0 : call.scalar("alpha");
    return one(at::where(x < 0.0, alpha * (at::exp(x) - 1.0), x));
}

std::vector<Value> kSelu(const Call& call) {
    const at::Tensor x = call.tensor("x");
    const double alpha = call.scalar("alpha"), lambda = call.scalar("lambda");
    return one(lambda * at::where(x < 0.0, alpha * (at::exp(x) - 1.0), x));
}

std::vector<Value> kSoftabs(const Call& call) {
    const at::Tensor x = call.tensor("x");
    return one(at::sqrt(at::pow(x, 2.0) + call.scalar("epsilon")));
}

std::vector<Value> kLeakyRelu(const Call& call) {
    const at::Tensor x = call.tensor("x");
    return one(at::where(x < 0.0, call.scalar("alpha") * x, x));
}

std::vector<Value> kPrelu(const Call& call) {
    // stdlib body: select(x < 0.0, alpha * x, x), alpha broadcast trailing.
    const Value& x = call.arg("x");
    at::Tensor ax = applyBinary("mul", call.arg("alpha"), x);
    auto bt = broadcastTrailing({x.tensor, ax});
    return one(at::where(bt[0] < 0.0, bt[1], bt[0]));
}

std::vector<Value> kClamp(const Call& call) {
    // stdlib body: max(min(x, b), a)
    Value inner = Value::makeTensor(applyBinary("min", call.arg("x"), call.arg("b")));
    return one(applyBinary("max", inner, call.arg("a")));
}

std::vector<Value> kGeluApprox(const Call& call) {
    // tract's GeluApproximate: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^p))),
    // p = 3, or p = 2 with fast_impl (core/src/ops/nn/gelu_approximate.rs).
    const at::Tensor x = call.tensor("input");
    const double p = call.logical("fast_impl") ? 2.0 : 3.0;
    const double k = std::sqrt(2.0 / std::numbers::pi);
    return one(0.5 * x * (1.0 + at::tanh(k * (x + 0.044715 * at::pow(x, p)))));
}

std::vector<Value> kIsInf(const Call& call) {
    const at::Tensor x = call.tensor("input");
    const bool pos = call.logical("detect_positive"), neg = call.logical("detect_negative");
    at::Tensor r = at::zeros_like(x, x.options().dtype(at::kBool));
    if (pos)
        r = at::logical_or(r, at::isposinf(x));
    if (neg)
        r = at::logical_or(r, at::isneginf(x));
    return one(r);
}

std::vector<Value> kPowConst(const Call& call) {
    return one(at::pow(call.tensor("input"), call.scalar("exponent")));
}

std::vector<Value> kBinary(const Call& call) {
    // tract's comparisons evaluate numbers (and strings) only: on booleans
    // they load, then fail at run time with "Bool is not a number"
    // (core/src/ops/logic/comparison.rs, dispatch_numbers).
    static const std::set<std::string_view> kComparisons{"eq", "ne", "lt", "gt", "le", "ge"};
    if (call.tract() && kComparisons.count(call.op)) {
        const auto [x, y] = alignOperands(call.arg("x"), call.arg("y"));
        if (x.scalar_type() == at::kBool || y.scalar_type() == at::kBool)
            throw InterpError(fmt::format(
                "tract's {} compares numbers only, and its operands are booleans (tract: "
                "\"Bool is not a number\"): compare as logic (and, or, not, tract_core_xor)",
                call.op));
    }
    at::Tensor r = applyBinary(call.op, call.arg("x"), call.arg("y"));
    // tract's declutter replaces a product with a constant operand of zeros
    // (Mul's absorbing element) by zeros of the output's type: x * 0 is +0
    // there where x is negative, infinite or NaN (core/src/ops/binary.rs,
    // declutter_absorbing).
    if (call.tract() && call.op == "mul" && r.is_floating_point())
        for (const char* name : {"x", "y"}) {
            const Value& v = call.arg(name);
            if (!v.isTensor() || v.constant) {
                // The first item decides most constants without a pass over all.
                const at::Tensor c = literalTensor(v);
                if (c.numel() > 0 && c.flatten()[0].item<double>() == 0.0 &&
                    c.eq(0).all().item<bool>())
                    return one(at::zeros_like(r));
            }
        }
    return one(r);
}

std::vector<Value> kSelect(const Call& call) {
    const at::Tensor cond = requireBool(call.tensor("condition"), "select's condition");
    auto [t, f] = alignOperands(call.arg("true_value"), call.arg("false_value"));
    auto bt = broadcastTrailing({cond, t, f});
    return one(at::where(bt[0], bt[1], bt[2]));
}

std::vector<Value> kCast(const Call& call) {
    const at::Tensor x = call.tensor("input");
    // tract_core_cast without 'to' takes its type from the result's graph.quant
    // entry (a quantized activation): the interpreter keeps the real values,
    // which the statement's entry then quantizes (interp/quant.h).
    if (call.op != "cast" && call.string("to").empty())
        return one(x);
    const auto dt =
        call.op == "cast" ? dtypeOfTypeName(call.typeArg) : dtypeFromName(call.string("to"));
    // Float -> integer truncates toward zero (Rust's `as` saturates out-of-range
    // values and maps NaN to 0; PyTorch leaves those undefined).
    return one(x.to(dt));
}

std::vector<Value> kQuantize(const Call& call) {
    const Value& xv = call.arg("x");
    auto bin = [](std::string_view op, const Value& a, const Value& b) {
        return Value::makeTensor(applyBinary(op, a, b));
    };
    auto S = [](double v) { return Value::makeScalar(v); };
    if (call.op == "logarithmic_quantize") {
        // m = ceil(log2(max)); r = 2^bits - 1; q = round(clamp(log2(|x|), m - r, m));
        // y = sign(x) * 2.0 ^ q
        const at::Tensor x = xv.tensor;
        const at::Tensor mx = call.tensor("max");
        const at::Tensor m = at::ceil(at::log(mx) / at::log(scalarLike(2.0, mx)));
        const double r = std::pow(2.0, static_cast<double>(call.integer("bits"))) - 1.0;
        at::Tensor l = at::log(at::abs(x)) / at::log(scalarLike(2.0, x));
        at::Tensor q =
            roundHalfAway(applyBinary("max", bin("min", Value::makeTensor(l), Value::makeTensor(m)),
                                      Value::makeTensor(m - r)));
        return one(at::sign(x) * at::pow(scalarLike(2.0, x), q));
    }
    const int64_t bits = call.integer("bits");
    if (call.op == "zero_point_linear_quantize") {
        const bool isSigned = call.logical("signed"), symmetric = call.logical("symmetric");
        Value z = Value::makeTensor(call.tensor("zero_point").to(xv.tensor.scalar_type()));
        Value s = bin(
            "add", Value::makeTensor(roundHalfAway(applyBinary("div", xv, call.arg("scale")))), z);
        const double r = isSigned ? std::pow(2.0, bits - 1) - 1 : std::pow(2.0, bits) - 1;
        const double lo = !isSigned ? 0.0 : symmetric ? -r : -r - 1.0;
        Value q = bin("max", bin("min", s, S(r)), S(lo));
        return one(applyBinary("mul", bin("sub", q, z), call.arg("scale")));
    }
    const bool isSigned = call.op == "min_max_linear_quantize" && call.logical("signed");
    const bool symmetric = call.op == "min_max_linear_quantize" && call.logical("symmetric");
    const Value &lo = call.arg("min"), &hi = call.arg("max");
    const double r = std::pow(2.0, bits) - 1 - ((isSigned && symmetric) ? 1 : 0);
    Value z = bin("max", bin("min", xv, hi), lo); // clamp(x, min, max)
    const double p = isSigned ? std::pow(2.0, bits - 1) - (symmetric ? 1 : 0) : 0.0;
    Value range = bin("sub", hi, lo);
    Value q = bin("sub",
                  Value::makeTensor(roundHalfAway(
                      applyBinary("mul", bin("div", bin("sub", z, lo), range), S(r)))),
                  S(p));
    return one(applyBinary("add", bin("mul", bin("div", bin("add", q, S(p)), S(r)), range), lo));
}

std::vector<Value> kAddN(const Call& call) {
    // stdlib body: x[0] + add_n(x[1:]) if length_of(x) > 0 else constant([1], [0.0])
    const Value& xs = call.arg("x");
    Value acc = Value::makeTensor(at::zeros({1}, at::kFloat), true);
    for (auto it = xs.items.rbegin(); it != xs.items.rend(); ++it)
        acc = Value::makeTensor(applyBinary("add", *it, acc));
    return {acc};
}

std::vector<Value> kCopyN(const Call& call) {
    const at::Tensor x = call.tensor("x");
    std::vector<Value> items;
    for (int64_t i = 0; i < call.integer("times"); ++i)
        items.push_back(Value::makeTensor(x.clone()));
    return {Value::makeArray(std::move(items))};
}

} // namespace t2n::interp::kernels
