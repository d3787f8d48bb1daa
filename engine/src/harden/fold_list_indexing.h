// Pass fold_list_indexing: reads of lists whose elements are known fold to
// those elements. `parts = torch.unbind(y, 1); parts[-1]`, `y.chunk(2)[0]`,
// `len(parts)`, `parts[1:]`: scripted models index the lists that unbind,
// split and chunk return (and lists they build), where traced ones see the
// elements already unpacked. NNEF has no lists; the IR knows a list by its
// elements, and `aten::__getitem__` of a list has no lowering.
//
//   aten::__getitem__(L, k)   -> element k (negative k counts from the end)
//   aten::len(L)              -> the number of elements
//   aten::slice(L, a, b, s)   -> prim::ListConstruct of the elements taken
//   aten::list(L) (a copy)    -> prim::ListConstruct of the elements
//   prim::ListUnpack(L)       -> the elements
//   aten::add(L, M)           -> prim::ListConstruct of both lists' elements
//   return (L), return (L, y) -> return a prim::ListConstruct of the elements
//                                (L split from a tensor; the IR makes one output each)
//
// for L a prim::ListConstruct, or the result of a tensor-splitting op
// (unbind, split, split_with_sizes, chunk, unsafe_*): these get one
// prim::ListUnpack, with the count of pieces the example's shapes give
// (from a run on the example inputs), and their reads fold to its outputs.
// Lists that are written to (see fold_list_appends) or kept by an op that
// could write them through an alias are left alone, as are
// indices that are not constants or out of range (the model raises then).
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: items_folded, lengths_folded, slices_folded, copies_folded,
/// concatenations_folded, lists_unpacked, returns_constructed.
void foldListIndexing(PassContext& ctx);

/// aten::slice(L, a, b, s) of a construct L nobody writes, with constant
/// bounds, becomes a construct of the elements taken (counted as
/// slices_folded); false when it does not apply or the rewrite limit is
/// reached. fold_list_appends calls it on a slice it is about to grow.
bool foldListSlice(PassContext& ctx, torch::jit::Node* slice);

} // namespace t2n::harden
