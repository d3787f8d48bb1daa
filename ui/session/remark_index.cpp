#include "session/remark_index.h"

#include "session/graph_adapters.h"

namespace t2n::ui {

QHash<harden::StableId, QStringList> remarksByNode(const harden::HardenDiagnostics& diag) {
    QHash<harden::StableId, QStringList> out;
    for (const auto& rec : diag.passes)
        for (const auto& r : rec.nodeRemarks)
            out[r.node] << QStringLiteral("%1: %2").arg(QString::fromStdString(rec.name),
                                                        QString::fromStdString(r.text));
    return out;
}

QHash<int, QString> remarkNotesForText(const harden::HardenDiagnostics& diag,
                                       const QHash<harden::StableId, QStringList>& remarks) {
    QHash<int, QString> notes;
    if (remarks.isEmpty())
        return notes;
    // The engine says on which line of the printout each node of the final graph is.
    if (const harden::GraphSnapshot* last = finalSnapshot(diag))
        for (const auto& n : last->nodes)
            if (n.line > 0 && remarks.contains(n.id))
                notes.insert(n.line, remarks.value(n.id).join(QStringLiteral("; ")));
    return notes;
}

int badgeRemarks(GraphData& data, const ir::Graph& graph,
                 const QHash<harden::StableId, QStringList>& remarks) {
    if (remarks.isEmpty())
        return 0;
    const QHash<QString, int> index = data.indexById();
    int badged = 0;
    for (const ir::Node& n : graph.nodes) {
        if (n.torchNode < 0 || !remarks.contains(n.torchNode))
            continue;
        const auto it = index.constFind(irNodeKey(n.id));
        if (it == index.constEnd())
            continue;
        GraphNode& g = data.nodes[*it];
        const QStringList& texts = remarks[n.torchNode];
        g.badge = texts.first().section(QStringLiteral(": "), 1).left(40);
        g.properties.insert(QStringLiteral("remarks"), texts.join(QLatin1Char('\n')));
        ++badged;
    }
    return badged;
}

} // namespace t2n::ui
