// One test binary, many Qt Test suites: `t2n_tests SUITE [QTest args]`.
// CTest registers one test per suite (tests/CMakeLists.txt), so the binary
// count (and link time against LibTorch) stays low.
#include "suite_runner.h"

#include <QCoreApplication>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    return t2n::test::runSuite(argc, argv);
}
