// The studio's test binary: `t2n_ui_tests SUITE [QTest args]`, with a
// QApplication (widgets need one); offscreen under CTest.
#include "suite_runner.h"

#include <QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    return t2n::test::runSuite(argc, argv);
}
