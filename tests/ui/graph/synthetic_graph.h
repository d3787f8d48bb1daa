#pragma once
// Synthetic graphs for the graph-view tests and benchmark: a ResNet-like
// chain of residual blocks in nested module clusters (layerN.B.op), with skip
// edges, and a "pass" that folds some batch norms and inserts casts.
#include "graph/graph_data.h"
#include "graph/graph_geometry.h"

namespace t2n::test {

using t2n::ui::GraphData;
using t2n::ui::GraphEdge;
using t2n::ui::GraphNode;

/// Each drawn item's box by key; the ghosts of removed nodes only when asked.
inline QHash<QString, QRectF> itemBoxes(const t2n::ui::GraphGeometry& g, bool ghosts = true) {
    QHash<QString, QRectF> out;
    for (const t2n::ui::NodeGeometry& n : g.nodes)
        if (ghosts || n.mark != t2n::ui::DiffMark::Removed)
            out.insert(n.key, n.rect);
    return out;
}

inline void addNode(GraphData& g, const QString& id, const QString& kind, const QStringList& path,
                    const QString& shape) {
    GraphNode n;
    n.id = id;
    n.label = path.isEmpty() ? id : path.last();
    n.kind = kind;
    n.clusterPath = path.mid(0, path.size() - 1);
    n.properties.insert(QStringLiteral("shape"), shape);
    n.properties.insert(QStringLiteral("module path"), path.join(QLatin1Char('.')));
    g.nodes.append(n);
}

inline void addEdge(GraphData& g, const QString& from, const QString& to,
                    const QString& label = {}) {
    g.edges.append(GraphEdge{from, to, label});
}

/// About `targetNodes` nodes: stem, 4 stages of 7-node residual blocks (the
/// first block of each stage with a 2-node downsample branch), head.
inline GraphData resnetLike(int targetNodes) {
    GraphData g;
    const QString s0 = QStringLiteral("1x64x56x56");
    addNode(g, QStringLiteral("x"), QStringLiteral("prim::Param"), {},
            QStringLiteral("1x3x224x224"));
    addNode(g, QStringLiteral("conv1"), QStringLiteral("aten::conv2d"), {QStringLiteral("conv1")},
            s0);
    addNode(g, QStringLiteral("bn1"), QStringLiteral("aten::batch_norm"), {QStringLiteral("bn1")},
            s0);
    addNode(g, QStringLiteral("relu"), QStringLiteral("aten::relu"), {QStringLiteral("relu")}, s0);
    addEdge(g, QStringLiteral("x"), QStringLiteral("conv1"), QStringLiteral("1x3x224x224"));
    addEdge(g, QStringLiteral("conv1"), QStringLiteral("bn1"), s0);
    addEdge(g, QStringLiteral("bn1"), QStringLiteral("relu"), s0);
    QString last = QStringLiteral("relu");
    const int blocks = std::max(4, (targetNodes - 8) / 7);
    const int perStage = blocks / 4;
    for (int b = 0; b < blocks; ++b) {
        const int stage = std::min(4, 1 + b / perStage);
        const int first = (stage - 1) * perStage;
        const QString layer = QStringLiteral("layer%1").arg(stage);
        const QString block = QString::number(b - first);
        const QString shape =
            QStringLiteral("1x%1x%2x%2").arg(64 << (stage - 1)).arg(56 >> (stage - 1));
        auto id = [&](const QString& op) {
            return layer + QLatin1Char('.') + block + QLatin1Char('.') + op;
        };
        auto node = [&](const QString& op, const QString& kind) {
            addNode(g, id(op), kind, {layer, block, op}, shape);
        };
        node(QStringLiteral("conv1"), QStringLiteral("aten::conv2d"));
        node(QStringLiteral("bn1"), QStringLiteral("aten::batch_norm"));
        node(QStringLiteral("relu1"), QStringLiteral("aten::relu"));
        node(QStringLiteral("conv2"), QStringLiteral("aten::conv2d"));
        node(QStringLiteral("bn2"), QStringLiteral("aten::batch_norm"));
        node(QStringLiteral("add"), QStringLiteral("aten::add"));
        node(QStringLiteral("relu2"), QStringLiteral("aten::relu"));
        addEdge(g, last, id(QStringLiteral("conv1")), shape);
        addEdge(g, id(QStringLiteral("conv1")), id(QStringLiteral("bn1")), shape);
        addEdge(g, id(QStringLiteral("bn1")), id(QStringLiteral("relu1")), shape);
        addEdge(g, id(QStringLiteral("relu1")), id(QStringLiteral("conv2")), shape);
        addEdge(g, id(QStringLiteral("conv2")), id(QStringLiteral("bn2")), shape);
        addEdge(g, id(QStringLiteral("bn2")), id(QStringLiteral("add")), shape);
        if (b == first) { // the stage's first block changes the shape: downsample branch
            const QString ds = layer + QLatin1Char('.') + block + QStringLiteral(".downsample");
            addNode(g, ds + QStringLiteral(".0"), QStringLiteral("aten::conv2d"),
                    {layer, block, QStringLiteral("downsample"), QStringLiteral("0")}, shape);
            addNode(g, ds + QStringLiteral(".1"), QStringLiteral("aten::batch_norm"),
                    {layer, block, QStringLiteral("downsample"), QStringLiteral("1")}, shape);
            addEdge(g, last, ds + QStringLiteral(".0"), shape);
            addEdge(g, ds + QStringLiteral(".0"), ds + QStringLiteral(".1"), shape);
            addEdge(g, ds + QStringLiteral(".1"), id(QStringLiteral("add")), shape);
        } else {
            addEdge(g, last, id(QStringLiteral("add")), shape); // the skip edge
        }
        addEdge(g, id(QStringLiteral("add")), id(QStringLiteral("relu2")), shape);
        last = id(QStringLiteral("relu2"));
    }
    addNode(g, QStringLiteral("avgpool"), QStringLiteral("aten::adaptive_avg_pool2d"),
            {QStringLiteral("avgpool")}, QStringLiteral("1x512x1x1"));
    addNode(g, QStringLiteral("flatten"), QStringLiteral("aten::flatten"), {},
            QStringLiteral("1x512"));
    addNode(g, QStringLiteral("fc"), QStringLiteral("aten::linear"), {QStringLiteral("fc")},
            QStringLiteral("1x1000"));
    addEdge(g, last, QStringLiteral("avgpool"));
    addEdge(g, QStringLiteral("avgpool"), QStringLiteral("flatten"));
    addEdge(g, QStringLiteral("flatten"), QStringLiteral("fc"));
    return g;
}

/// A fake pass over resnetLike: in every `every`-th block, folds bn1 into conv1
/// (bn1 removed, conv1 -> relu1) and inserts a cast after conv2.
inline GraphData foldSomeBatchNorms(const GraphData& g, int every, QSet<QString>* removed = nullptr,
                                    QSet<QString>* added = nullptr) {
    GraphData out;
    QSet<QString> gone;
    QHash<QString, QString> castAfter; // conv2 id -> cast id
    int block = 0;
    for (const GraphNode& n : g.nodes) {
        if (!n.id.endsWith(QLatin1String(".bn1")))
            continue;
        if (block++ % every == 0) {
            gone.insert(n.id);
            const QString prefix = n.id.chopped(4);
            castAfter.insert(prefix + QStringLiteral(".conv2"), prefix + QStringLiteral(".cast"));
        }
    }
    for (const GraphNode& n : g.nodes) {
        if (gone.contains(n.id))
            continue;
        out.nodes.append(n);
        if (castAfter.contains(n.id)) {
            GraphNode cast = n;
            cast.id = castAfter.value(n.id);
            cast.label = QStringLiteral("cast");
            cast.kind = QStringLiteral("aten::to");
            cast.clusterPath = n.clusterPath;
            out.nodes.append(cast);
        }
    }
    for (const GraphEdge& e : g.edges) {
        if (gone.contains(e.to))
            continue;
        if (gone.contains(e.from)) { // conv1 -> bn1 -> relu1 becomes conv1 -> relu1
            addEdge(out, e.from.chopped(4) + QStringLiteral(".conv1"), e.to, e.label);
            continue;
        }
        if (castAfter.contains(e.from)) {
            addEdge(out, e.from, castAfter.value(e.from), e.label);
            addEdge(out, castAfter.value(e.from), e.to, e.label);
            continue;
        }
        out.edges.append(e);
    }
    if (removed)
        *removed = gone;
    if (added)
        for (const QString& id : castAfter)
            added->insert(id);
    return out;
}

} // namespace t2n::test
