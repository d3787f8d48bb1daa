#include "session/graph_adapters.h"

#include "session/report_models.h"

#include "t2n/dtype.h"

#include <algorithm>

namespace t2n::ui {

namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString valueText(const ir::Value& v) {
    if (v.kind != ir::ValueKind::Tensor)
        return QString::fromUtf8(ir::valueKindName(v.kind).data());
    const auto dt = dtypeName(v.dtype);
    return QStringLiteral("%1[%2]").arg(
        QString::fromLatin1(dt.data(), static_cast<qsizetype>(dt.size())), shapeText(v.shape));
}

/// "aten::conv2d" -> "conv2d": the namespace is noise on a node box.
QString shortKind(const std::string& kind) {
    const auto pos = kind.rfind("::");
    return qs(pos == std::string::npos ? kind : kind.substr(pos + 2));
}
} // namespace

QString irNodeKey(ir::NodeId id) {
    return QStringLiteral("ir:%1").arg(id);
}

GraphData graphFromIr(const ir::Graph& g) {
    GraphData out;
    for (ir::ValueId in : g.inputs) {
        const ir::Value& v = g.value(in);
        GraphNode n;
        n.id = QStringLiteral("input:%1").arg(qs(v.name.empty() ? v.debugName : v.name));
        n.label =
            QStringLiteral("%1\n%2").arg(qs(v.name.empty() ? v.debugName : v.name), valueText(v));
        n.kind = QStringLiteral("input");
        n.properties.insert(QStringLiteral("value"), valueText(v));
        out.nodes.push_back(n);
    }
    for (const ir::Node& node : g.nodes) {
        if (node.folded)
            continue;
        GraphNode n;
        n.id = irNodeKey(node.id);
        n.kind = qs(node.kind);
        n.label = shortKind(node.kind);
        if (!node.outputs.empty())
            n.label += QLatin1Char('\n') + valueText(g.value(node.outputs.front()));
        if (!node.where.modulePath.empty())
            n.clusterPath = qs(node.where.modulePath).split(QLatin1Char('.'));
        n.properties.insert(QStringLiteral("kind"), n.kind);
        n.properties.insert(QStringLiteral("module path"), qs(node.where.modulePath));
        if (node.where.sourceLine > 0)
            n.properties.insert(
                QStringLiteral("source"),
                QStringLiteral("%1:%2").arg(qs(node.where.sourceFile)).arg(node.where.sourceLine));
        QStringList outs;
        for (ir::ValueId o : node.outputs)
            outs << QStringLiteral("%%1: %2").arg(qs(g.value(o).debugName), valueText(g.value(o)));
        n.properties.insert(QStringLiteral("outputs"), outs.join(QLatin1Char('\n')));
        out.nodes.push_back(n);
        for (ir::ValueId in : node.inputs) {
            const ir::Value& v = g.value(in);
            QString from;
            if (v.producer >= 0) {
                if (g.node(v.producer).folded)
                    continue; // a constant: shown in the node's properties, not as a box
                from = irNodeKey(v.producer);
            } else if (std::find(g.inputs.begin(), g.inputs.end(), in) != g.inputs.end()) {
                from = QStringLiteral("input:%1").arg(qs(v.name.empty() ? v.debugName : v.name));
            } else {
                continue; // a parameter or other known value
            }
            out.edges.push_back(
                {from, n.id, v.kind == ir::ValueKind::Tensor ? shapeText(v.shape) : QString()});
        }
    }
    return out;
}

} // namespace t2n::ui
