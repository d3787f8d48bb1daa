// The values the reference interpreter computes with: NNEF's compile-time
// values (integer, scalar, logical, string, arrays, tuples) and tensors.
// Written from the NNEF spec (reference/nnef-and-tract.md §1.2) and tract's
// reading of it (§2), independently of the exporter's lowering code.
#pragma once

#include "interp/tract_readings.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::interp {

/// tract or plain Khronos NNEF 1.0.5: the operation sets and a few semantics
/// (pooling borders, matmul ranks, pad spellings) differ between the two.
enum class TargetMode { Tract, Khronos };

struct Value {
    enum class Kind { None, Integer, Scalar, Logical, String, Tensor, Array, Tuple };
    Kind kind = Kind::None;
    int64_t integer = 0;
    double scalar = 0;
    bool logical = false;
    std::string text;
    at::Tensor tensor;
    /// Tensor only: a literal, a variable, or a value computed from those
    /// alone. tract lets such an operand take the other operand's dtype in
    /// binary operations (its "scalar type mismatch mitigation", §2.2).
    bool constant = false;
    /// Tensor only: a variable tract holds as Q4_0 blocks. Each consumer
    /// dequantizes it to its own type (its f32 here is the exact decoding);
    /// tract_core_gather must then name its output type.
    bool blockQuantized = false;
    /// Tensor only: i64 items tract holds as TDim, its type for sizes and
    /// integer literals, which some of its operations refuse (interp/tdim.h).
    bool tdim = false;
    std::vector<Value> items; ///< Array and Tuple

    static Value makeInteger(int64_t v);
    static Value makeScalar(double v);
    static Value makeLogical(bool v);
    static Value makeString(std::string v);
    static Value makeTensor(at::Tensor t, bool constant = false);
    static Value makeArray(std::vector<Value> items);
    static Value makeTuple(std::vector<Value> items);
    static Value makeIntegers(const std::vector<int64_t>& v);

    bool isTensor() const { return kind == Kind::Tensor; }
    bool isNumber() const { return kind == Kind::Integer || kind == Kind::Scalar; }
    bool isSequence() const { return kind == Kind::Array || kind == Kind::Tuple; }
};

std::string_view kindName(Value::Kind k);
/// "[1,3,8,8]"
std::string describeShape(at::IntArrayRef shape);
/// "f32[1,3,8,8]"
std::string describeTensor(const at::Tensor& t);
/// "f32[1,3,8,8]", "3", "2.5", "true", "'text'", "[1, 2]", "(a, b)"
std::string describe(const Value& v);

/// A literal (number, logical, or nested arrays of those) as a tensor, as
/// tract reads inline literals: integer -> i64, scalar -> f32, logical ->
/// bool (§2.1); a tensor value is returned as is.
at::Tensor literalTensor(const Value& v);
/// `v` as a tensor value (a literal becomes a constant tensor).
Value asTensorValue(const Value& v);

/// A failure while evaluating or running an operation: a message only. The
/// interpreter turns it into a t2n::Error naming the graph statement.
class InterpError : public std::runtime_error {
public:
    explicit InterpError(const std::string& message) : std::runtime_error(message) {}
};

} // namespace t2n::interp
