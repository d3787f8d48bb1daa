// What a lowering function sees: the IR node being translated, typed access
// to its constant arguments, NNEF expressions for its tensor inputs, and
// ways to emit operations, variables and bindings. Every error raised here
// names the node (kind, module path, source line).
#pragma once

#include "nnef/document.h"
#include "nnef/identifiers.h"
#include "t2n/error.h"
#include "t2n/ir.h"
#include "t2n/options.h"
#include "target/inference_target.h"
#include "translate/frozen_sizes.h"
#include "translate/scaled_symbols.h"
#include "translate/symbolic_sizes.h"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace t2n::translate {

using nnef::Expr;
using Kwargs = std::vector<std::pair<std::string, Expr>>;

class Context {
public:
    Context(const ir::Graph& graph, const target::InferenceTarget& target, nnef::Document& doc,
            const ExportOptions& options);

    // --- the node being lowered --------------------------------------------
    void setNode(const ir::Node* node) { node_ = node; }
    const ir::Node& node() const { return *node_; }
    const ir::Graph& graph() const { return graph_; }
    const target::InferenceTarget& target() const { return target_; }
    /// The export's options, for graph choices the user makes (--reify-sdpa).
    const ExportOptions& options() const { return options_; }
    size_t numInputs() const { return node_->inputs.size(); }
    const ir::Value& in(size_t i) const;
    const ir::Value& out(size_t i = 0) const;

    // --- constant arguments (throw Unsupported when not known) ---------------
    bool isNone(size_t i) const;
    int64_t intArg(size_t i) const;
    double floatArg(size_t i) const; ///< int or float constants
    bool boolArg(size_t i) const;
    std::string stringArg(size_t i) const;
    std::vector<int64_t> intsArg(size_t i) const; ///< an int list, or one int
    /// Normalizes a possibly negative axis against `rank`.
    int64_t axis(int64_t a, int64_t rank) const;

    // --- sizes that follow the symbols of a dynamic export (symbolic_sizes.h) --
    // intArg/intsArg refuse an argument that changes with a symbolic axis: its
    // example value would freeze the export. Lowerings that can take the size
    // as an expression read it with these instead (context_sizes.cpp).
    /// True when argument i changes with a symbolic axis, or is computed from
    /// one (SymbolicSizes::follows).
    bool isSymbolic(size_t i) const {
        return i < numInputs() && (in(i).varies || sizes_.follows(node_->inputs[i]));
    }
    /// An integer argument as an NNEF integer expression: a literal when it is
    /// fixed, else an expression over the tract symbols (`S * 2`) checked at
    /// both probe sizes. Unsupported, naming the node t2n cannot follow.
    /// `numbers`: min/max of sizes as i64 numbers of the running graph rather
    /// than TDim (a range bound: see sizeExpr); shapes need the TDim.
    Expr sizeArg(size_t i, bool numbers = false);
    /// An int-list argument (or one int), element by element.
    std::vector<Expr> sizesArg(size_t i);
    /// Axis `axis` of tensor `id` as an integer expression: the size when
    /// static, the symbol it follows, else tract_core_shape_of sliced.
    Expr dimExpr(ir::ValueId id, int64_t axis);
    /// A varying scalar (an int from size arithmetic) as a one-element tensor
    /// of `dtype`: tract_core_cast of its expression.
    Expr sizeTensor(ir::ValueId id, DType dtype);
    /// Whether statement `index` of the document reads a size from the graph
    /// (dimExpr, sizeTensor): the context's doing, not the lowering's, so the
    /// registry's declarations need not list it.
    bool readsSize(size_t index) const { return sizeStatements_.count(index) > 0; }
    /// After a strided convolution or pooling is lowered: each output axis
    /// that follows a scaled symbol (scaled_symbols.h) through the stride is
    /// pinned to its expression by a slice over the whole axis, so that
    /// tract reads `16 * H_32` there instead of a floor division it cannot
    /// compare with the other paths'. Returns the number of axes pinned.
    int pinStridedAxes();
    /// The symbols written as a multiple of a new symbol.
    const ScaledSymbols& scaledSymbols() const { return scaled_; }
    /// Axes pinned so far, by scaled symbol ("H_32").
    const std::map<std::string, int>& pinnedAxes() const { return pinnedBySymbol_; }

    // --- NNEF expressions for IR values --------------------------------------
    /// An identifier or literal for a tensor value (materializing constants).
    Expr tensor(ir::ValueId id);
    Expr input(size_t i) { return tensor(node_->inputs.at(i)); }
    /// `id` padded with leading unit axes to `rank` (NNEF broadcasts by
    /// trailing padding, PyTorch by leading), converted to `dtype` if given.
    Expr operand(ir::ValueId id, int64_t rank, std::optional<DType> dtype = std::nullopt);
    /// Tensor-list elements (prim::ListConstruct inputs, or a bound array).
    std::vector<Expr> list(ir::ValueId id);
    bool isBound(ir::ValueId id) const { return bound_.count(id) != 0; }

    // --- emitting -------------------------------------------------------------
    /// Emits `op` producing node output `i` under its final name and binds it.
    Expr emitOut(const std::string& op, std::vector<Expr> args, Kwargs kwargs = {}, size_t i = 0);
    /// Emits a helper operation named after the node's output plus `suffix`.
    Expr emitTemp(const std::string& op, std::vector<Expr> args, Kwargs kwargs,
                  const std::string& suffix);
    /// Emits `op` producing IR value `id` (not an output of this node, e.g.
    /// the elements a later prim::ListUnpack will hand out) and binds it.
    Expr emitFor(ir::ValueId id, const std::string& op, std::vector<Expr> args, Kwargs kwargs = {});
    /// True when a translated node or a graph output reads `id`.
    bool isUsed(ir::ValueId id) const;
    /// Emits an operation with several results (all temporaries).
    std::vector<Expr> emitMulti(const std::string& op, std::vector<Expr> args, Kwargs kwargs,
                                const std::vector<std::string>& suffixes);
    /// The IR value is this expression (identity lowerings bind their input).
    void bind(ir::ValueId id, Expr e);
    void bindOut(Expr e, size_t i = 0) { bind(node_->outputs.at(i), std::move(e)); }
    /// tract_core_cast, or a converted literal for constants.
    Expr cast(Expr e, DType from, DType to, const std::string& suffix = "cast");
    /// A tensor as a literal when small and not a parameter (a `constant`
    /// operation when the target has no tensor literals), else a variable.
    Expr constantTensor(const TensorData& data, const std::string& paramName,
                        const std::string& nameHint);
    /// A tensor computed by a lowering (index tables, interpolation weights):
    /// the context keeps its bytes alive, then writes it like a folded constant.
    Expr derivedTensor(TensorData data, const std::string& nameHint);
    /// Always a .dat variable under `label` (quantized weights, int32 biases).
    /// With `quant`, `data` holds the stored integers of a quantized tensor:
    /// declared <scalar>, written with the quantized item code, and given a
    /// graph.quant entry.
    Expr storedVariable(TensorData data, const std::string& label,
                        const std::optional<nnef::QuantEntry>& quant);
    /// Adds a graph.quant entry for `identifier`; false when it has one.
    bool addQuant(const std::string& identifier, nnef::QuantEntry q);
    /// A scalar literal of the right kind for `dtype` (1 vs 1.0 vs true).
    static Expr scalarLiteral(double v, DType dtype);
    /// Adds a fragment definition (e.g. a tract_core_scan body) once per name.
    void addFragment(const std::string& name, const std::string& definition);
    /// A packed sequence (pack_padded_sequence's data) stands for a padded
    /// time-major tensor and the lengths of its batch items; the recurrent
    /// layers that read it and pad_packed_sequence find it here
    /// (lower_recurrent.cpp). `data` has no NNEF value of its own.
    struct PackedSequence {
        Expr padded;         ///< [T, B, F]
        Expr mask;           ///< [T, B, 1] logical: step t < length of item b
        ir::ValueId lengths; ///< the lengths tensor [B]
        int64_t steps = 0;   ///< T
    };
    void setPacked(ir::ValueId data, PackedSequence p) { packed_[data] = std::move(p); }
    const PackedSequence* packed(ir::ValueId data) const {
        auto it = packed_.find(data);
        return it == packed_.end() ? nullptr : &it->second;
    }
    /// A lowering re-derived value `id` from the symbolic input shapes instead
    /// of using its export-time value: no "frozen at the example shape" warning.
    void markRederived(ir::ValueId id) { rederived_.insert(id); }
    bool isRederived(ir::ValueId id) const { return rederived_.count(id) != 0; }

    // --- diagnostics ----------------------------------------------------------
    [[noreturn]] void unsupported(const std::string& why, const std::string& hint = {}) const;
    void warn(const std::string& message);
    std::vector<std::string> takeWarnings() { return std::move(warnings_); }
    /// The values a lowering refused because they follow a dynamic axis
    /// (frozenArgument, cannotFollow), for the report's frozen-size table.
    const std::vector<FrozenRead>& frozenReads() const { return frozenReads_; }

    /// The IR value each NNEF identifier stands for (the first binding wins:
    /// identity lowerings rebind an existing identifier to an equal value).
    const std::map<std::string, ir::ValueId>& identifierValues() const { return identifiers_; }

    // --- finishing ------------------------------------------------------------
    /// Declares the kept inputs (external) with the given names; call
    /// before lowering.
    void declareInputs(const std::vector<std::string>& names,
                       const std::vector<std::map<int, std::string>>& symbols,
                       const std::vector<bool>& keep);
    /// Names graph outputs, adding copies where a value cannot carry the name.
    void declareOutputs(const std::vector<std::string>& names);
    /// Output name reserved for IR value `id`, if it is a graph output.
    std::optional<std::string> outputNameOf(ir::ValueId id) const;

private:
    /// Appends an emitted operation, its non-finite literals made writable.
    void push(nnef::Invocation inv);
    std::string freshName(const std::string& base);
    Expr variable(const TensorData& data, const std::string& label, const std::string& origin,
                  const std::string& from);
    std::string originOf(ir::ValueId id) const;
    Expr constantOperation(const TensorData& data, const std::string& nameHint);
    Expr sizeExpr(const SizePtr& e, bool numbers = false);
    /// `e` as coef * S + c over one scaled symbol, when every step is exact.
    std::optional<AxisAffine> affineOf(const SizePtr& e);
    /// Axis `axis` of tensor `id` as coef * S + c: a scaled symbol's axis, a
    /// pinned axis, or one that keeps its producer's first input's size.
    std::optional<AxisAffine> axisAffine(ir::ValueId id, int64_t axis);
    [[noreturn]] void cannotFollow(size_t i) const;
    [[noreturn]] void frozenArgument(size_t i) const;

    const ir::Graph& graph_;
    const target::InferenceTarget& target_;
    nnef::Document& doc_;
    const ExportOptions& options_;
    const ir::Node* node_ = nullptr;
    nnef::IdentifierPool pool_;
    std::map<ir::ValueId, Expr> bound_;
    std::map<std::string, ir::ValueId> identifiers_;
    std::vector<int> uses_;
    std::map<ir::ValueId, std::string> outputNames_; // first graph-output name per value
    std::map<std::pair<ir::ValueId, int64_t>, Expr> aligned_;
    std::map<std::string, std::string> labelToIdentifier_;
    std::map<std::tuple<const void*, std::vector<int64_t>, int>, std::string> variableCache_;
    std::vector<std::string> warnings_;
    std::set<std::string> fragmentNames_;
    std::set<ir::ValueId> rederived_;
    std::deque<TensorData> derived_; // stable addresses: variableCache_ keys on them
    SymbolicSizes sizes_;
    ScaledSymbols scaled_;
    std::map<std::pair<ir::ValueId, int64_t>, AxisAffine> pinned_; // see pinStridedAxes()
    std::map<std::string, int> pinnedBySymbol_;                    // statistic, by symbol
    std::map<ir::ValueId, Expr> shapes_;                           // tract_core_shape_of per tensor
    std::map<std::pair<ir::ValueId, int64_t>, Expr> dims_;         // one axis of it
    std::map<std::pair<SizePtr, bool>, Expr> extrema_;             // min/max of sizes, once each
    std::set<size_t> sizeStatements_;                              // see readsSize()
    std::map<ir::ValueId, PackedSequence> packed_;                 // see packed()
    // Recorded by the const refusals just before they throw.
    mutable std::vector<FrozenRead> frozenReads_;
};

} // namespace t2n::translate
