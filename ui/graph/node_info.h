#pragma once
// What a person asks about a node on a graph, in plain words: its kind, the
// value it makes (name, dtype and shape), its module and its source line. The
// tooltip is the short form, "Copy node info" the long one. Read from the
// node's properties, which the adapters fill with the same keys for every
// graph: "kind", "name", "value", "module path", "source" (FILE:LINE),
// "source text" (the statement there).
#include "graph/graph_data.h"

namespace t2n::ui {

/// A few lines: kind, name and value, module, source line (only those known).
QString nodeToolTip(const GraphNode& node);
/// The tooltip's lines, then the id and every other property, one per line.
QString nodeInfoText(const GraphNode& node);
/// "model.py:42: x = self.conv1(x)", "model.py:42", or "" when none was recorded.
QString nodeSourceLine(const GraphNode& node);

} // namespace t2n::ui
