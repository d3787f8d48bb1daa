// Sizes that follow the symbols of a dynamic export. The IR records every
// integer at the example size, and whether it changed in the probe run at
// grown sizes (ir::Value::varies). A varying integer (x.size(1), S * 2,
// S // 2) must not be written as its example value: this file rebuilds it as
// an expression over the tract symbols and tensor dimensions by reading the
// nodes that computed it, and checks the expression against the recorded
// values at both sizes before anyone writes it.
//
// The nodes that turn such integers into tensors (arange(S), ones(S, S), a
// slice of a table up to S, and everything computed from those) are known at
// export time too, so the IR folds them; symbolicNodes() names the ones whose
// results vary and reach the translated graph, so that they are lowered
// instead of frozen.
#pragma once

#include "t2n/ir.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace t2n::translate {

/// What the hints of a frozen-size refusal list as the operations that take a
/// size from a symbol (tests/engine/tst_symbolic_sizes.cpp checks each).
inline constexpr const char* kSymbolicSizeOps =
    "reshape/view, flatten/unflatten, expand, repeat, slice/narrow, split, pad, unfold, arange, "
    "eye, tril/triu, ones/zeros/full, linear and bicubic resampling and nearest resampling by a "
    "whole factor";

/// An integer expression: constants, tract symbols, dimensions of tensors of
/// the graph, + - * / (truncating, like tract's TDim and NNEF integers), and
/// min/max (tract's TDim keeps them symbolic: sliding windows, min(S, W)).
struct SizeExpr {
    enum class Op { Constant, Symbol, Dim, Add, Sub, Mul, Div, Min, Max };
    Op op = Op::Constant;
    int64_t value = 0;       ///< Constant: the value; Dim: the axis
    std::string symbol;      ///< Symbol
    ir::ValueId tensor = -1; ///< Dim: the tensor whose axis it is
    std::shared_ptr<const SizeExpr> lhs, rhs;

    bool isConstant() const { return op == Op::Constant; }
};
using SizePtr = std::shared_ptr<const SizeExpr>;

SizePtr sizeConstant(int64_t v);
/// a op b with constants folded and neutral operands dropped (x + 0, x * 1).
SizePtr sizeArithmetic(SizeExpr::Op op, SizePtr a, SizePtr b);
/// "S * 2 + 1", for messages.
std::string describeSize(const SizePtr& e, const ir::Graph& g);

class SymbolicSizes {
public:
    explicit SymbolicSizes(const ir::Graph& g);

    /// The expression of integer value `id` (an int, or a one-element integer
    /// tensor), checked at the example and probe sizes; null when t2n cannot
    /// follow it, with blocker() naming the node that stopped it.
    SizePtr scalar(ir::ValueId id);
    /// The expressions of an int list (prim::ListConstruct, size()), or nullopt.
    std::optional<std::vector<SizePtr>> list(ir::ValueId id);
    /// Axis `axis` of tensor `id`: a constant for a static axis, the symbol
    /// when the axis follows one exactly, else the dimension itself.
    SizePtr dim(ir::ValueId id, int64_t axis) const;
    /// True when value `id` depends on a symbol: it changed in the probe run, or
    /// it is computed from a symbolic dimension (x.size(1) // 2 may give the
    /// same number at the example and probe sizes and still follow S).
    bool follows(ir::ValueId id) const { return follows_.at(static_cast<size_t>(id)); }
    /// Value at the example sizes or the probe sizes (nullopt when unknown).
    std::optional<int64_t> evaluate(const SizePtr& e, bool probe) const;

    /// The node that could not be followed by the last failed scalar()/list().
    const ir::Node* blocker() const { return blocker_; }
    /// Why, in a few words ("aten::remainder is not size arithmetic").
    const std::string& reason() const { return reason_; }

private:
    SizePtr derive(ir::ValueId id);
    SizePtr padToMultiple(const ir::Node& remainder);
    SizePtr fail(const ir::Node* n, std::string why);
    std::string byConstantsOnly(const std::string& kind, const SizePtr& divisor) const;
    bool matches(const SizePtr& e, const ir::Value& v) const;

    const ir::Graph& g_;
    std::vector<bool> follows_;
    std::map<ir::ValueId, SizePtr> memo_;
    const ir::Node* blocker_ = nullptr;
    std::string reason_;
};

/// Per node: folded (known at export time), but an output tensor follows a
/// symbolic axis and reaches a translated node or a graph output. These
/// nodes are lowered like data nodes so that the archive follows the symbol.
std::vector<bool> symbolicNodes(const ir::Graph& g, const SymbolicSizes& sizes);

} // namespace t2n::translate
