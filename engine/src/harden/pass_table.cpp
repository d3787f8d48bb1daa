#include "harden/pass_table.h"

#include "harden/eliminate_dead_code.h"
#include "harden/fold_constant_ifs.h"
#include "harden/fold_constant_scalar_arithmetic.h"
#include "harden/fold_data_dependent_ifs.h"
#include "harden/fold_dict_writes.h"
#include "harden/fold_list_appends.h"
#include "harden/fold_list_indexing.h"
#include "harden/fold_tuple_index_through_tuple_construct.h"
#include "harden/fold_tuple_unpack_through_tuple_construct.h"
#include "harden/freeze_module.h"
#include "harden/inline_unresolvable_submodules.h"
#include "harden/remove_attribute_writes.h"
#include "harden/remove_tensor_mutation.h"
#include "harden/remove_view_mutation.h"
#include "harden/replace_size_calls_with_constants.h"
#include "harden/select_value_ifs.h"
#include "harden/strip_assertion_ifs.h"
#include "harden/strip_prim_data.h"
#include "harden/unpack_mobile_contexts.h"
#include "harden/unroll_loops.h"

namespace t2n::harden {

namespace {
constexpr Statistic kFreeze[] = {
    {"calls_inlined", "method and function calls inlined by freezing"},
    {"attributes_folded", "module attribute reads turned into constants"}};
constexpr Statistic kInline[] = {
    {"calls_inlined", "calls inlined (all but the torch.nn modules t2n translates whole)"},
    {"container_indices_resolved", "module container indexings resolved to one submodule"}};
constexpr Statistic kMobile[] = {
    {"contexts_unpacked", "prepacked (XNNPACK) conv/linear calls written as the aten op"},
    {"clamps_written", "clamps (or relus) the unpacked contexts applied"}};
constexpr Statistic kAttributeWrites[] = {
    {"attribute_writes_removed", "module attribute assignments dropped (with a warning)"},
    {"attribute_reads_forwarded", "attribute reads after an assignment given the assigned value"}};
constexpr Statistic kMutation[] = {
    {"ops_made_functional", "in-place tensor ops replaced by their functional form"}};
constexpr Statistic kViews[] = {
    {"writes_made_functional",
     "writes into views made functional (scatters back into the tensor)"}};
constexpr Statistic kSizes[] = {
    {"size_calls_replaced", "dim/size/len/numel folded where they only feed control flow"}};
constexpr Statistic kScalars[] = {
    {"expressions_folded", "scalar comparisons, casts and arithmetic on constants evaluated"}};
constexpr Statistic kConstIfs[] = {{"ifs_folded", "ifs with a constant condition inlined"}};
constexpr Statistic kTupleIndex[] = {
    {"tuple_indices_folded", "TupleIndex of a TupleConstruct replaced by the element"}};
constexpr Statistic kTupleUnpack[] = {
    {"tuple_unpacks_folded", "TupleUnpack of a TupleConstruct replaced by the elements"}};
constexpr Statistic kAppends[] = {
    {"lists_rebuilt", "lists grown by appends rebuilt as one construct per state"},
    {"appends_folded", "aten::append calls replaced"}};
constexpr Statistic kDicts[] = {
    {"dicts_rebuilt", "dicts filled by constant-key writes in one block folded to their values"},
    {"dict_writes_folded", "aten::_set_item calls replaced"}};
constexpr Statistic kListReads[] = {
    {"items_folded", "list items (list[k], unpacking) replaced by the element"},
    {"lengths_folded", "len(list) replaced by the number of elements"},
    {"slices_folded", "list slices (list[a:b]) replaced by a list of the elements"},
    {"copies_folded", "list copies (list(l)) replaced by a list of the elements"},
    {"concatenations_folded", "list concatenations (a + b) replaced by a list of the elements"},
    {"lists_unpacked",
     "unbind/split/chunk/meshgrid/broadcast_tensors results given one unpack of their pieces"},
    {"returns_constructed",
     "returned split/chunk/unbind lists replaced by a list of their pieces (one output each)"}};
constexpr Statistic kData[] = {{"data_reads_stripped", "prim::data (.data) removed"}};
constexpr Statistic kAsserts[] = {
    {"assertions_stripped", "ifs whose one branch only raises dropped"}};
constexpr Statistic kValueIfs[] = {
    {"ifs_selected", "ifs on tensor data choosing numbers computed as where() of both branches"}};
constexpr Statistic kDataIfs[] = {
    {"ifs_specialized", "ifs inlined with the branch the example inputs take"}};
constexpr Statistic kLoops[] = {{"loops_unrolled", "loops replaced by copies of their body"},
                                {"iterations_unrolled", "body copies made"}};
constexpr Statistic kDce[] = {{"nodes_removed", "nodes without users removed"}};

constexpr PassInfo kPasses[] = {
    {"freeze_module", "freeze_module: inline calls, fold attributes (not batch norms)", kFreeze,
     true, false, &freezeModule},
    {"inline_unresolvable_submodules",
     "inline calls freezing left, except LSTM/GRU/RNN/LSTMCell modules", kInline, true, false,
     &inlineUnresolvableSubmodules},
    {"unpack_mobile_contexts",
     "prepacked::*_clamp_run of optimize_for_mobile -> conv2d/conv_transpose2d/linear + clamp on "
     "the context's weights",
     kMobile, true, true, &unpackMobileContexts},
    {"remove_attribute_writes",
     "module attributes forward() assigns: later reads take the value, the write is dropped and "
     "warned about (an NNEF graph keeps no state)",
     kAttributeWrites, true, true, &removeAttributeWrites},
    {"remove_tensor_mutation", "in-place tensor ops to functional ones where provably safe",
     kMutation, true, true, &removeTensorMutation},
    {"remove_view_mutation",
     "writes into slices and indexed writes to functional scatters where alias analysis allows",
     kViews, true, true, &removeViewMutation},
    {"replace_size_calls_with_constants",
     "fold sizes that only feed control flow, from a run on the example inputs", kSizes, true, true,
     &replaceSizeCallsWithConstants},
    {"fold_constant_scalar_arithmetic",
     "evaluate scalar comparisons, casts and arithmetic of constants", kScalars, true, true,
     &foldConstantScalarArithmetic},
    {"fold_constant_ifs", "inline ifs whose condition is a constant", kConstIfs, true, true,
     &foldConstantIfs},
    {"fold_tuple_index_through_tuple_construct", "TupleIndex(TupleConstruct(...), k) -> element",
     kTupleIndex, true, true, &foldTupleIndexThroughTupleConstruct},
    {"fold_tuple_unpack_through_tuple_construct", "TupleUnpack(TupleConstruct(...)) -> elements",
     kTupleUnpack, true, true, &foldTupleUnpackThroughTupleConstruct},
    {"fold_list_indexing",
     "list[k], len(list), list[a:b] of constructs and of unbind/split/chunk -> elements",
     kListReads, true, true, &foldListIndexing},
    {"fold_list_appends", "lists grown by appends in one block -> one construct per state",
     kAppends, true, true, &foldListAppends},
    {"fold_dict_writes", "dicts filled by constant-key writes in one block -> their values", kDicts,
     true, true, &foldDictWrites},
    {"strip_prim_data", "prim::data(t) -> t", kData, true, true, &stripPrimData},
    {"strip_assertion_ifs", "drop input checks whose one branch only raises", kAsserts, true, true,
     &stripAssertionIfs},
    {"select_value_ifs",
     "ifs on tensor data whose small pure branches choose numbers -> where() of both branches",
     kValueIfs, true, true, &selectValueIfs},
    {"fold_data_dependent_ifs", "inline the branch each remaining if takes on the example inputs",
     kDataIfs, true, true, &foldDataDependentIfs},
    {"unroll_loops", "unroll loops whose trip count follows from shapes and constants", kLoops,
     true, true, &unrollLoops},
    {"eliminate_dead_code", "remove nodes without users", kDce, true, false, &eliminateDeadCode},
};
} // namespace

std::span<const PassInfo> passTable() {
    return kPasses;
}

const PassInfo* findPass(std::string_view name) {
    for (const auto& p : kPasses)
        if (p.name == name)
            return &p;
    return nullptr;
}

} // namespace t2n::harden
