// Helpers of the suites that export fixtures with the check and read the
// figures (tst_export_options.cpp, tst_f16_graphs.cpp).
#pragma once

#include "support.h"
#include "t2n/report.h"
#include "t2n/session.h"

#include <QString>

#include <algorithm>
#include <filesystem>

namespace t2n::test {

struct CheckedExport {
    QString nnef;
    t2n::ExportReport report;
    std::filesystem::path artifact;
};

/// The whole export of a fixture with its check (the archive run by the
/// reference interpreter against the TorchScript model) into `artifact`.
inline CheckedExport exportWithCheck(const QString& fixture, const t2n::ExportOptions& o,
                                     const std::filesystem::path& artifact) {
    t2n::Session s;
    s.load(fixtureModel(fixture));
    auto report = s.exportModel(artifact, o);
    return {QString::fromStdString(s.nnefText()), report, artifact};
}

/// The largest |archive - model| over the check's outputs (-1 when no check ran).
inline double maxAbsError(const t2n::ExportReport& r) {
    double worst = r.check.ran ? 0.0 : -1.0;
    for (const auto& out : r.check.outputs)
        worst = std::max(worst, out.maxAbsError);
    return worst;
}

/// Why a check failed (or that it passed), with its figures, for messages.
inline QString checkVerdict(const t2n::ExportReport& r) {
    QString v = r.check.passed ? QStringLiteral("passed") : QStringLiteral("failed");
    for (const auto& p : r.check.structureProblems)
        v += QStringLiteral("; ") + QString::fromStdString(p);
    for (const auto& out : r.check.outputs)
        v += QStringLiteral("; %1: max |error| %2, %3 mismatches %4")
                 .arg(QString::fromStdString(out.name))
                 .arg(out.maxAbsError)
                 .arg(out.mismatches)
                 .arg(QString::fromStdString(out.note));
    if (r.check.diverged)
        v += QStringLiteral("; first divergence at ") +
             QString::fromStdString(r.check.divergence.operation + " " + r.check.divergence.detail);
    return v;
}

} // namespace t2n::test
