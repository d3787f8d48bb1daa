// Complex values as t2n carries them (ir::Value::complex): real numbers with a
// trailing axis of 2 (real, imaginary), tract's convention. Shared by the
// spectral lowerings and the complex ones (lower_spectral.cpp,
// lower_complex.cpp).
#pragma once

#include "translate/context.h"

#include <string>

namespace t2n::translate {

/// The number of axes a value has as PyTorch sees it (without the trailing 2).
int64_t logicalRank(const ir::Value& v);

/// Value `id` as complex numbers of `rank` axes (the 2 included), aligned with
/// leading unit axes: a complex value as it is; a real tensor (or Python
/// number) gets a zero imaginary part.
Expr asComplex(Context& ctx, ir::ValueId id, int64_t rank);

/// Input `i` as complex numbers at its own rank, refusing dtypes other than
/// f32 (tract's Fourier transforms read f32).
Expr complexOperand(Context& ctx, size_t i);

/// The part (0: real, 1: imaginary) of complex `x` of `rank` axes (with its
/// 2), keeping the trailing axis.
Expr complexPart(Context& ctx, Expr x, int64_t rank, int64_t which, const std::string& tag);

/// Real `re` and `im` of `rank` axes (without the 2) as complex numbers, bound
/// to output 0: concatenated on a new trailing axis when both have the
/// output's shape, else each padded with a zero part and added (broadcast).
void emitFromParts(Context& ctx, Expr re, Expr im, int64_t rank, bool sameShape);

/// imag(z): the imaginary part (refuses a real tensor, as PyTorch).
void lowerComplexImag(Context& ctx);
/// conj(z): the imaginary part negated; a real tensor is its own conjugate.
void lowerComplexConj(Context& ctx);

/// slice_scatter(x, src, dim, start, end, step) of real or complex tensors
/// (lower_writes.cpp).
void lowerSliceScatter(Context& ctx);

} // namespace t2n::translate
