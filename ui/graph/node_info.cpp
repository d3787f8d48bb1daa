#include "graph/node_info.h"

#include "graph/graph_search.h"

namespace t2n::ui {

namespace {
QString property(const GraphNode& node, const char* key) {
    return node.properties.value(QString::fromLatin1(key)).toString().trimmed();
}

/// A tooltip is read at a glance: long statements are cut.
QString clipped(const QString& text, int length = 90) {
    return text.size() <= length ? text : text.left(length - 1) + QChar(0x2026);
}

/// The facts in the order they are asked for; `clip` shortens the long ones.
QStringList facts(const GraphNode& node, bool clip) {
    QStringList lines;
    const QString kind = property(node, "kind");
    lines << (kind.isEmpty() ? node.kind : kind);
    const QString name = property(node, "name"), value = property(node, "value");
    if (!name.isEmpty() || !value.isEmpty())
        lines << (name.isEmpty()    ? value
                  : value.isEmpty() ? name
                                    : QStringLiteral("%1: %2").arg(name, value));
    if (const QString path = modulePathOf(node); !path.isEmpty())
        lines << QObject::tr("module %1").arg(path);
    if (const QString source = nodeSourceLine(node); !source.isEmpty())
        lines << QObject::tr("source %1").arg(clip ? clipped(source) : source);
    if (const QString nnef = property(node, "statement"); !nnef.isEmpty())
        lines << QObject::tr("NNEF %1").arg(clip ? clipped(nnef) : nnef);
    if (!node.badge.isEmpty())
        lines << QObject::tr("note: %1").arg(node.badge);
    return lines;
}
} // namespace

QString nodeSourceLine(const GraphNode& node) {
    const QString where = property(node, "source"), text = property(node, "source text");
    if (where.isEmpty())
        return text;
    return text.isEmpty() ? where : QStringLiteral("%1: %2").arg(where, text);
}

QString nodeToolTip(const GraphNode& node) {
    return facts(node, true).join(QLatin1Char('\n'));
}

QString nodeInfoText(const GraphNode& node) {
    QStringList lines = facts(node, false);
    lines << QObject::tr("id %1").arg(node.id);
    static const QStringList shown{QStringLiteral("kind"),        QStringLiteral("name"),
                                   QStringLiteral("value"),       QStringLiteral("source"),
                                   QStringLiteral("source text"), QStringLiteral("statement"),
                                   QStringLiteral("module path")};
    for (auto it = node.properties.begin(); it != node.properties.end(); ++it) {
        const QString value = it.value().toString().trimmed();
        if (!shown.contains(it.key()) && !value.isEmpty())
            lines << QStringLiteral("%1: %2").arg(it.key(), value);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace t2n::ui
