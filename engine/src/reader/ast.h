// The syntax tree of an NNEF document as read back from disk: the reader's
// own structures, shared with nothing on the writing side, so that the
// checker cannot inherit the writer's mistakes. Covers the whole NNEF 1.0.5
// grammar (fragments, operator expressions, if/else, comprehensions,
// tuples and arrays) plus tract's looser extension lines.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace t2n::nnef::ast {

struct Location {
    std::string file; ///< "graph.nnef", "graph.quant", ...
    int line = 0;     ///< 1-based
    int column = 0;   ///< 1-based
};

/// integer, scalar, logical, string, ?  /  tensor<T>  /  T[]  /  (T, U)
struct TypeSpec {
    enum class Kind { Name, Tensor, Array, Tuple };
    Kind kind = Kind::Name;
    std::string name;            ///< Name and Tensor: element type name ("" for tensor<>)
    std::vector<TypeSpec> items; ///< Array: the element type; Tuple: the item types
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
    enum class Kind {
        Integer,       ///< 3
        Scalar,        ///< 3.0, 1e-5
        Logical,       ///< true / false
        String,        ///< 'text' or "text" (text holds the unescaped value)
        Identifier,    ///< x
        Array,         ///< [a, b]                    items
        Tuple,         ///< (a, b)                    items
        Unary,         ///< -a, !a                    op, items[0]
        Binary,        ///< a + b, a && b, a in b     op, items[0..1]
        Index,         ///< a[i] / a[i:j] (either bound may be null)   items: target, begin, end
        Invocation,    ///< op<T>(args)               text = op name, typeArg, args
        IfElse,        ///< a if c else b             items: then, condition, else
        Comprehension, ///< [for i in a, j in b if c yield e]   iterators, condition, yield
        Builtin,       ///< length_of(a), shape_of(a), range_of(a), and the casts
                       ///< integer(a) scalar(a) logical(a) string(a)   text, items[0]
    };
    Kind kind = Kind::Integer;
    Location loc;
    int64_t integer = 0;
    double scalar = 0;
    bool logical = false;
    std::string text; ///< identifier, string value, invocation or builtin name
    std::string op;   ///< unary/binary operator: + - * / ^ < <= > >= == != && || ! in
    bool isSlice = false;
    std::vector<ExprPtr> items;
    std::string typeArg; ///< invocation generic argument: external<scalar> -> "scalar"
    std::vector<std::pair<std::string, ExprPtr>> args; ///< name "" for positional
    std::vector<std::pair<std::string, ExprPtr>> iterators;
    ExprPtr condition; ///< comprehension filter (may be null)
    ExprPtr yield;
};

/// An invocation's argument given by name, or else the one at `position`
/// among the positional ones; null when neither is there.
inline const Expr* invocationArgument(const Expr& call, const std::string& name,
                                      std::size_t position) {
    std::size_t positional = 0;
    for (const auto& [n, e] : call.args) {
        if (n == name)
            return e.get();
        if (n.empty() && positional++ == position)
            return e.get();
    }
    return nullptr;
}

/// lhs = rhs; lhs is an Identifier, or an Array or Tuple of identifiers.
struct Assignment {
    ExprPtr lhs;
    ExprPtr rhs;
    Location loc;
};

struct Parameter {
    std::string name;
    TypeSpec type;
    ExprPtr defaultValue; ///< null when the parameter has no default
};

struct Result {
    std::string name;
    TypeSpec type;
};

struct Fragment {
    std::string name;
    bool generic = false;       ///< fragment f<?>(...) or f<? = scalar>(...)
    std::string genericDefault; ///< "scalar" in f<? = scalar>; "" when none
    std::vector<Parameter> params;
    std::vector<Result> results;
    std::vector<Assignment> body;
    bool hasBody = false; ///< declarations of primitives have none
    Location loc;
};

struct Extension {
    std::string text; ///< everything between "extension" and ";", trimmed
    Location loc;
};

struct Graph {
    std::string name;
    std::vector<std::string> inputs, outputs;
    std::vector<Assignment> body;
    Location loc;
};

struct Document {
    std::string version; ///< "1.0"
    std::vector<Extension> extensions;
    std::vector<Fragment> fragments;
    Graph graph;
};

/// One graph.quant entry: "<identifier>": <op>(<name> = <literal>, ...);
struct QuantEntry {
    std::string tensor;
    std::string op;
    std::vector<std::pair<std::string, ExprPtr>> args;
    Location loc;
};

} // namespace t2n::nnef::ast
