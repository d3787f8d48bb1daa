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
    X(cli, CliTest)

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
