#include "session/remark_index.h"

#include "session/graph_adapters.h"

#include <QRegularExpression>

#include <unordered_map>

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
                                       const QHash<harden::StableId, QStringList>& remarks,
                                       const std::string& hardenedText) {
    QHash<int, QString> notes;
    if (remarks.isEmpty())
        return notes;
    const harden::GraphSnapshot* last = finalSnapshot(diag);
    if (!last)
        return notes;
    std::unordered_map<std::string, harden::StableId> byOutput;
    for (const auto& n : last->nodes)
        if (!n.outputs.empty() && remarks.contains(n.id))
            byOutput.emplace(n.outputs.front(), n.id);
    // Nodes without outputs (prim::RaiseException) are not matched: their
    // remarks stay in the pass list and the history.
    const QHash<QString, int> lines = definingLines(hardenedText);
    for (auto it = lines.begin(); it != lines.end(); ++it)
        if (const auto node = byOutput.find(it.key().toStdString()); node != byOutput.end())
            notes.insert(it.value(), remarks.value(node->second).join(QStringLiteral("; ")));
    return notes;
}

QHash<QString, int> definingLines(const std::string& torchScriptText) {
    static const QRegularExpression lhs(QStringLiteral("^\\s+%([\\w.]+)\\s*[:,]"));
    QHash<QString, int> out;
    const QStringList lines = QString::fromStdString(torchScriptText).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (const auto m = lhs.match(lines[i]); m.hasMatch())
            out.insert(m.captured(1), i + 1);
    return out;
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
