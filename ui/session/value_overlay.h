// The check's per-value errors (ExportOptions::checkEveryValue) on the IR
// graph: each IR node gets the worst error among the NNEF values its lines
// define, and a colour on a log scale, so a person sees where precision goes
// rather than reading a table. Model Explorer's "node data providers" do this
// for data a user brings; here the data comes from the check itself.
#pragma once

#include "t2n/provenance.h"
#include "t2n/report.h"

#include <QColor>
#include <QHash>
#include <QString>

namespace t2n::ui {

struct NodeError {
    double relative = 0; ///< the worst value's max |nnef - torch| / max |torch|
    double maxAbs = 0;
    bool ok = true;     ///< every value of the node within the check's tolerance
    QString identifier; ///< the worst value's NNEF identifier
};

/// By graphFromIr node id; nodes without a compared value are absent.
QHash<QString, NodeError> nodeErrors(const CheckReport& check, const Provenance& provenance);

/// Green at exact, through yellow around 1e-5 relative, to orange; red when
/// out of tolerance whatever the figure.
QColor errorColor(const NodeError& e);

QHash<QString, QColor> errorOverlay(const QHash<QString, NodeError>& errors);

/// "max abs 3.1e-07, relative 2.0e-08 (conv1__convolution)".
QString describeError(const NodeError& e);

} // namespace t2n::ui
