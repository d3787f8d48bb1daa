// GraphLayout against Graphviz's real geometry: rank order, cluster boxes,
// collapsed clusters with bundled edges, the content cache, chunking.
#include "graph/graph_layout.h"
#include "graph/visible_edges.h"
#include "suite_macros.h"
#include "synthetic_graph.h"

#include <QtTest>

using namespace t2n::ui;
using t2n::test::addEdge;
using t2n::test::addNode;

namespace {

QRectF rectOf(const GraphGeometry& g, const QString& key) {
    const int i = g.indexOf(key);
    return i < 0 ? QRectF() : g.nodes[i].rect;
}

const FrameGeometry* frameOf(const GraphGeometry& g, const QString& clusterId) {
    for (const FrameGeometry& f : g.frames)
        if (f.clusterId == clusterId)
            return &f;
    return nullptr;
}

// enc.0: a b, enc.1: c d, dec: e f, plus an unclustered input and output.
GraphData twoLevelGraph() {
    GraphData g;
    addNode(g, "in", "prim::Param", {}, "1x8");
    addNode(g, "a", "aten::linear", {"enc", "0", "a"}, "1x8");
    addNode(g, "b", "aten::relu", {"enc", "0", "b"}, "1x8");
    addNode(g, "c", "aten::linear", {"enc", "1", "c"}, "1x8");
    addNode(g, "d", "aten::relu", {"enc", "1", "d"}, "1x8");
    addNode(g, "e", "aten::linear", {"dec", "e"}, "1x8");
    addNode(g, "f", "aten::add", {"dec", "f"}, "1x8");
    addNode(g, "out", "prim::Return", {}, "1x8");
    addEdge(g, "in", "a");
    addEdge(g, "a", "b");
    addEdge(g, "b", "c");
    addEdge(g, "c", "d");
    addEdge(g, "d", "e");
    addEdge(g, "e", "f");
    addEdge(g, "in", "f"); // skip edge from outside into dec
    addEdge(g, "b", "f");  // skip edge from enc.0 into dec
    addEdge(g, "f", "out");
    return g;
}

} // namespace

class GraphLayoutTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// A two-line label puts one line in each half of the box (the shape was
    /// drawn over the kind, and the kind again beneath), and the box is as
    /// wide as its longest line, not as both lines together.
    void labelLinesSplitIntoTitleAndSubtitle() {
        GraphNode conv;
        conv.id = "conv";
        conv.kind = "aten::_convolution";
        conv.label = "_convolution\nf32[1x8x32x32]";
        NodeGeometry g = opGeometry(conv, 0, QRectF(0, 0, 100, 38));
        QCOMPARE(g.title, QString("_convolution"));
        QCOMPARE(g.subtitle, QString("f32[1x8x32x32]"));
        GraphNode oneLine = conv;
        oneLine.label = "layer1";
        g = opGeometry(oneLine, 0, QRectF(0, 0, 100, 38));
        QCOMPARE(g.title, QString("layer1"));
        QCOMPARE(g.subtitle, QString("_convolution"));
        oneLine.label = "_convolution";
        QCOMPARE(opGeometry(oneLine, 0, QRectF()).subtitle, QString());
        GraphNode twoLines = conv;
        GraphNode longest = conv;
        longest.label = "_convolution f32[1x8x32x32]";
        QVERIFY(GraphLayout::nodeSize(twoLines).width() < GraphLayout::nodeSize(longest).width());
    }

    /// Graphviz ranks follow edge direction: every tail sits above its head,
    /// and each spline runs from the tail's box to the head's box.
    void rankOrderFollowsEdges() {
        GraphData g;
        for (const char* id : {"a", "b", "c", "d"})
            addNode(g, id, "aten::relu", {}, "1");
        addEdge(g, "a", "b");
        addEdge(g, "b", "c");
        addEdge(g, "a", "c");
        addEdge(g, "c", "d");
        GraphLayout layout;
        const GraphGeometry geo = layout.layout(g, ClusterTree::build(g), {});
        QCOMPARE(geo.nodes.size(), 4);
        QCOMPARE(geo.edges.size(), 4);
        for (const EdgeGeometry& e : geo.edges) {
            const QRectF tail = rectOf(geo, e.from);
            const QRectF head = rectOf(geo, e.to);
            QVERIFY2(tail.bottom() < head.top(), qPrintable(e.from + "->" + e.to));
            QVERIFY(qAbs(e.path.elementAt(0).y - tail.bottom()) < 2.0);
            QVERIFY(qAbs(e.arrowTip.y() - head.top()) < 2.0);
        }
        QVERIFY(geo.bounds.contains(rectOf(geo, "d")));
    }

    /// Expanded clusters are frames that contain their nodes and their child frames.
    void clustersAreBoxesContainingTheirNodes() {
        const GraphData g = twoLevelGraph();
        const ClusterTree tree = ClusterTree::build(g);
        GraphLayout layout;
        const GraphGeometry geo = layout.layout(g, tree, {});
        QCOMPARE(geo.frames.size(), 4); // enc, enc.0, enc.1, dec
        for (const GraphNode& n : g.nodes) {
            QString cluster = n.clusterPath.join('.');
            for (; !cluster.isEmpty(); cluster = tree.cluster(cluster).parent) {
                const FrameGeometry* frame = frameOf(geo, cluster);
                QVERIFY(frame);
                QVERIFY2(frame->rect.contains(rectOf(geo, n.id)),
                         qPrintable(n.id + " in " + cluster));
            }
        }
        QVERIFY(frameOf(geo, "enc")->rect.contains(frameOf(geo, "enc.0")->rect));
        QVERIFY(!frameOf(geo, "enc")->rect.intersects(frameOf(geo, "dec")->rect));
        QVERIFY(!frameOf(geo, "enc.0")->rect.intersects(frameOf(geo, "enc.1")->rect));
        // The b -> f edge leaves enc, so it is drawn between the enc and dec frames.
        bool encToDec = false;
        for (const EdgeGeometry& e : geo.edges)
            encToDec =
                encToDec || (e.from == clusterItemKey("enc") && e.to == clusterItemKey("dec"));
        QVERIFY(encToDec);
    }

    /// A collapsed cluster is one box; edges crossing it are bundled, none lost.
    void collapsedClusterBundlesEdges() {
        const GraphData g = twoLevelGraph();
        const ClusterTree tree = ClusterTree::build(g);
        GraphLayout layout;
        const GraphGeometry geo = layout.layout(g, tree, {"enc"});
        QCOMPARE(geo.nodes.size(), 8 - 4 + 1);
        QVERIFY(geo.indexOf(clusterItemKey("enc")) >= 0);
        QCOMPARE(geo.indexOf("a"), -1);
        // Graph edges with one end in enc, counted from the data: in->a, d->e, b->f.
        int crossing = 0;
        for (const GraphEdge& e : g.edges)
            crossing += (e.from == "a" || e.from == "b" || e.from == "c" || e.from == "d") !=
                        (e.to == "a" || e.to == "b" || e.to == "c" || e.to == "d");
        int bundled = 0;
        for (const EdgeGeometry& e : geo.edges)
            if (e.from == clusterItemKey("enc") || e.to == clusterItemKey("enc"))
                bundled += e.count;
        QCOMPARE(bundled, crossing);
        QCOMPARE(tree.defaultCollapsed(3), QSet<QString>({"enc"}));
    }

    /// Expanding one cluster leaves the inside of the other clusters as it was
    /// (each block keeps its own cached layout; only the outer arrangement moves).
    void expandingKeepsOtherClustersIntact() {
        const GraphData g = twoLevelGraph();
        const ClusterTree tree = ClusterTree::build(g);
        GraphLayout layout;
        const GraphGeometry collapsed = layout.layout(g, tree, {"enc"});
        const GraphGeometry expanded = layout.layout(g, tree, {});
        const QPointF before = frameOf(collapsed, "dec")->rect.topLeft();
        const QPointF after = frameOf(expanded, "dec")->rect.topLeft();
        for (const char* id : {"e", "f"})
            QCOMPARE(rectOf(expanded, id).topLeft() - after,
                     rectOf(collapsed, id).topLeft() - before);
        QVERIFY(rectOf(expanded, "in").bottom() < frameOf(expanded, "enc")->rect.top());
        QVERIFY(frameOf(expanded, "dec")->rect.bottom() < rectOf(expanded, "out").top());
    }

    /// Identical blocks share one dot run; the same request again runs none.
    void layoutsAreCachedByContent() {
        const GraphData g = t2n::test::resnetLike(300);
        const ClusterTree tree = ClusterTree::build(g);
        GraphLayout layout;
        const GraphGeometry first = layout.layout(g, tree, {});
        const int runs = layout.dotRuns();
        QVERIFY(layout.cacheHits() > 10); // residual blocks repeat
        QVERIFY(runs < tree.clusters().size() / 2);
        const GraphGeometry again = layout.layout(g, tree, {});
        QCOMPARE(layout.dotRuns(), runs);
        QCOMPARE(again.nodes.size(), first.nodes.size());
        for (int i = 0; i < first.nodes.size(); ++i)
            QCOMPARE(again.nodes[i].rect, first.nodes[i].rect);
    }

    /// A flat graph is split into chunks so that no single dot run is huge.
    void flatGraphIsChunked() {
        GraphData g;
        for (int i = 0; i < 700; ++i) {
            addNode(g, QString::number(i), "aten::relu", {}, "1");
            if (i > 0)
                addEdge(g, QString::number(i - 1), QString::number(i));
        }
        const ClusterTree tree = ClusterTree::build(g, 300);
        QCOMPARE(tree.cluster("").children.size(), 3);
        QCOMPARE(tree.cluster("").nodes.size(), 0);
        QCOMPARE(tree.cluster(tree.cluster("").children[2]).totalNodes, 100);
        const auto edges = visibleEdges(g, tree, tree.defaultCollapsed(40));
        QCOMPARE(edges.size(), 2); // chunk0 -> chunk1 -> chunk2
    }

    /// Empty graphs, dangling edges, self loops and repeated edges lay out without harm.
    void oddInputIsHarmless() {
        GraphLayout layout;
        const GraphData empty;
        const GraphGeometry none = layout.layout(empty, ClusterTree::build(empty), {});
        QVERIFY(none.nodes.isEmpty() && none.edges.isEmpty());
        GraphData g;
        addNode(g, "a", "aten::relu", {"m", "a"}, "1");
        addNode(g, "b", "aten::relu", {"m", "b"}, "1");
        addEdge(g, "a", "ghost");
        addEdge(g, "a", "a");
        addEdge(g, "a", "b");
        addEdge(g, "a", "b");
        const GraphGeometry geo = layout.layout(g, ClusterTree::build(g), {});
        QCOMPARE(geo.nodes.size(), 2);
        QCOMPARE(geo.edges.size(), 1);
        QCOMPARE(geo.edges[0].count, 2);
    }
};

T2N_TEST_SUITE(GraphLayoutTest)
#include "tst_graph_layout.moc"
