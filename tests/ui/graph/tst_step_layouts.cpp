// The pass scrubber's layouts: whatever order the rows are visited in
// (forwards, backwards, jumps), a node keeps one box in every row it is in,
// ghosts stand where the node was in the row before, nothing overlaps, and
// the marks name what each row's pass did.
#include "graph/graph_view.h"
#include "graph/step_layouts.h"
#include "suite_macros.h"
#include "synthetic_graph.h"

#include <QtTest>

using namespace t2n::ui;

namespace {

/// Row 0 a ResNet-like graph; row 1 folds every third bn1 and adds casts;
/// row 2 changes the shape of three nodes (modified only); row 3 folds one
/// more bn1; row 4 is row 3 again (a pass that changed nothing).
QVector<GraphData> chain(QSet<QString>* reshaped) {
    QVector<GraphData> rows;
    rows << t2n::test::resnetLike(120);
    rows << t2n::test::foldSomeBatchNorms(rows[0], 3);
    GraphData reshape = rows[1];
    for (GraphNode& n : reshape.nodes)
        n.facets.insert(QStringLiteral("shape"), n.properties.value("shape").toString());
    for (int i : {5, 9, 20}) {
        reshape.nodes[i].facets[QStringLiteral("shape")] += QStringLiteral("x2");
        reshaped->insert(reshape.nodes[i].id);
    }
    for (GraphData* g : {&rows[0], &rows[1]}) // the same facets before the change
        for (GraphNode& n : g->nodes)
            n.facets.insert(QStringLiteral("shape"), n.properties.value("shape").toString());
    rows << reshape;
    rows << t2n::test::foldSomeBatchNorms(rows[2], 1000);
    rows << rows[3];
    return rows;
}

} // namespace

class StepLayoutsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void scrubbingKeepsEveryNodeInPlace() {
        QSet<QString> reshaped;
        const QVector<GraphData> rows = chain(&reshaped);
        GraphView view(nullptr, LayoutOptions{1000, 300}); // everything expanded
        view.setGraph(rows[1]);
        QSignalSpy laidOut(&view, &GraphView::layoutFinished);
        QVERIFY(laidOut.wait(20000));

        StepLayouts layouts;
        layouts.reset(int(rows.size()), [&rows](int r) { return rows[r]; });
        layouts.setBase(1, view.geometry(), view.collapsedClusters());
        const QHash<QString, QRectF> laidOutBoxes = t2n::test::itemBoxes(view.geometry(), false);

        QHash<QString, QRectF> home; // each node's box the first time it was drawn
        QHash<int, QHash<QString, QRectF>> firstVisit;
        for (int row : {1, 2, 3, 4, 0, 3, 1, 2, 0, 4}) {
            const StepLayouts::Step step = layouts.step(row);
            view.showPlaced(layouts.graph(row), layouts.tree(row), step.geometry);
            QCOMPARE(view.geometry().nodes.size(), step.geometry.nodes.size());
            const QHash<QString, QRectF> boxes = t2n::test::itemBoxes(view.geometry(), false);
            QCOMPARE(boxes.size(), rows[row].nodes.size());
            for (auto it = boxes.cbegin(); it != boxes.cend(); ++it) {
                const auto known = home.constFind(it.key());
                if (known == home.cend())
                    home.insert(it.key(), it.value());
                else
                    QVERIFY2(
                        *known == it.value(),
                        qPrintable(QStringLiteral("%1 moved in row %2").arg(it.key()).arg(row)));
                for (auto other = std::next(it); other != boxes.cend(); ++other)
                    QVERIFY2(!it.value().intersects(other.value()),
                             qPrintable(it.key() + " over " + other.key()));
            }
            // The base row keeps its Graphviz boxes.
            if (row == 1)
                for (auto it = laidOutBoxes.cbegin(); it != laidOutBoxes.cend(); ++it)
                    QCOMPARE(boxes.value(it.key()), it.value());
            // Ghosts stand where the node was in the row before (and is
            // drawn when that row is visited).
            for (const NodeGeometry& n : step.geometry.nodes)
                if (n.mark == DiffMark::Removed) {
                    QVERIFY(step.diff.removed.contains(n.key));
                    QCOMPARE(n.rect, home.value(n.key, n.rect));
                    home.insert(n.key, n.rect);
                }
            QCOMPARE(view.geometry().nodes.size() - boxes.size(), step.diff.removed.size());
            if (firstVisit.contains(row))
                QCOMPARE(boxes, firstVisit.value(row));
            firstVisit.insert(row, boxes);
        }

        // Row 2 only reshaped three nodes: those are marked modified, nothing else.
        const StepLayouts::Step reshape = layouts.step(2);
        QCOMPARE(QSet<QString>(reshape.diff.modified.keyBegin(), reshape.diff.modified.keyEnd()),
                 reshaped);
        for (const NodeGeometry& n : reshape.geometry.nodes)
            QCOMPARE(n.mark, reshaped.contains(n.key) ? DiffMark::Modified : DiffMark::None);
        for (const QString& id : reshaped)
            QCOMPARE(reshape.diff.modified.value(id), QStringList{"shape"});
        QVERIFY(layouts.step(4).diff.isEmpty());
    }

    /// A new base (a cluster opened, Re-lay out) places the other rows from it.
    void newBaseReplacesPlacements() {
        QSet<QString> reshaped;
        const QVector<GraphData> rows = chain(&reshaped);
        GraphView view(nullptr, LayoutOptions{1000, 300});
        view.setGraph(rows[3]);
        QSignalSpy laidOut(&view, &GraphView::layoutFinished);
        QVERIFY(laidOut.wait(20000));
        StepLayouts layouts;
        layouts.reset(int(rows.size()), [&rows](int r) { return rows[r]; });
        layouts.setBase(3, view.geometry(), {});
        const GraphGeometry fromThree = layouts.plain(0);
        GraphGeometry shifted = view.geometry();
        for (NodeGeometry& n : shifted.nodes)
            n.rect.translate(500, 0);
        layouts.setBase(3, shifted, {});
        QCOMPARE(layouts.baseRow(), 3);
        const GraphGeometry fromShifted = layouts.plain(0);
        QRectF a;
        QRectF b;
        QVERIFY(fromThree.itemRect("conv1", &a) && fromShifted.itemRect("conv1", &b));
        QCOMPARE(b, a.translated(500, 0));
    }
};

T2N_TEST_SUITE(StepLayoutsTest)
#include "tst_step_layouts.moc"
