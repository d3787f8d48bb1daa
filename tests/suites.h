// The explicit list of test suites of t2n_tests (see suites.cpp).
#pragma once

#include <QObject>

#include <vector>

namespace t2n::test {

struct Suite {
    const char* name;
    QObject* (*make)();
};
const std::vector<Suite>& allSuites();

} // namespace t2n::test
