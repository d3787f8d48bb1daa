// Integer literals as tensor operands, typed for tract (integer_literals.cpp
// says why).
#pragma once

#include "nnef/document.h"

namespace t2n::translate {

class Context;

/// For a tract target, replaces each bare integer literal that `inv` (about
/// to be emitted) takes as a tensor operand of an element-wise operation with
/// tract_core_cast(literal, to = 'i64'). Returns how many were replaced.
int typeIntegerOperands(Context& ctx, nnef::Invocation& inv);

} // namespace t2n::translate
