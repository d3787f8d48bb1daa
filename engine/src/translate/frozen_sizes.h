// "Where a size froze", as the translation sees it: the values of a dynamic
// export that a lowering needed fixed at export time (Context::frozenArgument),
// could not compute from the symbols (Context::cannotFollow), or that a
// translated node reads as a folded constant (translator.cpp frozenVarying).
// The translation records them as it refuses the nodes; the session turns
// them into the report's table of values with their sizes at both probe
// sizes, so that a person sees which value kept the example's size.
#pragma once

#include "t2n/ir.h"
#include "t2n/report.h"

#include <string>
#include <vector>

namespace t2n::translate {

struct FrozenRead {
    enum class Why { NeededFixed, CannotCompute, ReadAsConstant };
    ir::ValueId value = -1;
    ir::NodeId reader = -1; ///< the node whose lowering reads it (-1: none known)
    Why why = Why::NeededFixed;
};

/// The report's table for `reads` (each value once, in graph order), with
/// each value at the example sizes and at the probe sizes of `graph`.
FrozenSizes frozenSizeTable(const ir::Graph& graph, const std::vector<FrozenRead>& reads);

/// A number or list known at export time as the report writes it ("4",
/// "[2, 6]"); "" for what has no short text (a tensor of several elements).
std::string describeConstant(const ir::Constant& c);

/// "S=6, B=2" at the example sizes (or, with `probe`, at the probe sizes).
std::string symbolSizesLabel(const ir::Graph& graph, bool probe);

} // namespace t2n::translate
