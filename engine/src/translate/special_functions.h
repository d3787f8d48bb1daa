// Special functions spelled with standard operations, shared by their kinds
// (lower_special_functions.cpp) and the kaiser window (lower_windows.cpp).
#pragma once

#include "translate/context.h"

namespace t2n::translate {

/// The modified Bessel function I0 of a float tensor `x` of dtype `t`, or
/// with `scaled` exp(-|x|) I0(x): Abramowitz & Stegun 9.8.1 / 9.8.2, whose
/// relative error is below 5e-7 for every x.
Expr besselI0Of(Context& ctx, Expr x, DType t, bool scaled, const std::string& tag);

} // namespace t2n::translate
