// Which graph inputs a value depends on, and how: through their values, or
// only through their shapes (a size call, the length of a list split from a
// tensor). fold_data_dependent_ifs says with it why a branch was taken;
// unroll_loops tells a trip count fixed by shapes and constants (unrolled for
// the example's shapes) from one that follows tensor values (refused).
//
// The walk goes backwards through nodes, nested blocks, loop-carried values
// and in-place writes; a list's length follows its appends and the
// conditions under which they run, not the values appended.
#pragma once

#include <torch/script.h>

#include <set>
#include <string>

namespace t2n::harden {

struct Dependence {
    /// Offsets of graph inputs (0 is `self` when the graph has a receiver).
    std::set<size_t> shapes;
    std::set<size_t> values;
};

/// What the value of `v` depends on.
Dependence dependenceOf(const torch::jit::Value* v);
/// What the number of iterations of the prim::Loop `loop` depends on.
Dependence tripCountDependence(const torch::jit::Node* loop);

/// "depends on the values of x, the shape of y" (or "depends on no input").
/// Module attributes (input 0 with a receiver) are constants, never values.
/// `onValues`: some forward() argument's values are among them.
std::string explainDependence(const Dependence& d, const torch::jit::Graph& g, bool hasSelf,
                              bool& onValues);

} // namespace t2n::harden
