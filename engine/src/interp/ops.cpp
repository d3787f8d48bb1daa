#include "interp/ops.h"

#include "interp/op_list.h"

#include <ATen/core/Tensor.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace t2n::interp {

// ---- signatures -------------------------------------------------------------

namespace {

/// Reads the literal defaults of a signature: numbers, 'strings', true /
/// false, [arrays] and (tuples).
class DefaultParser {
public:
    explicit DefaultParser(std::string_view text) : s_(text) {}

    Value parse() {
        Value v = value();
        skipSpace();
        if (pos_ != s_.size())
            fail("trailing characters");
        return v;
    }

private:
    void skipSpace() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
    }
    [[noreturn]] void fail(const char* what) const {
        throw InterpError(fmt::format("bad default '{}': {}", s_, what));
    }
    Value sequence(char close, bool array) {
        std::vector<Value> items;
        ++pos_;
        skipSpace();
        while (pos_ < s_.size() && s_[pos_] != close) {
            items.push_back(value());
            skipSpace();
            if (pos_ < s_.size() && s_[pos_] == ',')
                ++pos_;
            skipSpace();
        }
        if (pos_ >= s_.size())
            fail("unterminated sequence");
        ++pos_;
        return array ? Value::makeArray(std::move(items)) : Value::makeTuple(std::move(items));
    }
    Value value() {
        skipSpace();
        if (pos_ >= s_.size())
            fail("empty");
        const char c = s_[pos_];
        if (c == '[')
            return sequence(']', true);
        if (c == '(')
            return sequence(')', false);
        if (c == '\'') {
            const auto end = s_.find('\'', pos_ + 1);
            if (end == std::string_view::npos)
                fail("unterminated string");
            Value v = Value::makeString(std::string(s_.substr(pos_ + 1, end - pos_ - 1)));
            pos_ = end + 1;
            return v;
        }
        std::size_t end = pos_;
        while (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) ||
                                   s_[end] == '.' || s_[end] == '-' || s_[end] == '+'))
            ++end;
        const std::string word(s_.substr(pos_, end - pos_));
        pos_ = end;
        if (word == "true" || word == "false")
            return Value::makeLogical(word == "true");
        if (word.find_first_of(".eE") != std::string::npos)
            return Value::makeScalar(std::stod(word));
        return Value::makeInteger(std::stoll(word));
    }

    std::string_view s_;
    std::size_t pos_ = 0;
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

} // namespace

std::vector<ParamSpec> parseSignature(std::string_view signature) {
    // Split at the commas that are not inside brackets.
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= signature.size(); ++i) {
        const char c = i < signature.size() ? signature[i] : ',';
        if (c == '[' || c == '(')
            ++depth;
        else if (c == ']' || c == ')')
            --depth;
        else if (c == ',' && depth == 0) {
            if (auto p = trim(signature.substr(start, i - start)); !p.empty())
                parts.push_back(p);
            start = i + 1;
        }
    }
    std::vector<ParamSpec> params;
    for (auto part : parts) {
        ParamSpec p;
        std::string_view head = part;
        if (auto eq = part.find('='); eq != std::string_view::npos) {
            head = trim(part.substr(0, eq));
            p.defaultValue = DefaultParser(trim(part.substr(eq + 1))).parse();
        }
        if (auto colon = head.find(':'); colon != std::string_view::npos) {
            const auto type = trim(head.substr(colon + 1));
            head = trim(head.substr(0, colon));
            if (type == "tensor")
                p.kind = ParamSpec::Kind::Tensor;
            else if (type == "tensor[]")
                p.kind = ParamSpec::Kind::TensorArray;
            else
                throw InterpError(fmt::format("bad parameter type '{}'", type));
        }
        p.name = std::string(head);
        params.push_back(std::move(p));
    }
    return params;
}

// ---- the registry -----------------------------------------------------------

namespace {

struct Registry {
    std::vector<OpDef> ops;
    std::multimap<std::string, std::size_t, std::less<>> byName;

    Registry() {
#define T2N_REGISTER(name, availability, signature, kernel)                                        \
    ops.push_back(OpDef{name, Availability::availability, signature, &kernels::kernel, {}});
        T2N_INTERP_OPS(T2N_REGISTER)
#undef T2N_REGISTER
        for (std::size_t i = 0; i < ops.size(); ++i) {
            ops[i].params = parseSignature(ops[i].signature);
            byName.emplace(std::string(ops[i].name), i);
        }
    }
};

const Registry& registry() {
    static const Registry r;
    return r;
}

bool availableIn(Availability a, TargetMode mode) {
    return a == Availability::Both || (a == Availability::Tract && mode == TargetMode::Tract) ||
           (a == Availability::Khronos && mode == TargetMode::Khronos);
}

} // namespace

const OpDef* findOp(std::string_view name, TargetMode mode) {
    const auto& r = registry();
    auto [lo, hi] = r.byName.equal_range(name);
    for (auto it = lo; it != hi; ++it)
        if (availableIn(r.ops[it->second].availability, mode))
            return &r.ops[it->second];
    return nullptr;
}

std::vector<std::string> operationNames(TargetMode mode) {
    std::vector<std::string> names;
    for (const auto& op : registry().ops)
        if (availableIn(op.availability, mode))
            names.emplace_back(op.name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

// ---- bound calls ------------------------------------------------------------

const Value& Call::arg(std::string_view name) const {
    for (const auto& [n, v] : args)
        if (n == name)
            return v;
    throw InterpError(fmt::format("{} has no parameter '{}'", op, name));
}

namespace {

[[noreturn]] void wrongKind(std::string_view name, const char* expected, const Value& v) {
    throw InterpError(
        fmt::format("parameter '{}' must be {}, got {}", name, expected, describe(v)));
}

/// A one-element tensor read as a number (tract lets 0-d tensors stand for
/// attributes, e.g. tract_core_dyn_slice's start and end).
bool singleElement(const Value& v) {
    return v.isTensor() && v.tensor.numel() == 1;
}

} // namespace

at::Tensor Call::tensor(std::string_view name) const {
    return literalTensor(arg(name));
}

std::vector<at::Tensor> Call::tensors(std::string_view name) const {
    const Value& v = arg(name);
    if (!v.isSequence())
        wrongKind(name, "an array of tensors", v);
    std::vector<at::Tensor> out;
    for (const auto& item : v.items)
        out.push_back(literalTensor(item));
    return out;
}

int64_t Call::integer(std::string_view name) const {
    const Value& v = arg(name);
    if (v.kind == Value::Kind::Integer)
        return v.integer;
    if (singleElement(v) && !v.tensor.is_floating_point())
        return v.tensor.item<int64_t>();
    wrongKind(name, "an integer", v);
}

double Call::scalar(std::string_view name) const {
    const Value& v = arg(name);
    if (v.kind == Value::Kind::Scalar)
        return v.scalar;
    if (v.kind == Value::Kind::Integer)
        return static_cast<double>(v.integer);
    if (singleElement(v))
        return v.tensor.item<double>();
    wrongKind(name, "a scalar", v);
}

bool Call::logical(std::string_view name) const {
    const Value& v = arg(name);
    if (v.kind == Value::Kind::Logical)
        return v.logical;
    if (singleElement(v) && v.tensor.scalar_type() == at::kBool)
        return v.tensor.item<bool>();
    wrongKind(name, "a logical value", v);
}

const std::string& Call::string(std::string_view name) const {
    const Value& v = arg(name);
    if (v.kind != Value::Kind::String)
        wrongKind(name, "a string", v);
    return v.text;
}

std::vector<int64_t> Call::integers(std::string_view name) const {
    const Value& v = arg(name);
    std::vector<int64_t> out;
    if (v.isTensor() && v.tensor.dim() == 1 && !v.tensor.is_floating_point()) {
        auto t = v.tensor.to(at::kLong).contiguous();
        out.assign(t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + t.numel());
        return out;
    }
    if (!v.isSequence())
        wrongKind(name, "an array of integers", v);
    for (const auto& item : v.items) {
        if (item.kind == Value::Kind::Integer)
            out.push_back(item.integer);
        else if (singleElement(item) && !item.tensor.is_floating_point())
            out.push_back(item.tensor.item<int64_t>());
        else
            wrongKind(name, "an array of integers", v);
    }
    return out;
}

std::vector<std::pair<int64_t, int64_t>> Call::pairs(std::string_view name) const {
    const Value& v = arg(name);
    if (!v.isSequence())
        wrongKind(name, "an array of (integer, integer) pairs", v);
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const auto& item : v.items) {
        if (!item.isSequence() || item.items.size() != 2 ||
            item.items[0].kind != Value::Kind::Integer ||
            item.items[1].kind != Value::Kind::Integer)
            wrongKind(name, "an array of (integer, integer) pairs", v);
        out.emplace_back(item.items[0].integer, item.items[1].integer);
    }
    return out;
}

} // namespace t2n::interp
