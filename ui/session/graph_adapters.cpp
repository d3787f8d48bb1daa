#include "session/graph_adapters.h"
#include "session/qt_text.h"

#include "session/report_models.h"

#include "t2n/dtype.h"

#include <QSet>

#include <algorithm>
#include <map>

namespace t2n::ui {

QString valueText(const ir::Value& v) {
    if (v.kind != ir::ValueKind::Tensor)
        return QString::fromUtf8(ir::valueKindName(v.kind).data());
    const auto dt = dtypeName(v.dtype);
    return QStringLiteral("%1[%2]").arg(
        QString::fromLatin1(dt.data(), static_cast<qsizetype>(dt.size())), shapeText(v.shape));
}

void addSourceProperties(GraphNode& node, const ir::Node& from) {
    if (from.where.sourceLine > 0)
        node.properties.insert(
            QStringLiteral("source"),
            QStringLiteral("%1:%2").arg(qs(from.where.sourceFile)).arg(from.where.sourceLine));
    if (!from.where.sourceText.empty())
        node.properties.insert(QStringLiteral("source text"), qs(from.where.sourceText).trimmed());
}

namespace {
/// "aten::conv2d" -> "conv2d": the namespace is noise on a node box.
QString shortKind(const std::string& kind) {
    const auto pos = kind.rfind("::");
    return qs(pos == std::string::npos ? kind : kind.substr(pos + 2));
}
/// The bracketed attributes after the node's kind ("value=[1, 1]",
/// "name=\"weight\""), or "" when it has none.
QString ownAttributes(const harden::SnapshotNode& n) {
    const auto at = n.text.find(n.kind + "[");
    if (at == std::string::npos)
        return {};
    const size_t open = at + n.kind.size();
    int depth = 0;
    for (size_t i = open; i < n.text.size(); ++i) {
        depth += n.text[i] == '[' ? 1 : n.text[i] == ']' ? -1 : 0;
        if (depth == 0)
            return qs(n.text.substr(open + 1, i - open - 1));
    }
    return qs(n.text.substr(open + 1));
}

/// "Float(1, 3, strides=[...], requires_grad=0, device=cpu)" -> {"Float", "1, 3"}:
/// strides and devices are not what a person means by a changed type.
std::pair<QString, QString> dtypeAndShape(const std::string& type) {
    const QString t = qs(type);
    const qsizetype open = t.indexOf(QLatin1Char('('));
    if (open < 0 || !t.endsWith(QLatin1Char(')')))
        return {t, QString()};
    QStringList dims;
    for (const QString& part : t.mid(open + 1, t.size() - open - 2).split(QStringLiteral(", "))) {
        if (part.contains(QLatin1Char('=')))
            break; // strides=[...], requires_grad=..., device=... follow the sizes
        dims << part;
    }
    return {t.left(open), dims.join(QStringLiteral(", "))};
}

/// The facets a pass step compares (GraphNode::facets). Constants are not
/// drawn, so the values they feed a node count as its attributes: a stride
/// or an axis a pass changes shows as a modified node.
QMap<QString, QString> snapshotFacets(const harden::SnapshotNode& n,
                                      const std::map<std::string, QString>& constants) {
    QStringList attrs;
    if (const QString own = ownAttributes(n); !own.isEmpty())
        attrs << own;
    for (const auto& in : n.inputs) {
        const auto it = constants.find(in);
        attrs << (it == constants.end() ? QStringLiteral("_") : it->second);
    }
    QStringList dtypes;
    QStringList shapes;
    for (const auto& type : n.outputTypes) {
        const auto [dtype, shape] = dtypeAndShape(type);
        dtypes << dtype;
        shapes << shape;
    }
    return {{QStringLiteral("kind"), qs(n.kind)},
            {QStringLiteral("attributes"), attrs.join(QStringLiteral("; "))},
            {QStringLiteral("dtype"), dtypes.join(QStringLiteral("; "))},
            {QStringLiteral("shape"), shapes.join(QStringLiteral("; "))}};
}
} // namespace

/// Known at export time, yet different at the second shape probe: the archive
/// computes it from the symbol (arange(S), a causal mask), so it is drawn.
bool followsSymbol(const ir::Graph& g, const ir::Node& node) {
    return node.folded && std::any_of(node.outputs.begin(), node.outputs.end(),
                                      [&g](ir::ValueId o) { return g.value(o).varies; });
}

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
        n.properties.insert(QStringLiteral("name"), qs(v.name.empty() ? v.debugName : v.name));
        n.properties.insert(QStringLiteral("value"), valueText(v));
        out.nodes.push_back(n);
    }
    for (const ir::Node& node : g.nodes) {
        // Known values are not drawn, except those that follow a symbolic
        // axis: the archive computes them in the graph.
        if (node.folded && !followsSymbol(g, node))
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
        addSourceProperties(n, node);
        if (!node.outputs.empty()) {
            const ir::Value& first = g.value(node.outputs.front());
            n.properties.insert(QStringLiteral("name"), QLatin1Char('%') + qs(first.debugName));
            n.properties.insert(QStringLiteral("value"), valueText(first));
        }
        QStringList outs;
        for (ir::ValueId o : node.outputs)
            outs << QStringLiteral("%%1: %2").arg(qs(g.value(o).debugName), valueText(g.value(o)));
        n.properties.insert(QStringLiteral("outputs"), outs.join(QLatin1Char('\n')));
        out.nodes.push_back(n);
        for (ir::ValueId in : node.inputs) {
            const ir::Value& v = g.value(in);
            QString from;
            if (v.producer >= 0) {
                if (g.node(v.producer).folded && !followsSymbol(g, g.node(v.producer)))
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

GraphData graphFromSnapshot(const harden::GraphSnapshot& snap,
                            const std::vector<harden::NodeRemark>& remarks) {
    GraphData out;
    QSet<harden::StableId> shown;
    std::map<std::string, QString> constants; // value name -> what the constant holds
    for (const auto& n : snap.nodes)
        if (n.kind == "prim::Constant" && !n.outputs.empty()) {
            const QString value = ownAttributes(n);
            constants[n.outputs.front()] =
                value.isEmpty() || value == QLatin1String("value=<Tensor>")
                    ? (n.outputTypes.empty() ? QStringLiteral("None") : qs(n.outputTypes.front()))
                    : value;
        }
    for (const auto& in : snap.inputs) {
        if (in.rfind("self", 0) == 0)
            continue; // the module itself: every attribute read would hang off it
        GraphNode g;
        g.id = QStringLiteral("input:%1").arg(qs(in));
        g.label = qs(in);
        g.kind = QStringLiteral("input");
        out.nodes.push_back(g);
    }
    for (const auto& n : snap.nodes) {
        if (n.kind == "prim::Constant")
            continue;
        GraphNode g;
        g.id = QStringLiteral("ts:%1").arg(n.id);
        g.kind = qs(n.kind);
        g.label = shortKind(n.kind);
        if (!n.outputTypes.empty())
            g.label +=
                QLatin1Char('\n') + qs(n.outputTypes.front()).section(QLatin1Char(','), 0, 3);
        if (!n.modulePath.empty())
            g.clusterPath = qs(n.modulePath).split(QLatin1Char('.'));
        g.properties.insert(QStringLiteral("kind"), g.kind);
        g.properties.insert(QStringLiteral("text"), qs(n.text));
        g.properties.insert(QStringLiteral("module path"), qs(n.modulePath));
        g.properties.insert(QStringLiteral("source"), qs(n.source));
        g.properties.insert(QStringLiteral("stable id"), QVariant::fromValue<qlonglong>(n.id));
        if (!n.outputs.empty())
            g.properties.insert(QStringLiteral("name"), QLatin1Char('%') + qs(n.outputs.front()));
        if (!n.outputTypes.empty()) {
            const auto [dtype, shape] = dtypeAndShape(n.outputTypes.front());
            g.properties.insert(QStringLiteral("value"),
                                shape.isEmpty() ? dtype
                                                : QStringLiteral("%1(%2)").arg(dtype, shape));
        }
        g.facets = snapshotFacets(n, constants);
        for (const auto& r : remarks)
            if (r.node == n.id)
                g.badge = qs(r.text).left(40);
        shown.insert(n.id);
        out.nodes.push_back(g);
    }
    std::map<std::string, QString> inputNode;
    for (const auto& in : snap.inputs)
        inputNode[in] = QStringLiteral("input:%1").arg(qs(in));
    for (const auto& e : snap.edges) {
        if (e.to < 0 || !shown.contains(e.to))
            continue;
        QString from;
        if (e.from >= 0) {
            if (!shown.contains(e.from))
                continue;
            from = QStringLiteral("ts:%1").arg(e.from);
        } else {
            auto it = inputNode.find(e.value);
            if (it == inputNode.end() || e.value.rfind("self", 0) == 0)
                continue;
            from = it->second;
        }
        out.edges.push_back({from, QStringLiteral("ts:%1").arg(e.to), QString()});
    }
    return out;
}

const harden::GraphSnapshot* finalSnapshot(const harden::HardenDiagnostics& diag) {
    for (auto it = diag.passes.rbegin(); it != diag.passes.rend(); ++it)
        if (!it->snapshot.empty())
            return &it->snapshot;
    return nullptr;
}

} // namespace t2n::ui
