// Runs the suite named by argv[1] of allSuites() (or lists them), with the
// remaining arguments passed to QTest. Both test binaries use it after they
// have created their application object.
#pragma once

namespace t2n::test {

int runSuite(int argc, char** argv);

} // namespace t2n::test
