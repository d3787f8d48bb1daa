// An NNEF document being built: extensions, fragments, properties, the graph
// body as invocations, and the variables' tensor data. The printer turns it
// into graph.nnef; the writer streams the variables into .dat files.
#pragma once

#include "t2n/tensor_data.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace t2n::nnef {

/// An argument or literal: identifier, number, logical, string, array, tuple,
/// or integer arithmetic on those (a size computed from a tract symbol: `S * 2`).
struct Expr {
    enum class Kind { Identifier, Integer, Scalar, Logical, String, Array, Tuple, Binary };
    Kind kind = Kind::Integer;
    std::string text; ///< identifier name, string value, or Binary's operator (+ - * /)
    int64_t integer = 0;
    double scalar = 0;
    bool logical = false;
    std::vector<Expr> items; ///< Array and Tuple items; Binary's two operands

    static Expr id(std::string name);
    static Expr i(int64_t v);
    static Expr f(double v);
    static Expr b(bool v);
    static Expr str(std::string v);
    static Expr array(std::vector<Expr> items);
    static Expr tuple(std::vector<Expr> items);
    static Expr ints(const std::vector<int64_t>& v);
    static Expr binary(std::string op, Expr lhs, Expr rhs);

    bool isIdentifier() const { return kind == Kind::Identifier; }
};

struct Invocation {
    std::string op;
    std::string typeParam; ///< external<scalar>: "scalar"
    std::vector<Expr> args;
    std::vector<std::pair<std::string, Expr>> kwargs;
    std::vector<std::string> results; ///< one, or several printed as a tuple
    bool resultsAsArray = false;      ///< [a, b] = ... instead of (a, b) = ...
    int irNode = -1;                  ///< IR node it came from (-1: graph plumbing)
};

struct Variable {
    std::string identifier;
    std::string label;
    TensorData data;
    std::string origin; ///< parameter | derived
    std::string from;   ///< for derived variables
    /// Integer items stored as a quantized tensor (.dat codes 2/3) with a
    /// graph.quant entry.
    bool quantized = false;
    /// Stored as tract's Q4_0 blocks (nnef/q4_0.h); `data` holds the values
    /// the blocks decode to (f32).
    bool q4_0 = false;
};

/// A graph.quant entry: zero_point_linear_quantize with scalar parameters,
/// the only form tract reads (reference/nnef-and-tract.md §2.4).
struct QuantEntry {
    std::string identifier;
    double scale = 1.0;
    int64_t zeroPoint = 0;
    int bits = 8;
    bool isSigned = false;
};

struct Document {
    std::vector<std::string> extensions; ///< e.g. "tract_registry tract_core"
    std::vector<std::pair<std::string, std::string>> properties; ///< tract_core_properties
    std::vector<std::string> fragments;                          ///< full fragment definitions
    std::string graphName = "network";
    std::vector<std::string> inputs, outputs;
    std::vector<Invocation> body;
    std::vector<Variable> variables;
    std::vector<QuantEntry> quant; ///< graph.quant, in emission order

    void addExtension(const std::string& ext);
};

/// graph.nnef text: ±inf scalars as tract's `inf`/`-inf` literals. Throws
/// t2n::Error (Write, Internal) for a NaN literal.
std::string print(const Document& doc);
/// graph.quant text (one line per entry), empty when there are none.
std::string printQuant(const Document& doc);
/// One expression as NNEF text (for tests and messages).
std::string printExpr(const Expr& e);
/// A scalar literal that always reads back as a scalar: 1.0, -2.5e-05.
std::string formatScalar(double v);

} // namespace t2n::nnef
