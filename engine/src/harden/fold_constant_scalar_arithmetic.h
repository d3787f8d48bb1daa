// Pass fold_constant_scalar_arithmetic: evaluates scalar nodes whose inputs
// are all constants: comparisons (eq ne lt le gt ge), __not__, __contains__
// over a constant list, Bool/Int/Float casts, int/float add sub mul div
// floordiv remainder neg, __getitem__ and len of constant lists, and __is__ /
// __isnot__ against None when the other side cannot be None.
//
// It stands in for torch's ConstantPropagation, which seed 001 avoids: on
// graphs mixing inlined submodules and size-fold constants it trips an
// internal assert that terminates the process. This pass walks only these
// kinds and never calls the upstream machinery.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: expressions_folded.
void foldConstantScalarArithmetic(PassContext& ctx);

} // namespace t2n::harden
