// The studio's test binary: `t2n_ui_tests SUITE [QTest args]`, with a
// QApplication (widgets need one); offscreen under CTest.
#include "suite_runner.h"

#include <QApplication>
#include <QStandardPaths>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    // Settings (recent models, remembered inputs) go to a test location,
    // never into the user's own studio settings.
    QStandardPaths::setTestModeEnabled(true);
    return t2n::test::runSuite(argc, argv);
}
