// A number taken from a one-element tensor of the data (`best = float(p)`,
// TorchScript's FloatImplicit in a streaming model's running maximum) is
// frozen at its example value by default (translator.cpp): numbers usually
// feed sizes, indices and arguments that NNEF needs as literals. Where every
// reader of such a number is an elementwise operation on tensors
// (comparisons, arithmetic, where()) or a graph output, it is kept as that
// 0-d tensor instead, so that the archive computes it for any input.
#pragma once

#include "t2n/ir.h"

#include <vector>

namespace t2n::translate {

/// Per node id: true for the nodes taking a number from a data tensor whose
/// result is kept as a 0-d tensor (see above); the translator lowers them
/// instead of freezing them.
std::vector<bool> numbersKeptAsTensors(const ir::Graph& g);

/// Whether `kind` takes a float from a one-element tensor (aten::Float,
/// aten::FloatImplicit; their lowering is in lower_factories.cpp).
bool takesNumberFromTensor(const std::string& kind);

} // namespace t2n::translate
