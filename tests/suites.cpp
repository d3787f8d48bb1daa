#include "suites.h"

// Each suite file defines its factory with T2N_TEST_SUITE (suite_macros.h).
#define T2N_SUITES(X)                                                                              \
    X(dtype_and_specs, DTypeAndSpecsTest)                                                          \
    X(dat_writer, DatWriterTest)                                                                   \
    X(artifact, ArtifactTest)                                                                      \
    X(archive_writer, ArchiveWriterTest)                                                           \
    X(nnef_printer, NnefPrinterTest)                                                               \
    X(export_fixtures, ExportFixturesTest)                                                         \
    X(naming, NamingTest)                                                                          \
    X(export_options, ExportOptionsTest)                                                           \
    X(f16_graphs, F16GraphsTest)                                                                   \
    X(export_errors, ExportErrorsTest)                                                             \
    X(frozen_sizes, FrozenSizesTest)                                                               \
    X(harden_eliminate_dead_code, EliminateDeadCodeTest)                                           \
    X(harden_fold_constant_ifs, FoldConstantIfsTest)                                               \
    X(harden_fold_dict_writes, FoldDictWritesTest)                                                 \
    X(harden_fold_constant_scalar_arithmetic, FoldConstantScalarArithmeticTest)                    \
    X(harden_fold_data_dependent_ifs, FoldDataDependentIfsTest)                                    \
    X(harden_select_value_ifs, SelectValueIfsTest)                                                 \
    X(harden_fold_tuple_index_through_tuple_construct, FoldTupleIndexThroughTupleConstructTest)    \
    X(harden_fold_tuple_unpack_through_tuple_construct, FoldTupleUnpackThroughTupleConstructTest)  \
    X(harden_freeze_module, FreezeModuleTest)                                                      \
    X(harden_inline_unresolvable_submodules, InlineUnresolvableSubmodulesTest)                     \
    X(harden_remove_attribute_writes, RemoveAttributeWritesTest)                                   \
    X(harden_remove_tensor_mutation, RemoveTensorMutationTest)                                     \
    X(harden_replace_size_calls_with_constants, ReplaceSizeCallsWithConstantsTest)                 \
    X(harden_strip_assertion_ifs, StripAssertionIfsTest)                                           \
    X(harden_strip_prim_data, StripPrimDataTest)                                                   \
    X(harden_unpack_mobile_contexts, UnpackMobileContextsTest)                                     \
    X(harden_chain, HardenChainTest)                                                               \
    X(harden_loops, HardenLoopsTest)                                                               \
    X(harden_writes, HardenWritesTest)                                                             \
    X(harden_lists, HardenListsTest)                                                               \
    X(nnef_reader, NnefReaderTest)                                                                 \
    X(structure_check, StructureCheckTest)                                                         \
    X(interpreter, InterpreterTest)                                                                \
    X(interpreter_ops, InterpreterOpsTest)                                                         \
    X(interpreter_tract_rules, InterpreterTractRulesTest)                                          \
    X(interpreter_nn, InterpreterNnTest)                                                           \
    X(interpreter_fixtures, InterpreterFixturesTest)                                               \
    X(check_mutations, CheckMutationsTest)                                                         \
    X(quantized, QuantizedTest)                                                                    \
    X(compare, CompareTest)                                                                        \
    X(npz, NpzTest)                                                                                \
    X(tensor_store, TensorStoreTest)                                                               \
    X(weights_q4_0, WeightsQ4_0Test)                                                               \
    X(tract_cli, TractCliTest)                                                                     \
    X(debug_bundle, DebugBundleTest)                                                               \
    X(cli, CliTest)                                                                                \
    X(report_html, ReportHtmlTest)                                                                 \
    X(bad_inputs, BadInputsTest)                                                                   \
    X(write_protocol, WriteProtocolTest)                                                           \
    X(node_identity, NodeIdentityTest)                                                             \
    X(semantic_bisect, SemanticBisectTest)                                                         \
    X(option_table, OptionTableTest)                                                               \
    X(recipe, RecipeTest)                                                                          \
    X(cancel_progress, CancelProgressTest)                                                         \
    X(provenance, ProvenanceTest)                                                                  \
    X(variable_stats, VariableStatsTest)                                                           \
    X(example_values, ExampleValuesTest)                                                           \
    X(input_proposal, InputProposalTest)                                                           \
    X(recurrent_scan, RecurrentScanTest)                                                           \
    X(modern_architectures, ModernArchitecturesTest)                                               \
    X(symbolic_sizes, SymbolicSizesTest)                                                           \
    X(second_sizes, SecondSizesTest)                                                               \
    X(khronos_target, KhronosTargetTest)                                                           \
    X(nonfinite_constants, NonFiniteConstantsTest)                                                 \
    X(dropout_identity, DropoutIdentityTest)                                                       \
    X(input_values, InputValuesTest)                                                               \
    X(translate_activation, TranslateActivationTest)                                               \
    X(translate_conv, TranslateConvTest)                                                           \
    X(translate_elementwise, TranslateElementwiseTest)                                             \
    X(translate_lists, TranslateListsTest)                                                         \
    X(translate_matmul, TranslateMatmulTest)                                                       \
    X(translate_norm, TranslateNormTest)                                                           \
    X(translate_pad, TranslatePadTest)                                                             \
    X(translate_pool, TranslatePoolTest)                                                           \
    X(translate_reduce, TranslateReduceTest)                                                       \
    X(translate_shape, TranslateShapeTest)                                                         \
    X(translate_sort, TranslateSortTest)                                                           \
    X(translate_scatter, TranslateScatterTest)                                                     \
    X(translate_special_values, TranslateSpecialValuesTest)                                        \
    X(translate_diagonal, TranslateDiagonalTest)                                                   \
    X(translate_factories, TranslateFactoriesTest)                                                 \
    X(translate_distance, TranslateDistanceTest)                                                   \
    X(translate_loss, TranslateLossTest)                                                           \
    X(translate_special_functions, TranslateSpecialFunctionsTest)                                  \
    X(translate_windows, TranslateWindowsTest)                                                     \
    X(translate_spectral, TranslateSpectralTest)                                                   \
    X(translate_grids, TranslateGridsTest)                                                         \
    X(translate_matrix_norm, TranslateMatrixNormTest)                                              \
    X(translate_linalg, TranslateLinalgTest)                                                       \
    X(translate_stats, TranslateStatsTest)                                                         \
    X(translate_binary_math, TranslateBinaryMathTest)                                              \
    X(translate_layout, TranslateLayoutTest)                                                       \
    X(translate_math, TranslateMathTest)                                                           \
    X(translate_writes, TranslateWritesTest)                                                       \
    X(translate_scan, TranslateScanTest)                                                           \
    X(translate_grid_sample, TranslateGridSampleTest)                                              \
    X(translate_recurrent, TranslateRecurrentTest)                                                 \
    X(translate_random, TranslateRandomTest)                                                       \
    X(translate_samplers, TranslateSamplersTest)                                                   \
    X(translate_advanced_index, TranslateAdvancedIndexTest)                                        \
    X(translate_rnn, TranslateRnnTest)                                                             \
    X(translate_attention, TranslateAttentionTest)                                                 \
    X(translate_transformer, TranslateTransformerTest)                                             \
    X(translate_quantized, TranslateQuantizedTest)                                                 \
    X(memory, MemoryTest)                                                                          \
    X(realworld_patterns, RealworldPatternsTest)                                                   \
    X(realworld_files, RealworldFilesTest)                                                         \
    X(realworld_table, RealworldTableTest)

namespace t2n::test {

#define T2N_DECLARE(name, cls) QObject* make_##cls();
T2N_SUITES(T2N_DECLARE)
#undef T2N_DECLARE

const std::vector<Suite>& allSuites() {
#define T2N_ENTRY(name, cls) Suite{#name, &make_##cls},
    static const std::vector<Suite> suites{T2N_SUITES(T2N_ENTRY)};
#undef T2N_ENTRY
    return suites;
}

} // namespace t2n::test
