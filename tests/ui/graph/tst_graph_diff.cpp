// Pass-step diffs: which ids are flagged, and that a step keeps the boxes of
// unchanged nodes where they were.
#include "graph/graph_view.h"
#include "layout_wait.h"
#include "suite_macros.h"
#include "synthetic_graph.h"

#include <QtTest>

using namespace t2n::ui;
using t2n::test::addEdge;
using t2n::test::addNode;
using t2n::test::waitForLayout;

class GraphDiffTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// a->b->c->d, e  becomes  a->b->x->d, a->e: c removed, x added; b and d
    /// lost c and gained x, a gained e, e gained a: those four are rewired;
    /// only d and e have other inputs (modified), a and b other consumers.
    void diffFlagsExactIds() {
        GraphData before;
        for (const char* id : {"a", "b", "c", "d", "e"})
            addNode(before, id, "aten::relu", {}, "1");
        addEdge(before, "a", "b");
        addEdge(before, "b", "c");
        addEdge(before, "c", "d");
        GraphData after;
        for (const char* id : {"a", "b", "x", "d", "e"})
            addNode(after, id, "aten::relu", {}, "1");
        addEdge(after, "a", "b");
        addEdge(after, "b", "x");
        addEdge(after, "x", "d");
        addEdge(after, "a", "e");
        const GraphDiff diff = diffGraphs(before, after);
        QCOMPARE(diff.added, QSet<QString>({"x"}));
        QCOMPARE(diff.removed, QSet<QString>({"c"}));
        QCOMPARE(diff.rewired, QSet<QString>({"a", "b", "d", "e"}));
        QCOMPARE(diff.modified.keys().size(), 2);
        QCOMPARE(diff.modified.value("d"), QStringList{"inputs"});
        QCOMPARE(diff.modified.value("e"), QStringList{"inputs"});
        QCOMPARE(diff.changed(), QSet<QString>({"c", "x", "d", "e"}));
        QVERIFY(diffGraphs(after, after).isEmpty());
    }

    /// A node that keeps its id and its edges but whose facets differ is
    /// modified, naming the facets; one that only got a new label is not.
    void diffFlagsModifiedFacets() {
        GraphData before;
        for (const char* id : {"a", "b", "c"})
            addNode(before, id, "aten::relu", {}, "1");
        addEdge(before, "a", "b");
        addEdge(before, "b", "c");
        before.nodes[1].facets = {{"kind", "aten::add_"}, {"dtype", "Float"}, {"shape", "1, 3"}};
        before.nodes[2].facets = {{"kind", "aten::relu"}, {"attributes", "_; value=1"}};
        GraphData after = before;
        after.nodes[1].facets = {{"kind", "aten::add"}, {"dtype", "Float"}, {"shape", "1, 6"}};
        after.nodes[2].label = "renamed";
        GraphDiff diff = diffGraphs(before, after);
        QCOMPARE(diff.modified.size(), 1);
        QCOMPARE(diff.modified.value("b"), QStringList({"kind", "shape"}));
        QVERIFY(diff.rewired.isEmpty() && diff.added.isEmpty() && diff.removed.isEmpty());
        after.nodes[2].facets.remove("attributes");
        diff = diffGraphs(before, after);
        QCOMPARE(diff.modified.value("c"), QStringList{"attributes"});
    }

    /// A step keeps every unchanged box exactly, ghosts removed nodes in place,
    /// puts added nodes where nothing else is, and marks each item.
    void stepKeepsUnchangedPositions() {
        const GraphData before = t2n::test::resnetLike(120);
        QSet<QString> removed;
        QSet<QString> added;
        const GraphData after = t2n::test::foldSomeBatchNorms(before, 3, &removed, &added);
        QVERIFY(!removed.isEmpty() && removed.size() == added.size());

        GraphView view(nullptr, LayoutOptions{1000, 300}); // everything expanded
        view.setGraph(before);
        QVERIFY(waitForLayout(view));
        const QHash<QString, QRectF> old = t2n::test::itemBoxes(view.geometry());
        const GraphDiff diff = view.showStep(before, after);
        QCOMPARE(diff.removed, removed);
        QCOMPARE(diff.added, added);
        const GraphGeometry& geo = view.geometry();
        const QHash<QString, QRectF> now = t2n::test::itemBoxes(geo);
        for (const GraphNode& n : after.nodes)
            if (!added.contains(n.id))
                QCOMPARE(now.value(n.id), old.value(n.id));
        for (const QString& id : removed) {
            QCOMPARE(now.value(id), old.value(id));
            QCOMPARE(view.graphScene()->nodeItem(id)->mark(), DiffMark::Removed);
        }
        for (const QString& id : added) {
            QCOMPARE(view.graphScene()->nodeItem(id)->mark(), DiffMark::Added);
            for (const NodeGeometry& n : geo.nodes)
                QVERIFY2(n.key == id || !n.rect.intersects(now.value(id)),
                         qPrintable(id + " over " + n.key));
        }
        for (const QString& id : diff.modified.keys())
            QCOMPARE(view.graphScene()->nodeItem(id)->mark(), DiffMark::Modified);
        int unmarked = 0;
        for (const GraphNode& n : after.nodes)
            unmarked += view.graphScene()->nodeItem(n.id)->mark() == DiffMark::None;
        QCOMPARE(unmarked, int(after.nodes.size() - added.size() - diff.modified.size()));
        QCOMPARE(view.visibleNodeCount(), int(after.nodes.size()));

        // Each new edge is marked; each dropped edge is left as a removed ghost.
        int freshEdges = 0;
        int ghostEdges = 0;
        for (const EdgeGeometry& e : geo.edges) {
            freshEdges += e.mark == DiffMark::Added || e.mark == DiffMark::Modified;
            ghostEdges += e.mark == DiffMark::Removed;
        }
        QCOMPARE(freshEdges, int(3 * added.size()));   // conv1->relu1, conv2->cast, cast->bn2
        QCOMPARE(ghostEdges, int(3 * removed.size())); // conv1->bn1, bn1->relu1, conv2->bn2

        // The next step drops the ghosts and keeps the boxes again.
        const GraphData third = t2n::test::foldSomeBatchNorms(after, 1000);
        view.showStep(after, third);
        for (const QString& id : removed)
            QVERIFY(!view.graphScene()->nodeItem(id));
        for (const GraphNode& n : third.nodes)
            if (now.contains(n.id))
                QCOMPARE(t2n::test::itemBoxes(view.geometry()).value(n.id), now.value(n.id));
    }

    /// Changes inside a collapsed cluster mark the cluster box with a summary.
    void stepInsideCollapsedClusterMarksCluster() {
        const GraphData before = t2n::test::resnetLike(200);
        QSet<QString> removed;
        const GraphData after = t2n::test::foldSomeBatchNorms(before, 1000, &removed);
        QCOMPARE(removed, QSet<QString>({"layer1.0.bn1"}));
        GraphView view;
        view.setGraph(before);
        QVERIFY(waitForLayout(view));
        QVERIFY(view.collapsedClusters().contains("layer1"));
        const QRectF box = view.graphScene()->nodeItem(clusterItemKey("layer1"))->rect();
        view.showStep(before, after);
        NodeItem* layer1 = view.graphScene()->nodeItem(clusterItemKey("layer1"));
        QCOMPARE(layer1->mark(), DiffMark::Modified);
        QCOMPARE(layer1->rect(), box);
        const NodeGeometry& g =
            view.geometry().nodes[view.geometry().indexOf(clusterItemKey("layer1"))];
        QCOMPARE(g.diffSummary,
                 QString::fromUtf8("+1 \u22121 ~2")); // cast; bn1; relu1 and bn2 take new inputs
        QCOMPARE(view.graphScene()->nodeItem(clusterItemKey("layer2"))->mark(), DiffMark::None);
    }
};

T2N_TEST_SUITE(GraphDiffTest)
#include "tst_graph_diff.moc"
