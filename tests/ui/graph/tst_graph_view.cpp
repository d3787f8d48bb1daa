// GraphView offscreen: collapse/expand, search (with its item model), synced
// selection, highlight sets, minimap, PNG/SVG export.
#include "graph/graph_minimap.h"
#include "graph/graph_view.h"
#include "suite_macros.h"
#include "synthetic_graph.h"

#include <QAbstractItemModelTester>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

using namespace t2n::ui;

namespace {

bool waitForLayout(GraphView& view) {
    if (!view.isLayoutPending())
        return true;
    QSignalSpy spy(&view, &GraphView::layoutFinished);
    return spy.wait(20000);
}

// Pixels that differ from the image's corner (background) colour.
int inkedPixels(const QImage& image) {
    const QRgb background = image.pixel(0, 0);
    int inked = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            inked += image.pixel(x, y) != background;
    return inked;
}

int nodesUnder(const GraphData& g, const QString& prefix) {
    int n = 0;
    for (const GraphNode& node : g.nodes)
        n += node.clusterPath.join('.').startsWith(prefix);
    return n;
}

} // namespace

class GraphViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        m_graph = t2n::test::resnetLike(200); // layers of ~50 nodes: collapsed at 40
        m_view = std::make_unique<GraphView>();
        m_view->resize(900, 700);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        m_view->setGraph(m_graph);
        QVERIFY(waitForLayout(*m_view));
    }
    void cleanup() { m_view.reset(); }

    /// Big clusters open collapsed; double-clicking one expands it, again collapses it.
    void collapseExpandChangesVisibleCount() {
        const int layer1 = nodesUnder(m_graph, "layer1");
        QVERIFY(layer1 > 40);
        QVERIFY(m_view->collapsedClusters().contains("layer1"));
        const int before = m_view->visibleNodeCount();
        QCOMPARE(before, int(m_graph.nodes.size()) - nodesUnder(m_graph, "layer"));
        NodeItem* box = m_view->graphScene()->nodeItem(clusterItemKey("layer1"));
        QVERIFY(box);
        m_view->centerOn(box->rect().center());
        QTest::mouseDClick(m_view->viewport(), Qt::LeftButton, {},
                           m_view->mapFromScene(box->rect().center()));
        QVERIFY(waitForLayout(*m_view));
        QCOMPARE(m_view->visibleNodeCount(), before + layer1);
        QVERIFY(!m_view->graphScene()->nodeItem(clusterItemKey("layer1")));
        m_view->setClusterCollapsed("layer1", true);
        QVERIFY(waitForLayout(*m_view));
        QCOMPARE(m_view->visibleNodeCount(), before);
    }

    /// Search by op kind and module path; the result model stays consistent.
    void searchFindsByKindAndModulePath() {
        QAbstractItemModelTester tester(m_view->searchModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        int adds = 0;
        for (const GraphNode& n : m_graph.nodes)
            adds += n.kind == "aten::add"; // one per residual block
        QCOMPARE(m_view->search("aten::add", SearchField::Kind), adds);
        QCOMPARE(m_view->searchModel()->rowCount(), adds);
        QCOMPARE(m_view->searchModel()->index(0).data(SearchResultModel::KindRole).toString(),
                 QString("aten::add"));
        QVERIFY(waitForLayout(*m_view)); // the first match was revealed
        const QString first = m_view->searchModel()->nodeId(0);
        QVERIFY(m_view->graphScene()->nodeItem(first)->isSelected());

        QCOMPARE(m_view->search("layer2.1.", SearchField::ModulePath), 7);
        QCOMPARE(m_view->search("layer2.1.", SearchField::Kind), 0);
        QCOMPARE(m_view->search("1x128x28x28", SearchField::Shape), nodesUnder(m_graph, "layer2"));
        m_view->search("relu2", SearchField::Name);
        QVERIFY(waitForLayout(*m_view));
        m_view->nextMatch();
        QVERIFY(waitForLayout(*m_view));
        QCOMPARE(m_view->currentMatch(), 1);
        QVERIFY(m_view->graphScene()->nodeItem(m_view->searchModel()->nodeId(1))->isSelected());
        m_view->previousMatch();
        m_view->previousMatch();
        QCOMPARE(m_view->currentMatch(), m_view->searchModel()->rowCount() - 1);
    }

    /// selectNode expands the cluster hiding the node, selects and centres it,
    /// without echoing nodeSelected; a user click does emit it.
    void programmaticSelectCentresTheNode() {
        QSignalSpy selected(m_view.get(), &GraphView::nodeSelected);
        const QString id = "layer3.2.conv2";
        QVERIFY(!m_view->graphScene()->nodeItem(id));
        m_view->selectNode(id);
        QVERIFY(waitForLayout(*m_view));
        NodeItem* item = m_view->graphScene()->nodeItem(id);
        QVERIFY(item && item->isSelected());
        QVERIFY(!m_view->collapsedClusters().contains("layer3"));
        const QPointF centre = m_view->mapToScene(m_view->viewport()->rect().center());
        QVERIFY2(QLineF(centre, item->rect().center()).length() < 2.0,
                 qPrintable(QString("view centre %1,%2").arg(centre.x()).arg(centre.y())));
        QCOMPARE(selected.count(), 0);

        NodeItem* other = m_view->graphScene()->nodeItem("layer3.2.bn2");
        m_view->centerOn(other->rect().center());
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {},
                          m_view->mapFromScene(other->rect().center()));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).toString(), QString("layer3.2.bn2"));
    }

    /// Highlight sets outline their nodes, or the collapsed cluster hiding them.
    void highlightSetsOutlineNodes() {
        m_view->setHighlightSet("frozen", {"conv1", "layer4.1.add"}, QColor(255, 140, 0));
        QCOMPARE(m_view->graphScene()->nodeItem("conv1")->highlight(), QColor(255, 140, 0));
        QCOMPARE(m_view->graphScene()->nodeItem(clusterItemKey("layer4"))->highlight(),
                 QColor(255, 140, 0));
        QVERIFY(!m_view->graphScene()->nodeItem("bn1")->highlight().isValid());
        m_view->clearHighlightSet("frozen");
        QVERIFY(!m_view->graphScene()->nodeItem("conv1")->highlight().isValid());
    }

    /// The minimap's outline shrinks when zooming in; clicking it moves the view.
    void minimapShowsAndMovesTheView() {
        m_view->setClusterCollapsed("layer1", false);
        QVERIFY(waitForLayout(*m_view));
        m_view->fitGraph();
        GraphMinimap* map = m_view->minimap();
        QVERIFY(map->isVisible());
        const QRectF fitted = map->visibleRect();
        for (int i = 0; i < 6; ++i)
            m_view->zoomIn();
        const QRectF zoomed = map->visibleRect();
        const auto area = [](const QRectF& r) { return r.width() * r.height(); };
        QVERIFY(area(zoomed) < area(fitted) / 3); // 6 steps of 1.25 = 3.8x
        const QPointF target(map->width() / 2.0, map->height() * 0.8);
        QTest::mouseClick(map, Qt::LeftButton, {}, target.toPoint());
        const QPointF centre = m_view->mapToScene(m_view->viewport()->rect().center());
        const QPointF wanted = map->toScene(target.toPoint());
        QVERIFY(QLineF(centre, wanted).length() < 40);
    }

    /// PNG and SVG exports, whole graph and visible part, hold a real drawing.
    void exportsPngAndSvg() {
        QTemporaryDir dir;
        QString error;
        const QString png = dir.filePath("graph.png");
        QVERIFY2(m_view->exportImage(png, GraphView::ExportArea::WholeGraph, &error),
                 qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(inkedPixels(image) > image.width() * image.height() / 100);

        const QString part = dir.filePath("part.png");
        m_view->zoomIn();
        QVERIFY(m_view->exportImage(part, GraphView::ExportArea::VisiblePart, &error));
        QVERIFY(inkedPixels(QImage(part)) > 100);

        const QString svg = dir.filePath("graph.svg");
        QVERIFY2(m_view->exportImage(svg, GraphView::ExportArea::WholeGraph, &error),
                 qPrintable(error));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QImage drawn(renderer.defaultSize().boundedTo(QSize(1200, 1200)), QImage::Format_ARGB32);
        drawn.fill(Qt::white);
        QPainter painter(&drawn);
        renderer.render(&painter);
        painter.end();
        QVERIFY(inkedPixels(drawn) > 1000);
        QVERIFY(!m_view->exportImage(dir.filePath("no/such/dir/x.png"),
                                     GraphView::ExportArea::WholeGraph, &error));
        QVERIFY(error.contains("export"));
    }

private:
    GraphData m_graph;
    std::unique_ptr<GraphView> m_view;
};

T2N_TEST_SUITE(GraphViewTest)
#include "tst_graph_view.moc"
