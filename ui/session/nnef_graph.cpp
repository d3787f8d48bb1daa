#include "session/nnef_graph.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

namespace t2n::ui {

QString nnefNodeKey(int line) {
    return QStringLiteral("nnef:%1").arg(line);
}

namespace {
/// Identifiers a body line reads, in order: names in its arguments that some
/// line defines (keyword names and quoted strings are skipped).
QStringList nnefOperands(const QString& line, const QSet<QString>& defined) {
    // The right-hand side after the operation's "(": "conv(x, w, stride = [2, 2])".
    const int eq = line.indexOf(QLatin1Char('='));
    const int open = line.indexOf(QLatin1Char('('), eq < 0 ? 0 : eq);
    if (open < 0)
        return {};
    QString args = line.mid(open + 1);
    static const QRegularExpression quoted(QStringLiteral("\"[^\"]*\"|'[^']*'"));
    args.replace(quoted, QStringLiteral("''"));
    static const QRegularExpression name(QStringLiteral("\\b([A-Za-z_][A-Za-z0-9_]*)\\b(\\s*=)?"));
    QStringList out;
    for (auto it = name.globalMatch(args); it.hasNext();) {
        const auto m = it.next();
        const QString id = m.captured(1);
        if (!m.captured(2).isEmpty() || !defined.contains(id) || out.contains(id))
            continue; // a keyword name, a literal such as true, or seen already
        out << id;
    }
    return out;
}
} // namespace

GraphData graphFromNnef(const std::string& nnefText, const Provenance& provenance,
                        const ir::Graph& graph) {
    GraphData out;
    const QStringList lines = QString::fromStdString(nnefText).split(QLatin1Char('\n'));
    QHash<QString, int> definedAt; // identifier -> line
    QSet<QString> variables, defined;
    for (const auto& pl : provenance.lines)
        for (const auto& id : pl.identifiers) {
            const QString q = QString::fromStdString(id);
            definedAt.insert(q, pl.line);
            defined.insert(q);
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
        if (pl.irNode >= 0 && pl.irNode < static_cast<int>(graph.nodes.size())) {
            const std::string& path = graph.node(pl.irNode).where.modulePath;
            if (!path.empty())
                n.clusterPath = QString::fromStdString(path).split(QLatin1Char('.'));
        }
        n.properties.insert(QStringLiteral("kind"), QString::fromStdString(pl.op));
        n.properties.insert(QStringLiteral("statement"), text);
        n.properties.insert(QStringLiteral("line"), pl.line);
        out.nodes.push_back(n);
        for (const QString& operand : nnefOperands(text, defined)) {
            if (variables.contains(operand))
                continue;
            out.edges.push_back({nnefNodeKey(definedAt.value(operand)), n.id, QString()});
        }
    }
    return out;
}

} // namespace t2n::ui
