// Evaluation of NNEF expressions (reference/nnef-and-tract.md §1.2): literals,
// identifiers, arrays and tuples, operator expressions, indexing and
// slicing, if/else, comprehensions, length_of / range_of / shape_of and the
// casts. Compile-time arithmetic happens here; an operator with a tensor
// operand and every invocation go to the Invoker (the operation layer).
#pragma once

#include "interp/value.h"
#include "reader/ast.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace t2n::interp {

/// Identifier bindings of one body (graph or fragment invocation); a
/// comprehension iteration adds a child scope for its loop variables.
class Scope {
public:
    explicit Scope(const Scope* parent = nullptr) : parent_(parent) {}
    const Value* find(const std::string& name) const;
    /// Throws InterpError if `name` is already bound here (NNEF is single-assignment).
    void define(const std::string& name, Value value);
    /// Overwrites an existing binding of this scope (the checker's
    /// substitution of reference values); false when `name` is not bound here.
    bool replace(const std::string& name, Value value);
    /// Drops the value of `name` (after its last use) but keeps the binding,
    /// so that a second assignment is still refused.
    void release(const std::string& name);
    /// Binding order of this scope (not the parent's).
    const std::vector<std::string>& order() const { return order_; }

private:
    const Scope* parent_;
    std::map<std::string, Value> values_;
    std::vector<std::string> order_;
};

using Arguments = std::vector<std::pair<std::string, Value>>; ///< name "" = positional

class Invoker {
public:
    virtual ~Invoker() = default;
    /// Runs operation `op` (generic type `typeArg`, "" when none) on evaluated
    /// arguments; one result is returned as is, several as a tuple.
    virtual Value invoke(const std::string& op, const std::string& typeArg, Arguments args) = 0;
};

/// NNEF's operator for a tensor operand: '+' -> add, '<' -> lt, '!' -> not, ...
std::string operatorOperation(const std::string& op, bool unary);

class Evaluator {
public:
    /// `genericType`: what `?` stands for in the fragment being run ("" outside fragments).
    Evaluator(Invoker& invoker, std::string genericType = {})
        : invoker_(invoker), generic_(std::move(genericType)) {}

    Value eval(const nnef::ast::Expr& e, const Scope& scope);

    /// Binds an assignment's left-hand side (identifier, or array / tuple of
    /// them) to `value`.
    static void bind(const nnef::ast::Expr& lhs, const Value& value, Scope& scope);
    /// Identifiers of a left-hand side, in order.
    static void lhsNames(const nnef::ast::Expr& lhs, std::vector<std::string>& out);

private:
    Value unary(const nnef::ast::Expr& e, const Scope& scope);
    Value binary(const nnef::ast::Expr& e, const Scope& scope);
    Value index(const nnef::ast::Expr& e, const Scope& scope);
    Value builtin(const nnef::ast::Expr& e, const Scope& scope);
    Value comprehension(const nnef::ast::Expr& e, const Scope& scope);
    Value invocation(const nnef::ast::Expr& e, const Scope& scope);

    Invoker& invoker_;
    std::string generic_;
};

/// Compile-time binary arithmetic / comparison / logic on non-tensor values.
Value evalConstantBinary(const std::string& op, const Value& a, const Value& b);

} // namespace t2n::interp
