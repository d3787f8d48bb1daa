// Pass remove_view_mutation: writes into views, which remove_tensor_mutation
// (torch's RemoveTensorMutation) leaves because the written tensor has
// aliases, become functional:
//
//   y[:, :2] = 0.0        s = slice(slice(y, 0), 1, 0, 2); copy_(s, 0.0)
//   y[:, 1] = x[:, 0]     copy_(select(slice(y, 0), 1, 1), ...)
//   y[:, 1:].masked_fill_(m, 0.0), y.narrow(1, 0, 1).zero_(), y[:, :2] += 1
//   y[idx] = v, y[y < 0] = 0     index_put_(y, [idx], v)
//
// The write's new value of the view is computed functionally (copy_ ->
// expand_as(type_as(src)), fill_ -> full_like, zero_ -> zeros_like, foo_ ->
// foo), then put back into each tensor of the view chain up to the tensor
// that owns the memory with aten::slice_scatter / aten::select_scatter (the
// form PyTorch's own functionalization uses); reads after the write read the
// new values. The translator lowers the scatters as slices and a concat,
// index_put as a select (boolean mask) or a gather (constant indices).
//
// Matched: a chain of aten::slice / select / narrow views in the block that
// defines the written tensor, which no other op created (a transpose or view
// of it is left, remarked), when alias analysis shows no other alias of the
// tensor is read after the write. Writes inside a loop body into a tensor
// from outside are reached once unroll_loops has unrolled the loop.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: writes_made_functional.
void removeViewMutation(PassContext& ctx);

} // namespace t2n::harden
