// t2n's IR drawn as SVG by Graphviz itself (dot layout, Graphviz's own SVG
// renderer): the graph of the one-file HTML report. No Qt: `t2n` writes the
// report too, and the command line depends on the engine, not on Qt (the
// studio's canvases draw the same layout with Qt, see ui/graph/).
#pragma once

#include "t2n/ir.h"

#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace t2n::report {

/// Graphviz is not thread-safe: every caller in the process (this file and
/// the studio's layout thread, ui/graph/dot_runner.cpp) holds this lock
/// while it runs Graphviz, with the one context below.
std::mutex& graphvizMutex();
/// The process's Graphviz context (GVC_t*), made on first use and kept for
/// the process: one context, as Graphviz's plugins and globals expect.
void* graphvizContext();

/// `text` for HTML or SVG markup: & < > " written as entities.
std::string escapeMarkup(std::string_view text);

/// How a node is marked on the drawing.
enum class Mark { Failed, Frozen };

struct IrDrawing {
    std::string svg;  ///< one <svg> element, for inline use in HTML ("" when nothing drawn)
    std::string note; ///< what was left out and why ("" when the whole graph is drawn)
    int drawn = 0, total = 0;
};

/// Draws the IR's computing nodes (folded constants left out, as in the
/// studio), graph inputs, and module paths as clusters. Boxes carry the
/// element ids "ir-ID" (node ID) and "input-I" (graph input I) for links.
/// `marked` boxes (node ids, and -1 - I for graph input I) are filled red
/// (failed) or orange (a frozen size). A graph of more than `most` nodes is
/// drawn around the marked ones only (those within a few steps of one), or
/// not at all when none is marked. Hovering a box shows what it is (kind,
/// value, module path, source line and statement).
IrDrawing drawIr(const ir::Graph& graph, const std::map<int, Mark>& marked, int most = 400);

} // namespace t2n::report
