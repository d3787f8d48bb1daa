// Small graph helpers shared by the hardening passes: walking nested
// blocks, node counts, where a node comes from, constants, and inlining
// one branch of a prim::If.
#pragma once

#include <torch/script.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace t2n::harden {

/// Every node of `block` and its nested blocks, outer before inner, in order.
/// A snapshot: safe to use while the passes edit the graph.
std::vector<torch::jit::Node*> allNodes(torch::jit::Block* block);
std::vector<torch::jit::Node*> nodesOfKind(torch::jit::Block* block, c10::Symbol kind);

/// Nodes of the graph, nested blocks included.
int64_t countNodes(const torch::jit::Graph& graph);
int64_t countNodes(const torch::jit::Block& block);
std::string graphText(const torch::jit::Graph& graph);

/// Bool, Int, Float, String, None, or lists / optionals / tuples of them.
bool isPrimitive(const c10::TypePtr& type);
/// A value of TensorType (not a list or optional of tensors).
bool isTensor(const torch::jit::Value* v);

/// "file.py:42" of the Python source the node came from, or "" when unknown.
std::string where(const torch::jit::Node* node);
/// "encoder.layers.0": the module path of the node's inlined call stack
/// ("" for a node of forward() itself).
std::string callPath(const torch::jit::Node* node);
/// "encoder.layers.0": the attribute path from `self` (graph input 0) of a
/// prim::GetAttr's result or a prim::CallMethod's receiver; "" otherwise.
std::string receiverPath(const torch::jit::Node* node);
/// "%c = aten::eq(%a, %b) at file.py:42" (one line).
std::string describe(const torch::jit::Node* node);

/// Value of a prim::Constant, or of a list / tuple construct of constants.
std::optional<c10::IValue> constantValue(const torch::jit::Value* value);
/// A prim::Constant holding `iv`, inserted before `before`; null if TorchScript
/// cannot hold `iv` as a constant.
torch::jit::Value* insertConstantBefore(torch::jit::Node* before, const c10::IValue& iv);
/// Replaces the single-output `node` by a constant holding `iv` and destroys it;
/// false (graph untouched) if TorchScript cannot hold `iv` as a constant.
bool replaceWithConstant(torch::jit::Node* node, const c10::IValue& iv);

/// Gives `to` the source range, scope and inlined call stack of `from`, so
/// that a node a pass creates names the statement and module it stands for.
void copyOrigin(torch::jit::Node* to, torch::jit::Node* from);

/// Moves the nodes of block `branch` of the prim::If `node` before it, routes
/// the If's outputs to that block's outputs and destroys the If.
void inlineIfBranch(torch::jit::Node* node, size_t branch);

/// aten::dim, aten::size, aten::len or aten::numel: values that depend on
/// shapes only (and on list lengths).
bool isSizeCall(const torch::jit::Node* node);

/// aten::add_ and friends (an aten kind ending in one underscore); not the
/// dunder ops such as aten::__iand__.
bool isInPlace(const torch::jit::Node* node);

/// Whether `node` writes into its input `offset` (x.add_(y) into x,
/// list.append(t) into the list), by its schema's alias annotations.
bool writesInput(const torch::jit::Node* node, size_t offset);

/// Some op writes into `value` (see writesInput): a list that is appended
/// to has another length at each point of the graph.
bool isWritten(const torch::jit::Value* value);

/// Whether `user` keeps its input `offset` beyond the call: a result that may
/// alias it or hold it (a list construct holding a list, a view), or an op
/// without a schema. Reads (len, cat, indexing, unpacking, the graph's return)
/// do not; neither does a node whose results are all unused.
bool keepsInput(const torch::jit::Node* user, size_t offset);

/// Every use of `value` reads it: nothing writes it or keeps an alias that
/// could be written, so it stays what its definition made it.
bool isOnlyRead(const torch::jit::Value* value);

/// Inside a prim::Loop body (at any depth): runs once per iteration.
bool insideLoop(const torch::jit::Node* node);

} // namespace t2n::harden
