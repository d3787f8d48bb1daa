// Where TDim comes from and what refuses it, in tract 0.23.5:
// - nnef/src/deser.rs: a numeric literal without '.' or 'e' is Value::Dim;
//   tract_core_shape_of wires the shape as a TDim constant.
// - nnef/src/registry.rs: a binary operation with a TDim operand computes in
//   the common super type (data/src/datum.rs: i8..i64 and TDim share TDim,
//   floats and booleans share nothing with it), before the rule that lets a
//   constant take the other operand's type.
// - core/src/ops/logic.rs, Iff: select needs both branches of one type
//   ("inputs[1].datum_type == inputs[2].datum_type (TDim vs I64)").
// - core/src/ops/math: ShiftLeft/ShiftRight "does not support TDim".
// Operations that move items keep their type.
#include "interp/tdim.h"

#include <fmt/format.h>

#include <set>
#include <string_view>

namespace t2n::interp {

namespace {

const std::set<std::string_view> kBinary{"add", "sub", "mul", "div", "pow", "min", "max"};
const std::set<std::string_view> kMoving{"reshape",
                                         "unsqueeze",
                                         "squeeze",
                                         "slice",
                                         "concat",
                                         "stack",
                                         "transpose",
                                         "tile",
                                         "tract_core_broadcast",
                                         "copy",
                                         "neg",
                                         "abs",
                                         "tract_core_gather",
                                         "split",
                                         "tract_core_dyn_slice"};

bool isInteger(const at::Tensor& t) {
    return !t.is_floating_point() && !t.is_complex() && t.scalar_type() != at::kBool;
}

std::string typeName(const Value& v) {
    if (v.tdim)
        return "TDim";
    return fmt::format("{}", c10::toString(v.tensor.scalar_type()));
}

const Value* argOf(const Call& call, std::string_view name) {
    for (const auto& [n, v] : call.args)
        if (n == name)
            return &v;
    return nullptr;
}

bool anyTDim(const Value& v) {
    if (v.isTensor())
        return v.tdim;
    for (const auto& item : v.items)
        if (anyTDim(item))
            return true;
    return false;
}

} // namespace

void refuseTDimOperands(const Call& call) {
    if (!call.tract())
        return;
    if (call.op == "tract_shl" || call.op == "tract_shr") {
        for (const char* name : {"x", "y"})
            if (const Value* v = argOf(call, name); v && v->isTensor() && v->tdim)
                throw InterpError(fmt::format(
                    "tract's {} does not support TDim, and '{}' is one (an integer literal or a "
                    "size): cast it to i64 first (tract_core_cast)",
                    call.op == "tract_shl" ? "ShiftLeft" : "ShiftRight", name));
        return;
    }
    if (call.op == "select") {
        const Value* t = argOf(call, "true_value");
        const Value* f = argOf(call, "false_value");
        if (t && f && t->isTensor() && f->isTensor() && t->tdim != f->tdim &&
            isInteger(t->tensor) && isInteger(f->tensor))
            throw InterpError(fmt::format(
                "tract's select needs both branches of one type, and they are {} and {} (tract: "
                "\"inputs[1].datum_type == inputs[2].datum_type\"): an integer literal or a size "
                "is a TDim; cast it to i64 first (tract_core_cast)",
                typeName(*t), typeName(*f)));
        return;
    }
    if (kBinary.count(call.op)) {
        const Value* x = argOf(call, "x");
        const Value* y = argOf(call, "y");
        if (!x || !y || !x->isTensor() || !y->isTensor())
            return;
        for (auto [a, b] : {std::pair{x, y}, std::pair{y, x}})
            if (a->tdim && !isInteger(b->tensor))
                throw InterpError(fmt::format(
                    "tract's {} has no common type for TDim (an integer literal or a size) and "
                    "{} (tract: \"No super type\"): cast the TDim operand first",
                    call.op, typeName(*b)));
    }
}

void markTDimResults(const Call& call, std::vector<Value>& results) {
    if (!call.tract())
        return;
    bool tdim = false;
    if (kBinary.count(call.op)) {
        const Value* x = argOf(call, "x");
        const Value* y = argOf(call, "y");
        tdim = x && y && ((x->isTensor() && x->tdim) || (y->isTensor() && y->tdim));
    } else if (call.op == "select") {
        const Value* t = argOf(call, "true_value");
        tdim = t && t->isTensor() && t->tdim;
    } else if (call.op == "tract_core_shape_of") {
        tdim = true;
    } else if (kMoving.count(call.op)) {
        for (const auto& [name, v] : call.args)
            if (name == "input" || name == "values" || name == "value")
                tdim = tdim || anyTDim(v);
    }
    if (!tdim)
        return;
    for (auto& r : results) {
        if (r.isTensor() && isInteger(r.tensor))
            r.tdim = true;
        for (auto& item : r.items)
            if (item.isTensor() && isInteger(item.tensor))
                item.tdim = true;
    }
}

} // namespace t2n::interp
