#include "interp/value.h"

#include <ATen/ATen.h>
#include <fmt/format.h>

namespace t2n::interp {

Value Value::makeInteger(int64_t v) {
    Value r;
    r.kind = Kind::Integer;
    r.integer = v;
    return r;
}
Value Value::makeScalar(double v) {
    Value r;
    r.kind = Kind::Scalar;
    r.scalar = v;
    return r;
}
Value Value::makeLogical(bool v) {
    Value r;
    r.kind = Kind::Logical;
    r.logical = v;
    return r;
}
Value Value::makeString(std::string v) {
    Value r;
    r.kind = Kind::String;
    r.text = std::move(v);
    return r;
}
Value Value::makeTensor(at::Tensor t, bool constant) {
    Value r;
    r.kind = Kind::Tensor;
    r.tensor = std::move(t);
    r.constant = constant;
    return r;
}
Value Value::makeArray(std::vector<Value> items) {
    Value r;
    r.kind = Kind::Array;
    r.items = std::move(items);
    return r;
}
Value Value::makeTuple(std::vector<Value> items) {
    Value r;
    r.kind = Kind::Tuple;
    r.items = std::move(items);
    return r;
}
Value Value::makeIntegers(const std::vector<int64_t>& v) {
    std::vector<Value> items;
    items.reserve(v.size());
    for (int64_t i : v)
        items.push_back(makeInteger(i));
    return makeArray(std::move(items));
}

std::string_view kindName(Value::Kind k) {
    switch (k) {
    case Value::Kind::None:
        return "nothing";
    case Value::Kind::Integer:
        return "integer";
    case Value::Kind::Scalar:
        return "scalar";
    case Value::Kind::Logical:
        return "logical";
    case Value::Kind::String:
        return "string";
    case Value::Kind::Tensor:
        return "tensor";
    case Value::Kind::Array:
        return "array";
    case Value::Kind::Tuple:
        return "tuple";
    }
    return "?";
}

std::string describeShape(at::IntArrayRef shape) {
    return fmt::format("[{}]", fmt::join(shape, ","));
}

namespace {
std::string_view dtypeShortName(c10::ScalarType t) {
    switch (t) {
    case c10::kHalf:
        return "f16";
    case c10::kFloat:
        return "f32";
    case c10::kDouble:
        return "f64";
    case c10::kChar:
        return "i8";
    case c10::kShort:
        return "i16";
    case c10::kInt:
        return "i32";
    case c10::kLong:
        return "i64";
    case c10::kByte:
        return "u8";
    case c10::kBool:
        return "bool";
    default:
        return "?";
    }
}
} // namespace

std::string describeTensor(const at::Tensor& t) {
    if (!t.defined())
        return "undefined";
    return fmt::format("{}{}", dtypeShortName(t.scalar_type()), describeShape(t.sizes()));
}

std::string describe(const Value& v) {
    switch (v.kind) {
    case Value::Kind::None:
        return "nothing";
    case Value::Kind::Integer:
        return std::to_string(v.integer);
    case Value::Kind::Scalar:
        return fmt::format("{}", v.scalar);
    case Value::Kind::Logical:
        return v.logical ? "true" : "false";
    case Value::Kind::String:
        return fmt::format("'{}'", v.text);
    case Value::Kind::Tensor:
        return describeTensor(v.tensor);
    case Value::Kind::Array:
    case Value::Kind::Tuple: {
        std::vector<std::string> parts;
        for (const auto& item : v.items)
            parts.push_back(describe(item));
        const bool array = v.kind == Value::Kind::Array;
        return fmt::format("{}{}{}", array ? "[" : "(", fmt::join(parts, ", "), array ? "]" : ")");
    }
    }
    return "?";
}

namespace {

/// Flattens a nested array literal, recording its (rectangular) shape.
struct LiteralFlattener {
    std::vector<std::size_t> extents;
    std::vector<const Value*> leaves;

    void visit(const Value& v, std::size_t depth) {
        if (v.kind == Value::Kind::Array) {
            if (depth >= extents.size() || extents[depth] != v.items.size())
                throw InterpError("array literal is not rectangular");
            for (const auto& item : v.items)
                visit(item, depth + 1);
            return;
        }
        if (depth != extents.size())
            throw InterpError("array literal is not rectangular");
        if (v.kind != Value::Kind::Integer && v.kind != Value::Kind::Scalar &&
            v.kind != Value::Kind::Logical)
            throw InterpError(fmt::format("a {} cannot be used as a tensor", kindName(v.kind)));
        leaves.push_back(&v);
    }
};

} // namespace

at::Tensor literalTensor(const Value& v) {
    if (v.kind == Value::Kind::Tensor)
        return v.tensor;
    LiteralFlattener f;
    // The extents follow the first item at every depth; visit() checks the rest.
    for (const Value* p = &v; p && p->kind == Value::Kind::Array;
         p = p->items.empty() ? nullptr : &p->items.front())
        f.extents.push_back(p->items.size());
    f.visit(v, 0);
    const std::vector<int64_t> shape(f.extents.begin(), f.extents.end());
    bool anyScalar = false, anyLogical = false, anyInteger = false;
    for (const Value* leaf : f.leaves) {
        anyScalar = anyScalar || leaf->kind == Value::Kind::Scalar;
        anyLogical = anyLogical || leaf->kind == Value::Kind::Logical;
        anyInteger = anyInteger || leaf->kind == Value::Kind::Integer;
    }
    if (anyLogical && (anyScalar || anyInteger))
        throw InterpError("array literal mixes logical and numeric values");
    const auto n = static_cast<int64_t>(f.leaves.size());
    if (anyScalar) {
        at::Tensor t = at::empty({n}, at::kFloat);
        auto* p = t.data_ptr<float>();
        for (const Value* leaf : f.leaves)
            *p++ = static_cast<float>(leaf->kind == Value::Kind::Scalar
                                          ? leaf->scalar
                                          : static_cast<double>(leaf->integer));
        return t.reshape(shape);
    }
    if (anyLogical) {
        at::Tensor t = at::empty({n}, at::kBool);
        auto* p = t.data_ptr<bool>();
        for (const Value* leaf : f.leaves)
            *p++ = leaf->logical;
        return t.reshape(shape);
    }
    // An empty array has no element to tell its type: integer, like shapes.
    at::Tensor t = at::empty({n}, at::kLong);
    auto* p = t.data_ptr<int64_t>();
    for (const Value* leaf : f.leaves)
        *p++ = leaf->integer;
    return t.reshape(shape);
}

Value asTensorValue(const Value& v) {
    if (v.kind == Value::Kind::Tensor)
        return v;
    Value t = Value::makeTensor(literalTensor(v), true);
    t.tdim = v.kind == Value::Kind::Integer; // tract: Value::Dim
    return t;
}

} // namespace t2n::interp
