// t2n's own IR: the hardened TorchScript graph with every value's dtype,
// shape and (where it does not depend on input data) its value, recorded by
// running the graph on example inputs. Torch-free, so that the translator,
// the studio and the tests can read it without LibTorch headers.
#pragma once

#include "t2n/dtype.h"
#include "t2n/error.h"
#include "t2n/tensor_data.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace t2n::ir {

using ValueId = int;
using NodeId = int;

enum class ValueKind {
    Tensor,
    Int,
    Float,
    Bool,
    String,
    None,
    IntList,
    FloatList,
    BoolList,
    TensorList,
    Tuple,
    Other
};
std::string_view valueKindName(ValueKind k);

/// A value known at export time. Tensors are kept without copy.
using Constant =
    std::variant<std::monostate, int64_t, double, bool, std::string, std::vector<int64_t>,
                 std::vector<double>, std::vector<bool>, TensorData>;

/// A quantized tensor (torch's per-tensor affine quint8/qint8/qint32):
/// real value = (stored - zeroPoint) * scale.
struct Quantization {
    DType storage = DType::U8; ///< U8 (quint8), I8 (qint8) or I32 (qint32)
    double scale = 1.0;
    int64_t zeroPoint = 0;
    /// Per-channel affine (scale and zero point per output channel): recorded
    /// so that the translator can refuse it clearly; scale/zeroPoint are unused.
    bool perChannel = false;
};

struct Value {
    ValueId id = -1;
    std::string debugName; ///< TorchScript's %name
    std::string name;      ///< NNEF identifier base chosen by the naming scheme
    ValueKind kind = ValueKind::Other;
    // Tensors: recorded dtype and shape.
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    /// Per axis, the symbol of a dynamic axis the size depends on ("" if static).
    std::vector<std::string> symbols;
    /// True when the value depends on the data of a graph input. Values that
    /// do not are folded to `constant`.
    bool dataDependent = false;
    /// True when the value changed between the two shape probes of a dynamic
    /// export: freezing it into the NNEF graph would make the export static.
    bool varies = false;
    /// Dynamic exports: the tensor's shape in the probe run, and a scalar's or
    /// int list's value there, so that a size derived from a symbol can be
    /// checked at both sizes before it is written.
    std::vector<int64_t> probeShape;
    /// The tensor's shape in the far probe run (every symbol doubled), when
    /// it ran: a third point for sizes that follow a symbol through strides.
    std::vector<int64_t> farShape;
    std::optional<Constant> probeConstant;
    std::optional<Constant> constant;
    /// A complex tensor, recorded as tract carries it: `dtype` is its real
    /// part's (complex64: F32) and `shape` ends with an axis of 2 (real,
    /// imaginary). Only lowerings that know it may read such a value.
    bool complex = false;
    /// Quantized tensors: `dtype` is then F32, the real numbers the NNEF graph
    /// computes with, and this says how they are stored (graph.quant).
    std::optional<Quantization> quant;
    /// Parameter or buffer name when the constant is a model tensor.
    std::string paramName;
    NodeId producer = -1;
    /// For lists and tuples built in the graph: their element values. For
    /// quantized packed parameters (conv/linear): weight, bias, then for conv
    /// stride, padding, dilation and groups (see jit/packed_params.h).
    std::vector<ValueId> elements;
};

struct Node {
    NodeId id = -1;
    std::string kind; ///< aten::conv2d, prim::ListConstruct, ...
    std::vector<ValueId> inputs;
    std::vector<ValueId> outputs;
    NodeRef where; ///< kind, module path, source line
    /// Stable id of the TorchScript node it came from (t2n/graph_snapshot.h).
    int64_t torchNode = -1;
    /// All outputs are known at export time: nothing to translate.
    bool folded = false;
};

/// A symbol of a dynamic export with its size in the example run and in the
/// probe run (trace runs the graph a second time with the dynamic axes grown).
struct SymbolSize {
    std::string name;
    int64_t example = 0;
    int64_t probe = 0;
    int64_t far = 0; ///< in the far probe run; 0 when it did not run
};

/// How the trace chose a symbol's second size (its probe, which the check
/// runs the archive at too): the rule the graph or the user gives its axes,
/// and the sizes the model refused before one it accepted.
struct SymbolProbe {
    std::string name;
    int64_t example = 0;
    int64_t second = 0;           ///< 0: the model ran at no other size tried
    std::string rule;             ///< "multiple-of=32,min=64"; "" when any size goes
    int64_t multipleOf = 1;       ///< the rule's multiple (1: any size)
    std::string why;              ///< where an inferred rule comes from
    bool declared = false;        ///< the rule came with --dynamic-axis
    std::vector<int64_t> refused; ///< sizes tried first, which the model refused
    std::string refusal;          ///< the model's message at the first of them
};

struct Graph {
    std::vector<Value> values;
    std::vector<Node> nodes; ///< topological order
    std::vector<ValueId> inputs;
    std::vector<ValueId> outputs;
    /// Symbols whose probe run succeeded (empty for static exports).
    std::vector<SymbolSize> symbolSizes;
    /// Every symbol of a dynamic export, with how its second size was chosen.
    std::vector<SymbolProbe> symbolProbes;

    const Value& value(ValueId id) const { return values.at(static_cast<size_t>(id)); }
    Value& value(ValueId id) { return values.at(static_cast<size_t>(id)); }
    const Node& node(NodeId id) const { return nodes.at(static_cast<size_t>(id)); }
    /// The node `ref` names (an error's, a report's): the node with an
    /// output of its value name, else the same kind at the same source
    /// line; -1 for none.
    NodeId nodeFor(const NodeRef& ref) const;
    /// Readable listing with dtypes, shapes and module paths (t2n inspect).
    /// `nodeLines`, when given, receives the 1-based line of each node.
    std::string print(std::vector<int>* nodeLines = nullptr) const;
};

} // namespace t2n::ir
