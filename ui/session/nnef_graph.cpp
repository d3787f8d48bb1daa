#include "session/nnef_graph.h"

#include "session/graph_adapters.h"

#include <QHash>
#include <QSet>

namespace t2n::ui {

QString nnefNodeKey(int line) {
    return QStringLiteral("nnef:%1").arg(line);
}

GraphData graphFromNnef(const std::string& nnefText, const Provenance& provenance,
                        const ir::Graph& graph) {
    GraphData out;
    const QStringList lines = QString::fromStdString(nnefText).split(QLatin1Char('\n'));
    QHash<QString, int> definedAt; // identifier -> line
    QSet<QString> variables;
    for (const auto& pl : provenance.lines)
        for (const auto& id : pl.identifiers) {
            const QString q = QString::fromStdString(id);
            definedAt.insert(q, pl.line);
            if (pl.op == "variable")
                variables.insert(q);
        }
    for (const auto& pl : provenance.lines) {
        if (pl.op == "variable" || pl.line < 1 || pl.line > lines.size())
            continue;
        const QString text = lines[pl.line - 1].trimmed();
        GraphNode n;
        n.id = nnefNodeKey(pl.line);
        n.kind = QString::fromStdString(pl.op);
        const QString first =
            pl.identifiers.empty() ? QString() : QString::fromStdString(pl.identifiers.front());
        n.label = first.isEmpty() ? n.kind : QStringLiteral("%1\n%2").arg(n.kind, first);
        const bool external = pl.op == "external" || pl.op == "tract_core_external";
        if (external)
            n.kind = QStringLiteral("input");
        n.properties.insert(QStringLiteral("kind"), QString::fromStdString(pl.op));
        if (!first.isEmpty())
            n.properties.insert(QStringLiteral("name"), first);
        if (pl.irNode >= 0 && pl.irNode < static_cast<int>(graph.nodes.size())) {
            const ir::Node& origin = graph.node(pl.irNode);
            if (!origin.where.modulePath.empty())
                n.clusterPath =
                    QString::fromStdString(origin.where.modulePath).split(QLatin1Char('.'));
            addSourceProperties(n, origin);
            // The IR value it writes, when the statement is that value's
            // (a lowering's intermediate has no IR value of its own).
            for (ir::ValueId o : origin.outputs)
                if (QString::fromStdString(graph.value(o).name) == first)
                    n.properties.insert(QStringLiteral("value"), valueText(graph.value(o)));
        }
        n.properties.insert(QStringLiteral("statement"), text);
        n.properties.insert(QStringLiteral("line"), pl.line);
        out.nodes.push_back(n);
        // The engine's operands: every identifier the statement reads.
        for (const auto& id : pl.operands) {
            const QString operand = QString::fromStdString(id);
            if (variables.contains(operand) || !definedAt.contains(operand))
                continue;
            out.edges.push_back({nnefNodeKey(definedAt.value(operand)), n.id, QString()});
        }
    }
    return out;
}

} // namespace t2n::ui
