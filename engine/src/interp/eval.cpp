#include "interp/eval.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace t2n::interp {

using nnef::ast::Expr;

const Value* Scope::find(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent_) {
        auto it = s->values_.find(name);
        if (it != s->values_.end())
            return &it->second;
    }
    return nullptr;
}

void Scope::define(const std::string& name, Value value) {
    if (!values_.emplace(name, std::move(value)).second)
        throw InterpError(fmt::format("identifier '{}' is assigned twice", name));
    order_.push_back(name);
}

bool Scope::replace(const std::string& name, Value value) {
    auto it = values_.find(name);
    if (it == values_.end())
        return false;
    it->second = std::move(value);
    return true;
}

void Scope::release(const std::string& name) {
    if (auto it = values_.find(name); it != values_.end())
        it->second = Value();
}

std::string operatorOperation(const std::string& op, bool unary) {
    if (unary) {
        if (op == "-")
            return "neg";
        if (op == "!")
            return "not";
        if (op == "+")
            return "copy";
        return {};
    }
    static const std::map<std::string, std::string> ops{
        {"+", "add"}, {"-", "sub"},  {"*", "mul"}, {"/", "div"}, {"^", "pow"},
        {"<", "lt"},  {"<=", "le"},  {">", "gt"},  {">=", "ge"}, {"==", "eq"},
        {"!=", "ne"}, {"&&", "and"}, {"||", "or"}};
    auto it = ops.find(op);
    return it == ops.end() ? std::string() : it->second;
}

namespace {

int64_t ipow(int64_t base, int64_t exp) {
    if (exp < 0)
        throw InterpError("negative integer exponent");
    int64_t r = 1;
    while (exp-- > 0)
        r *= base;
    return r;
}

double asReal(const Value& v) {
    return v.kind == Value::Kind::Integer ? static_cast<double>(v.integer) : v.scalar;
}

bool truth(const Value& v, const char* what) {
    if (v.kind != Value::Kind::Logical)
        throw InterpError(fmt::format("{} must be a logical value, got {}", what, describe(v)));
    return v.logical;
}

bool valuesEqual(const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber())
        return asReal(a) == asReal(b);
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case Value::Kind::Logical:
        return a.logical == b.logical;
    case Value::Kind::String:
        return a.text == b.text;
    case Value::Kind::Array:
    case Value::Kind::Tuple:
        if (a.items.size() != b.items.size())
            return false;
        for (std::size_t i = 0; i < a.items.size(); ++i)
            if (!valuesEqual(a.items[i], b.items[i]))
                return false;
        return true;
    default:
        return false;
    }
}

/// Python-like index: a negative index counts from the end (the spec does not
/// say; this is the literal reading of "x[i]" on arrays).
std::size_t checkedIndex(int64_t i, std::size_t size) {
    const int64_t n = static_cast<int64_t>(size);
    const int64_t j = i < 0 ? i + n : i;
    if (j < 0 || j >= n)
        throw InterpError(fmt::format("index {} is out of range for length {}", i, size));
    return static_cast<std::size_t>(j);
}

} // namespace

Value evalConstantBinary(const std::string& op, const Value& a, const Value& b) {
    using K = Value::Kind;
    if (op == "&&" || op == "||") {
        const bool x = truth(a, "operand of &&/||"), y = truth(b, "operand of &&/||");
        return Value::makeLogical(op == "&&" ? (x && y) : (x || y));
    }
    if (op == "==" || op == "!=") {
        const bool eq = valuesEqual(a, b);
        return Value::makeLogical(op == "==" ? eq : !eq);
    }
    if (op == "in") {
        if (!b.isSequence())
            throw InterpError("right operand of 'in' must be an array");
        for (const auto& item : b.items)
            if (valuesEqual(a, item))
                return Value::makeLogical(true);
        return Value::makeLogical(false);
    }
    if (a.kind == K::String && b.kind == K::String) {
        if (op == "+")
            return Value::makeString(a.text + b.text);
        if (op == "<")
            return Value::makeLogical(a.text < b.text);
        if (op == "<=")
            return Value::makeLogical(a.text <= b.text);
        if (op == ">")
            return Value::makeLogical(a.text > b.text);
        if (op == ">=")
            return Value::makeLogical(a.text >= b.text);
    }
    // Array arithmetic of the spec: concatenation and repetition ([1] * n).
    if (a.kind == K::Array && b.kind == K::Array && op == "+") {
        auto items = a.items;
        items.insert(items.end(), b.items.begin(), b.items.end());
        return Value::makeArray(std::move(items));
    }
    if (op == "*" && ((a.kind == K::Array && b.kind == K::Integer) ||
                      (a.kind == K::Integer && b.kind == K::Array))) {
        const Value& arr = a.kind == K::Array ? a : b;
        const int64_t n = a.kind == K::Array ? b.integer : a.integer;
        std::vector<Value> items;
        for (int64_t i = 0; i < n; ++i)
            items.insert(items.end(), arr.items.begin(), arr.items.end());
        return Value::makeArray(std::move(items));
    }
    if (!a.isNumber() || !b.isNumber())
        throw InterpError(
            fmt::format("operator '{}' cannot combine {} and {}", op, describe(a), describe(b)));
    if (a.kind == K::Integer && b.kind == K::Integer) {
        const int64_t x = a.integer, y = b.integer;
        if (op == "+")
            return Value::makeInteger(x + y);
        if (op == "-")
            return Value::makeInteger(x - y);
        if (op == "*")
            return Value::makeInteger(x * y);
        if (op == "/") {
            if (y == 0)
                throw InterpError("integer division by zero");
            return Value::makeInteger(x / y); // C++ (and Khronos parser) truncation
        }
        if (op == "^")
            return Value::makeInteger(ipow(x, y));
    }
    // Mixed integer / scalar operands: computed as scalars (the spec keeps
    // the two types apart; a lenient reading).
    const double x = asReal(a), y = asReal(b);
    if (op == "+")
        return Value::makeScalar(x + y);
    if (op == "-")
        return Value::makeScalar(x - y);
    if (op == "*")
        return Value::makeScalar(x * y);
    if (op == "/")
        return Value::makeScalar(x / y);
    if (op == "^")
        return Value::makeScalar(std::pow(x, y));
    if (op == "<")
        return Value::makeLogical(x < y);
    if (op == "<=")
        return Value::makeLogical(x <= y);
    if (op == ">")
        return Value::makeLogical(x > y);
    if (op == ">=")
        return Value::makeLogical(x >= y);
    throw InterpError(fmt::format("unknown operator '{}'", op));
}

Value Evaluator::eval(const Expr& e, const Scope& scope) {
    switch (e.kind) {
    case Expr::Kind::Integer:
        return Value::makeInteger(e.integer);
    case Expr::Kind::Scalar:
        return Value::makeScalar(e.scalar);
    case Expr::Kind::Logical:
        return Value::makeLogical(e.logical);
    case Expr::Kind::String:
        return Value::makeString(e.text);
    case Expr::Kind::Identifier: {
        const Value* v = scope.find(e.text);
        if (!v)
            throw InterpError(fmt::format("identifier '{}' is not defined", e.text));
        return *v;
    }
    case Expr::Kind::Array:
    case Expr::Kind::Tuple: {
        std::vector<Value> items;
        items.reserve(e.items.size());
        for (const auto& item : e.items)
            items.push_back(eval(*item, scope));
        return e.kind == Expr::Kind::Array ? Value::makeArray(std::move(items))
                                           : Value::makeTuple(std::move(items));
    }
    case Expr::Kind::Unary:
        return unary(e, scope);
    case Expr::Kind::Binary:
        return binary(e, scope);
    case Expr::Kind::Index:
        return index(e, scope);
    case Expr::Kind::Invocation:
        return invocation(e, scope);
    case Expr::Kind::IfElse:
        // Only the chosen branch is evaluated: recursive fragments rely on it.
        return truth(eval(*e.items.at(1), scope), "if condition") ? eval(*e.items.at(0), scope)
                                                                  : eval(*e.items.at(2), scope);
    case Expr::Kind::Comprehension:
        return comprehension(e, scope);
    case Expr::Kind::Builtin:
        return builtin(e, scope);
    }
    throw InterpError("unknown expression kind");
}

Value Evaluator::unary(const Expr& e, const Scope& scope) {
    Value a = eval(*e.items.at(0), scope);
    if (a.isTensor())
        return invoker_.invoke(operatorOperation(e.op, true), "", {{"", a}});
    if (e.op == "-") {
        if (a.kind == Value::Kind::Integer)
            return Value::makeInteger(-a.integer);
        if (a.kind == Value::Kind::Scalar)
            return Value::makeScalar(-a.scalar);
    } else if (e.op == "+") {
        if (a.isNumber())
            return a;
    } else if (e.op == "!") {
        return Value::makeLogical(!truth(a, "operand of !"));
    }
    throw InterpError(fmt::format("operator '{}' cannot apply to {}", e.op, describe(a)));
}

Value Evaluator::binary(const Expr& e, const Scope& scope) {
    Value a = eval(*e.items.at(0), scope);
    Value b = eval(*e.items.at(1), scope);
    if (a.isTensor() || b.isTensor()) {
        const std::string op = operatorOperation(e.op, false);
        if (op.empty())
            throw InterpError(fmt::format("operator '{}' does not apply to tensors", e.op));
        return invoker_.invoke(op, "", {{"", std::move(a)}, {"", std::move(b)}});
    }
    return evalConstantBinary(e.op, a, b);
}

Value Evaluator::index(const Expr& e, const Scope& scope) {
    Value target = eval(*e.items.at(0), scope);
    const bool isString = target.kind == Value::Kind::String;
    if (!target.isSequence() && !isString)
        throw InterpError(fmt::format("cannot index {}", describe(target)));
    const std::size_t size = isString ? target.text.size() : target.items.size();
    auto bound = [&](std::size_t i, std::size_t fallback) -> std::size_t {
        if (i >= e.items.size() || !e.items[i])
            return fallback;
        Value v = eval(*e.items[i], scope);
        if (v.kind != Value::Kind::Integer)
            throw InterpError(fmt::format("index must be an integer, got {}", describe(v)));
        const int64_t n = static_cast<int64_t>(size);
        const int64_t j = v.integer < 0 ? v.integer + n : v.integer;
        return static_cast<std::size_t>(std::clamp<int64_t>(j, 0, n));
    };
    if (!e.isSlice) {
        if (e.items.size() < 2 || !e.items[1])
            throw InterpError("missing index");
        Value i = eval(*e.items[1], scope);
        if (i.kind != Value::Kind::Integer)
            throw InterpError(fmt::format("index must be an integer, got {}", describe(i)));
        const std::size_t k = checkedIndex(i.integer, size);
        return isString ? Value::makeString(target.text.substr(k, 1)) : target.items[k];
    }
    const std::size_t begin = bound(1, 0);
    const std::size_t end = std::max(begin, bound(2, size));
    if (isString)
        return Value::makeString(target.text.substr(begin, end - begin));
    std::vector<Value> items(target.items.begin() + static_cast<std::ptrdiff_t>(begin),
                             target.items.begin() + static_cast<std::ptrdiff_t>(end));
    return target.kind == Value::Kind::Array ? Value::makeArray(std::move(items))
                                             : Value::makeTuple(std::move(items));
}

Value Evaluator::builtin(const Expr& e, const Scope& scope) {
    Value a = eval(*e.items.at(0), scope);
    const std::string& f = e.text;
    if (f == "length_of" || f == "range_of") {
        int64_t n = 0;
        if (a.isSequence())
            n = static_cast<int64_t>(a.items.size());
        else if (a.kind == Value::Kind::String)
            n = static_cast<int64_t>(a.text.size());
        else
            throw InterpError(fmt::format("{} needs an array or a string, got {}", f, describe(a)));
        if (f == "length_of")
            return Value::makeInteger(n);
        std::vector<int64_t> r(static_cast<std::size_t>(n));
        for (int64_t i = 0; i < n; ++i)
            r[static_cast<std::size_t>(i)] = i;
        return Value::makeIntegers(r);
    }
    if (f == "shape_of") // deprecated since 1.0.1, still part of the grammar
        return Value::makeIntegers(a.isTensor() ? a.tensor.sizes().vec() : std::vector<int64_t>{});
    if (f == "integer") {
        switch (a.kind) {
        case Value::Kind::Integer:
            return a;
        case Value::Kind::Scalar:
            return Value::makeInteger(static_cast<int64_t>(a.scalar));
        case Value::Kind::Logical:
            return Value::makeInteger(a.logical ? 1 : 0);
        case Value::Kind::String: {
            int64_t v = 0;
            auto [p, ec] = std::from_chars(a.text.data(), a.text.data() + a.text.size(), v);
            if (ec != std::errc() || p != a.text.data() + a.text.size())
                throw InterpError(fmt::format("'{}' is not an integer", a.text));
            return Value::makeInteger(v);
        }
        default:
            break;
        }
    } else if (f == "scalar") {
        switch (a.kind) {
        case Value::Kind::Integer:
            return Value::makeScalar(static_cast<double>(a.integer));
        case Value::Kind::Scalar:
            return a;
        case Value::Kind::Logical:
            return Value::makeScalar(a.logical ? 1.0 : 0.0);
        case Value::Kind::String:
            try {
                return Value::makeScalar(std::stod(a.text));
            } catch (const std::exception&) {
                throw InterpError(fmt::format("'{}' is not a scalar", a.text));
            }
        default:
            break;
        }
    } else if (f == "logical") {
        switch (a.kind) {
        case Value::Kind::Integer:
            return Value::makeLogical(a.integer != 0);
        case Value::Kind::Scalar:
            return Value::makeLogical(a.scalar != 0);
        case Value::Kind::Logical:
            return a;
        case Value::Kind::String:
            if (a.text == "true" || a.text == "false")
                return Value::makeLogical(a.text == "true");
            break;
        default:
            break;
        }
    } else if (f == "string") {
        if (a.kind == Value::Kind::String)
            return a;
        if (!a.isTensor() && !a.isSequence() && a.kind != Value::Kind::None)
            return Value::makeString(describe(a));
    } else {
        throw InterpError(fmt::format("unknown built-in '{}'", f));
    }
    throw InterpError(fmt::format("{}() cannot convert {}", f, describe(a)));
}

Value Evaluator::comprehension(const Expr& e, const Scope& scope) {
    // Several iterators advance together (they are zipped, not nested).
    std::vector<std::pair<std::string, Value>> iters;
    std::size_t length = 0;
    for (std::size_t k = 0; k < e.iterators.size(); ++k) {
        Value seq = eval(*e.iterators[k].second, scope);
        if (!seq.isSequence())
            throw InterpError(fmt::format("'for {} in' needs an array, got {}",
                                          e.iterators[k].first, describe(seq)));
        if (k > 0 && seq.items.size() != length)
            throw InterpError("the arrays of a comprehension have different lengths");
        length = seq.items.size();
        iters.emplace_back(e.iterators[k].first, std::move(seq));
    }
    std::vector<Value> out;
    for (std::size_t i = 0; i < length; ++i) {
        Scope inner(&scope);
        for (const auto& [name, seq] : iters)
            inner.define(name, seq.items[i]);
        if (e.condition && !truth(eval(*e.condition, inner), "comprehension condition"))
            continue;
        if (!e.yield)
            throw InterpError("comprehension without yield");
        out.push_back(eval(*e.yield, inner));
    }
    return Value::makeArray(std::move(out));
}

Value Evaluator::invocation(const Expr& e, const Scope& scope) {
    Arguments args;
    args.reserve(e.args.size());
    for (const auto& [name, expr] : e.args)
        args.emplace_back(name, eval(*expr, scope));
    std::string type = e.typeArg;
    if (type == "?") {
        if (generic_.empty())
            throw InterpError(fmt::format("'{}<?>' outside a generic fragment", e.text));
        type = generic_;
    }
    return invoker_.invoke(e.text, type, std::move(args));
}

void Evaluator::bind(const Expr& lhs, const Value& value, Scope& scope) {
    if (lhs.kind == Expr::Kind::Identifier) {
        scope.define(lhs.text, value);
        return;
    }
    if (lhs.kind != Expr::Kind::Array && lhs.kind != Expr::Kind::Tuple)
        throw InterpError("the left-hand side must be an identifier, an array or a tuple");
    if (!value.isSequence())
        throw InterpError(
            fmt::format("cannot unpack {} into {} names", describe(value), lhs.items.size()));
    if (value.items.size() != lhs.items.size())
        throw InterpError(fmt::format("cannot unpack {} values into {} names", value.items.size(),
                                      lhs.items.size()));
    for (std::size_t i = 0; i < lhs.items.size(); ++i)
        bind(*lhs.items[i], value.items[i], scope);
}

void Evaluator::lhsNames(const Expr& lhs, std::vector<std::string>& out) {
    if (lhs.kind == Expr::Kind::Identifier) {
        out.push_back(lhs.text);
        return;
    }
    for (const auto& item : lhs.items)
        lhsNames(*item, out);
}

} // namespace t2n::interp
