// t2n_ui_bench: times the graph view on a synthetic ResNet-like graph (nested
// module clusters, skip edges): open (cluster tree + layout on the layout
// thread + first paint), expanding, the fully expanded layout, and pass steps
// that remove and add about 1% of the nodes each. Goals: open < 2 s, step < 200 ms.
//   t2n_ui_bench [NODES]      (default 5000; runs offscreen unless a platform is set)
#include "graph/graph_layout.h"
#include "graph/graph_view.h"
#include "synthetic_graph.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>

#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace t2n::ui;

namespace {

// Wall time, and the CPU time of the whole process (GUI and layout threads):
// on a busy machine the second says what the code costs, the first what a user waits.
struct Clock {
    QElapsedTimer wall;
    std::clock_t cpu = std::clock();
    Clock() { wall.start(); }
    double wallMs() const { return wall.nsecsElapsed() / 1e6; }
    double cpuMs() const { return double(std::clock() - cpu) * 1000.0 / CLOCKS_PER_SEC; }
};

struct Figure {
    double wall = 0;
    double cpu = 0;
    Figure operator+(const Figure& o) const { return {wall + o.wall, cpu + o.cpu}; }
};

Figure since(const Clock& c) {
    return {c.wallMs(), c.cpuMs()};
}

bool waitForLayout(GraphView& view) {
    if (!view.isLayoutPending())
        return true;
    QSignalSpy spy(&view, &GraphView::layoutFinished);
    return spy.wait(120000);
}

Figure paint(GraphView& view) {
    Clock t;
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    view.render(&painter);
    painter.end();
    return since(t);
}

void row(const char* what, Figure f, const QString& note = {}) {
    std::printf("  %-46s %8.1f %8.1f   %s\n", what, f.wall, f.cpu, qPrintable(note));
}

// Fonts and glyph caches load on the first text drawn in a process; in the
// studio the window's own widgets have paid for that before any graph opens.
Figure warmUpFonts() {
    Clock t;
    QImage image(200, 50, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    painter.drawText(image.rect(), QStringLiteral("conv2d batch_norm relu \u00d72"));
    return since(t);
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int target = argc > 1 ? std::max(20, std::atoi(argv[1])) : 5000;
    const GraphData graph = t2n::test::resnetLike(target);
    std::printf("t2n_ui_bench: synthetic ResNet-like graph, %lld nodes, %lld edges\n",
                qlonglong(graph.nodes.size()), qlonglong(graph.edges.size()));
    std::printf("  %-46s %8s %8s\n", "", "wall ms", "cpu ms");
    row("font warm-up (once per process)", warmUpFonts());

    GraphView view;
    view.resize(1600, 1000);
    view.show();
    Clock open;
    view.setGraph(graph);
    if (!waitForLayout(view))
        return std::fprintf(stderr, "layout did not finish\n"), 1;
    const Figure layout = since(open);
    const Figure firstPaint = paint(view);
    row("open: tree + layout (collapsed) + show", layout,
        QStringLiteral("%1 boxes drawn, %2 clusters collapsed")
            .arg(view.geometry().nodes.size())
            .arg(view.collapsedClusters().size()));
    row("open: first paint (1600x1000 viewport)", firstPaint);
    row("OPEN TOTAL (goal < 2000 ms)", layout + firstPaint);

    Clock expand;
    view.setClusterCollapsed(QStringLiteral("layer1"), false);
    waitForLayout(view);
    row("expand layer1 (layout + scene update)", since(expand),
        QStringLiteral("%1 ops visible").arg(view.visibleNodeCount()));

    QSet<QString> removed;
    QSet<QString> added;
    const GraphData next = t2n::test::foldSomeBatchNorms(graph, 7, &removed, &added);
    Clock step;
    view.showStep(graph, next);
    row("pass step, layer1 expanded (+paint)", since(step) + paint(view),
        QStringLiteral("-%1 +%2 nodes").arg(removed.size()).arg(added.size()));

    Clock cold;
    GraphLayout direct;
    direct.layout(graph, ClusterTree::build(graph), {});
    row("full layout, all expanded, cold cache", since(cold),
        QStringLiteral("%1 dot runs, %2 cache hits").arg(direct.dotRuns()).arg(direct.cacheHits()));

    Clock uncached;
    GraphLayout everyBlock;
    everyBlock.setCacheEnabled(false);
    everyBlock.layout(graph, ClusterTree::build(graph), {});
    row("full layout, all expanded, cache off", since(uncached),
        QStringLiteral("%1 dot runs (as if no block repeated)").arg(everyBlock.dotRuns()));

    GraphView expanded(nullptr, LayoutOptions{1 << 30, 300});
    expanded.resize(1600, 1000);
    expanded.show();
    Clock openAll;
    expanded.setGraph(graph);
    waitForLayout(expanded);
    const Figure allLayout = since(openAll);
    const Figure allPaint = paint(expanded);
    row("open all expanded: layout + show", allLayout,
        QStringLiteral("%1 ops, %2 edges drawn")
            .arg(expanded.visibleNodeCount())
            .arg(expanded.graphScene()->edgeCount()));
    row("open all expanded: first paint (fit)", allPaint);
    row("OPEN ALL EXPANDED TOTAL", allLayout + allPaint);

    // Successive pass steps on the expanded view, each ~1% removed and ~1% added.
    QVector<Figure> steps;
    GraphData current = graph;
    for (int i = 0; i < 5; ++i) {
        GraphData stepped = t2n::test::foldSomeBatchNorms(current, 7);
        Clock t;
        const GraphDiff diff = expanded.showStep(current, stepped);
        const Figure placed = since(t);
        steps.append(placed + paint(expanded));
        if (i == 0)
            row("pass step, all expanded: diff + place + scene", placed,
                QStringLiteral("-%1 +%2 ~%3")
                    .arg(diff.removed.size())
                    .arg(diff.added.size())
                    .arg(diff.rewired.size()));
        current = std::move(stepped);
    }
    std::sort(steps.begin(), steps.end(),
              [](const Figure& a, const Figure& b) { return a.wall < b.wall; });
    row("PASS STEP incl. paint, median of 5 (goal < 200)", steps[steps.size() / 2]);
    row("pass step incl. paint, worst of 5", steps.last());
    return 0;
}
