// The suites of t2n_ui_tests. Each suite file defines its factory with
// T2N_TEST_SUITE (suite_macros.h); each area lists its suites in its own
// <area>/suites.inc as `X(name, Class)` lines, so areas never share a list.
#include "suites.h"

namespace t2n::test {

#define X(name, cls) QObject* make_##cls();
#include "graph/suites.inc"
#include "studio/suites.inc"
#include "text/suites.inc"
#undef X

const std::vector<Suite>& allSuites() {
    static const std::vector<Suite> suites{
#define X(name, cls) Suite{#name, &make_##cls},
#include "graph/suites.inc"
#include "studio/suites.inc"
#include "text/suites.inc"
#undef X
    };
    return suites;
}

} // namespace t2n::test
