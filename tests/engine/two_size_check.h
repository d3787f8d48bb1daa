// The verdict of a check that ran an archive at the example size and at a
// second size of its symbols (tst_symbolic_sizes.cpp,
// tst_modern_architectures.cpp).
#pragma once

#include "t2n/report.h"

#include <QString>
#include <QStringList>

namespace t2n::test {

/// What keeps a check from showing that every output matched at the example
/// size and, when `dynamic`, at the second size of the symbols too: each
/// output beyond tolerance, and numbers of outputs compared at each size
/// that differ (empty: none). The suites of symbolic sizes use it.
inline QStringList twoSizeProblems(const t2n::CheckReport& c, bool dynamic = true) {
    if (!c.ran)
        return {"the check did not run"};
    int resized = 0, plain = 0;
    QStringList bad;
    for (const auto& out : c.outputs) {
        (out.name.find(" @ ") != std::string::npos ? resized : plain) += 1;
        if (!out.ok)
            bad << QString("%1: max abs error %2 %3")
                       .arg(QString::fromStdString(out.name))
                       .arg(out.maxAbsError)
                       .arg(QString::fromStdString(out.note));
    }
    if (plain == 0 || (dynamic && resized != plain))
        bad << QString("%1 output(s) compared at the example size, %2 at the second")
                   .arg(plain)
                   .arg(resized);
    return bad;
}

} // namespace t2n::test
