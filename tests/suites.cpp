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
    X(export_errors, ExportErrorsTest)                                                             \
    X(harden_folds, HardenFoldsTest)                                                               \
    X(harden_ifs, HardenIfsTest)                                                                   \
    X(harden_chain, HardenChainTest)                                                               \
    X(nnef_reader, NnefReaderTest)                                                                 \
    X(structure_check, StructureCheckTest)                                                         \
    X(interpreter, InterpreterTest)                                                                \
    X(interpreter_ops, InterpreterOpsTest)                                                         \
    X(interpreter_nn, InterpreterNnTest)                                                           \
    X(interpreter_fixtures, InterpreterFixturesTest)                                               \
    X(check_mutations, CheckMutationsTest)                                                         \
    X(quantized, QuantizedTest)                                                                    \
    X(compare, CompareTest)                                                                        \
    X(npz, NpzTest)                                                                                \
    X(tract_cli, TractCliTest)                                                                     \
    X(debug_bundle, DebugBundleTest)                                                               \
    X(cli, CliTest)                                                                                \
    X(node_identity, NodeIdentityTest)                                                             \
    X(semantic_bisect, SemanticBisectTest)                                                         \
    X(recipe, RecipeTest)                                                                          \
    X(cancel_progress, CancelProgressTest)                                                         \
    X(provenance, ProvenanceTest)                                                                  \
    X(variable_stats, VariableStatsTest)                                                           \
    X(example_values, ExampleValuesTest)                                                           \
    X(recurrent_scan, RecurrentScanTest)                                                           \
    X(khronos_target, KhronosTargetTest)                                                           \
    X(nonfinite_constants, NonFiniteConstantsTest)                                                 \
    X(dropout_identity, DropoutIdentityTest)                                                       \
    X(input_values, InputValuesTest)

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
