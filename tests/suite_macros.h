#pragma once

#include <QObject>

/// Defines the factory that suites.cpp lists for the Qt Test class `cls`.
#define T2N_TEST_SUITE(cls)                                                                        \
    namespace t2n::test {                                                                          \
    QObject* make_##cls() {                                                                        \
        return new cls;                                                                            \
    }                                                                                              \
    }
