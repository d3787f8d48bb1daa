// tract reads an integer literal as a TDim (nnef/src/deser.rs: a numeric
// literal without '.' or 'e' is Value::Dim), and its binary operations give
// TDim as soon as one operand is TDim (nnef/src/registry.rs: that rule comes
// before the one that lets a constant take the other operand's type). So
// add(i, 1) on an i64 tensor is a TDim tensor, which select refuses beside
// an i64 branch ("inputs[1].datum_type == inputs[2].datum_type (TDim vs
// I64)"), shifts refuse ("ShiftLeft does not support TDim") and comparisons
// cannot evaluate ("TDim is not a number"). A cast of the literal is an i64
// constant (tract folds it when it wires it): an i64 operand then keeps its
// type, and any other operand's type wins over a one-item constant.
// Symbolic size expressions (S * 2) stay TDim on purpose.
#include "translate/integer_literals.h"

#include "translate/context.h"

#include <map>
#include <string_view>
#include <vector>

namespace t2n::translate {

namespace {

/// The positional arguments of each operation that are tensor operands.
const std::vector<size_t>* tensorOperands(std::string_view op) {
    static const std::vector<size_t> kTwo{0, 1}, kBranches{1, 2}, kBounds{1, 2};
    static const std::map<std::string_view, const std::vector<size_t>*> kOps{
        {"add", &kTwo},
        {"sub", &kTwo},
        {"mul", &kTwo},
        {"div", &kTwo},
        {"pow", &kTwo},
        {"min", &kTwo},
        {"max", &kTwo},
        {"eq", &kTwo},
        {"ne", &kTwo},
        {"lt", &kTwo},
        {"gt", &kTwo},
        {"le", &kTwo},
        {"ge", &kTwo},
        {"tract_core_bitand", &kTwo},
        {"tract_core_bitor", &kTwo},
        {"tract_core_bitxor", &kTwo},
        {"tract_shl", &kTwo},
        {"tract_shr", &kTwo},
        {"select", &kBranches},
        {"clamp", &kBounds},
    };
    auto it = kOps.find(op);
    return it == kOps.end() ? nullptr : it->second;
}

} // namespace

int typeIntegerOperands(Context& ctx, nnef::Invocation& inv) {
    if (ctx.target().isKhronos())
        return 0;
    const std::vector<size_t>* operands = tensorOperands(inv.op);
    if (operands == nullptr)
        return 0;
    int replaced = 0;
    for (size_t i : *operands) {
        if (i >= inv.args.size() || inv.args[i].kind != nnef::Expr::Kind::Integer)
            continue;
        inv.args[i] =
            ctx.emitTemp("tract_core_cast", {inv.args[i]}, {{"to", Expr::str("i64")}}, "i64");
        ++replaced;
    }
    return replaced;
}

} // namespace t2n::translate
