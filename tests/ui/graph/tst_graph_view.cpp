// GraphView offscreen: collapse/expand, search (with its item model), synced
// selection, highlight sets, minimap, PNG/SVG export.
#include "graph/graph_minimap.h"
#include "graph/graph_view.h"
#include "layout_wait.h"
#include "suite_macros.h"
#include "synthetic_graph.h"

#include <QAbstractItemModelTester>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

using namespace t2n::ui;
using t2n::test::waitForLayout;

namespace {

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
        graph_ = t2n::test::resnetLike(200); // layers of ~50 nodes: collapsed at 40
        view_ = std::make_unique<GraphView>();
        view_->resize(900, 700);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
        view_->setGraph(graph_);
        QVERIFY(waitForLayout(*view_));
    }
    void cleanup() { view_.reset(); }

    /// Big clusters open collapsed; double-clicking one expands it, again collapses it.
    void collapseExpandChangesVisibleCount() {
        const int layer1 = nodesUnder(graph_, "layer1");
        QVERIFY(layer1 > 40);
        QVERIFY(view_->collapsedClusters().contains("layer1"));
        const int before = view_->visibleNodeCount();
        QCOMPARE(before, int(graph_.nodes.size()) - nodesUnder(graph_, "layer"));
        NodeItem* box = view_->graphScene()->nodeItem(clusterItemKey("layer1"));
        QVERIFY(box);
        view_->centerOn(box->rect().center());
        QTest::mouseDClick(view_->viewport(), Qt::LeftButton, {},
                           view_->mapFromScene(box->rect().center()));
        QVERIFY(waitForLayout(*view_));
        QCOMPARE(view_->visibleNodeCount(), before + layer1);
        QVERIFY(!view_->graphScene()->nodeItem(clusterItemKey("layer1")));
        view_->setClusterCollapsed("layer1", true);
        QVERIFY(waitForLayout(*view_));
        QCOMPARE(view_->visibleNodeCount(), before);
    }

    /// Search by op kind and module path; the result model stays consistent.
    void searchFindsByKindAndModulePath() {
        QAbstractItemModelTester tester(view_->searchModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        int adds = 0;
        for (const GraphNode& n : graph_.nodes)
            adds += n.kind == "aten::add"; // one per residual block
        QCOMPARE(view_->search("aten::add", SearchField::Kind), adds);
        QCOMPARE(view_->searchModel()->rowCount(), adds);
        QCOMPARE(view_->searchModel()->index(0).data(SearchResultModel::KindRole).toString(),
                 QString("aten::add"));
        QVERIFY(waitForLayout(*view_)); // the first match was revealed
        const QString first = view_->searchModel()->nodeId(0);
        QVERIFY(view_->graphScene()->nodeItem(first)->isSelected());

        QCOMPARE(view_->search("layer2.1.", SearchField::ModulePath), 7);
        QCOMPARE(view_->search("layer2.1.", SearchField::Kind), 0);
        QCOMPARE(view_->search("1x128x28x28", SearchField::Shape), nodesUnder(graph_, "layer2"));
        view_->search("relu2", SearchField::Name);
        QVERIFY(waitForLayout(*view_));
        view_->nextMatch();
        QVERIFY(waitForLayout(*view_));
        QCOMPARE(view_->currentMatch(), 1);
        QVERIFY(view_->graphScene()->nodeItem(view_->searchModel()->nodeId(1))->isSelected());
        view_->previousMatch();
        view_->previousMatch();
        QCOMPARE(view_->currentMatch(), view_->searchModel()->rowCount() - 1);
    }

    /// selectNode expands the cluster hiding the node, selects and centres it,
    /// without echoing nodeSelected; a user click does emit it.
    void programmaticSelectCentresTheNode() {
        QSignalSpy selected(view_.get(), &GraphView::nodeSelected);
        const QString id = "layer3.2.conv2";
        QVERIFY(!view_->graphScene()->nodeItem(id));
        view_->selectNode(id);
        QVERIFY(waitForLayout(*view_));
        NodeItem* item = view_->graphScene()->nodeItem(id);
        QVERIFY(item && item->isSelected());
        QVERIFY(!view_->collapsedClusters().contains("layer3"));
        const QPointF centre = view_->mapToScene(view_->viewport()->rect().center());
        QVERIFY2(QLineF(centre, item->rect().center()).length() < 2.0,
                 qPrintable(QString("view centre %1,%2").arg(centre.x()).arg(centre.y())));
        QCOMPARE(selected.count(), 0);

        NodeItem* other = view_->graphScene()->nodeItem("layer3.2.bn2");
        view_->centerOn(other->rect().center());
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {},
                          view_->mapFromScene(other->rect().center()));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).toString(), QString("layer3.2.bn2"));
    }

    /// Highlight sets outline their nodes, or the collapsed cluster hiding them.
    void highlightSetsOutlineNodes() {
        view_->setHighlightSet("frozen", {"conv1", "layer4.1.add"}, QColor(255, 140, 0));
        QCOMPARE(view_->graphScene()->nodeItem("conv1")->highlight(), QColor(255, 140, 0));
        QCOMPARE(view_->graphScene()->nodeItem(clusterItemKey("layer4"))->highlight(),
                 QColor(255, 140, 0));
        QVERIFY(!view_->graphScene()->nodeItem("bn1")->highlight().isValid());
        view_->clearHighlightSet("frozen");
        QVERIFY(!view_->graphScene()->nodeItem("conv1")->highlight().isValid());
    }

    /// The minimap's outline shrinks when zooming in; clicking it moves the view.
    void minimapShowsAndMovesTheView() {
        view_->setClusterCollapsed("layer1", false);
        QVERIFY(waitForLayout(*view_));
        view_->fitGraph();
        GraphMinimap* map = view_->minimap();
        QVERIFY(map->isVisible());
        const QRectF fitted = map->visibleRect();
        for (int i = 0; i < 6; ++i)
            view_->zoomIn();
        const QRectF zoomed = map->visibleRect();
        const auto area = [](const QRectF& r) { return r.width() * r.height(); };
        QVERIFY(area(zoomed) < area(fitted) / 3); // 6 steps of 1.25 = 3.8x
        const QPointF target(map->width() / 2.0, map->height() * 0.8);
        QTest::mouseClick(map, Qt::LeftButton, {}, target.toPoint());
        const QPointF centre = view_->mapToScene(view_->viewport()->rect().center());
        const QPointF wanted = map->toScene(target.toPoint());
        QVERIFY(QLineF(centre, wanted).length() < 40);
    }

    /// PNG and SVG exports, whole graph and visible part, hold a real drawing.
    void exportsPngAndSvg() {
        QTemporaryDir dir;
        QString error;
        const QString png = dir.filePath("graph.png");
        QVERIFY2(view_->exportImage(png, GraphView::ExportArea::WholeGraph, &error),
                 qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(inkedPixels(image) > image.width() * image.height() / 100);

        const QString part = dir.filePath("part.png");
        view_->zoomIn();
        QVERIFY(view_->exportImage(part, GraphView::ExportArea::VisiblePart, &error));
        QVERIFY(inkedPixels(QImage(part)) > 100);

        const QString svg = dir.filePath("graph.svg");
        QVERIFY2(view_->exportImage(svg, GraphView::ExportArea::WholeGraph, &error),
                 qPrintable(error));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QImage drawn(renderer.defaultSize().boundedTo(QSize(1200, 1200)), QImage::Format_ARGB32);
        drawn.fill(Qt::white);
        QPainter painter(&drawn);
        renderer.render(&painter);
        painter.end();
        QVERIFY(inkedPixels(drawn) > 1000);
        QVERIFY(!view_->exportImage(dir.filePath("no/such/dir/x.png"),
                                    GraphView::ExportArea::WholeGraph, &error));
        QVERIFY(error.contains("export"));
    }

private:
    GraphData graph_;
    std::unique_ptr<GraphView> view_;
};

T2N_TEST_SUITE(GraphViewTest)
#include "tst_graph_view.moc"
