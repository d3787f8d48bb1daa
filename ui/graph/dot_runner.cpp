#include "graph/dot_runner.h"

#include "report/ir_graph_svg.h"

#include <QByteArray>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace t2n::ui {

namespace {

// One lock and one context with the HTML report's drawings (report/ir_graph_svg.h).
GVC_t* context() {
    return static_cast<GVC_t*>(report::graphvizContext());
}

char* c(const char* text) {
    return const_cast<char*>(text);
}

Agsym_t* declare(Agraph_t* g, int kind, const char* name, const char* fallback) {
    return agattr(g, kind, c(name), c(fallback));
}

QByteArray inches(double points) {
    return QByteArray::number(points / 72.0, 'f', 4);
}

} // namespace

DotBlock runDot(const QVector<QSizeF>& sizes, const QVector<QPair<int, int>>& edges) {
    DotBlock block;
    block.centers.resize(sizes.size());
    block.splines.resize(edges.size());
    block.size = QSizeF(0, 0);
    if (sizes.isEmpty())
        return block;

    std::lock_guard<std::mutex> lock(report::graphvizMutex());
    Agraph_t* g = agopen(c("block"), Agdirected, nullptr);
    declare(g, AGRAPH, "rankdir", "TB");
    declare(g, AGRAPH, "nodesep", "0.25");
    declare(g, AGRAPH, "ranksep", "0.35");
    declare(g, AGNODE, "shape", "box");
    declare(g, AGNODE, "fixedsize", "true");
    declare(g, AGNODE, "label", "");
    Agsym_t* width = declare(g, AGNODE, "width", "0.75");
    Agsym_t* height = declare(g, AGNODE, "height", "0.5");

    QVector<Agnode_t*> nodes(sizes.size());
    for (int i = 0; i < sizes.size(); ++i) {
        const QByteArray name = "n" + QByteArray::number(i);
        nodes[i] = agnode(g, c(name.constData()), 1);
        agxset(nodes[i], width, c(inches(sizes[i].width()).constData()));
        agxset(nodes[i], height, c(inches(sizes[i].height()).constData()));
    }
    QVector<Agedge_t*> arcs(edges.size());
    for (int i = 0; i < edges.size(); ++i)
        arcs[i] = agedge(g, nodes[edges[i].first], nodes[edges[i].second], nullptr, 1);

    gvLayout(context(), g, "dot");
    const boxf bb = GD_bb(g);
    auto local = [&bb](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
    block.size = QSizeF(bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    for (int i = 0; i < nodes.size(); ++i)
        block.centers[i] = local(ND_coord(nodes[i]));
    for (int i = 0; i < arcs.size(); ++i) {
        const splines* spl = ED_spl(arcs[i]);
        if (!spl || spl->size == 0)
            continue;
        const bezier& bz = spl->list[0];
        DotSpline& out = block.splines[i];
        out.points.reserve(bz.size);
        for (int k = 0; k < bz.size; ++k)
            out.points.append(local(bz.list[k]));
        out.arrowTip = bz.eflag ? local(bz.ep) : out.points.last();
    }
    gvFreeLayout(context(), g);
    agclose(g);
    return block;
}

} // namespace t2n::ui
