#include "studio/studio_bench.h"

#include "graph/graph_view.h"
#include "session/pass_list_model.h"
#include "session/session_controller.h"
#include "studio/main_window.h"
#include "studio/pass_stepper.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTabWidget>

#include <algorithm>

namespace t2n::ui {

StudioBenchFigures runStudioBench(MainWindow& w, const QString& model,
                                  const std::vector<InputSpec>& inputs) {
    StudioBenchFigures f;
    w.resize(1600, 1000);
    w.show();
    QCoreApplication::processEvents();
    QElapsedTimer timer;
    timer.start();
    w.openModel(model, inputs);
    if (!w.controller()->waitIdle(600000) || !w.controller()->state()->translated) {
        f.error = QStringLiteral("the model did not open and translate");
        return f;
    }
    f.prepareSeconds = timer.nsecsElapsed() / 1e9;
    f.graphNodes = w.irGraph()->visibleNodeCount();

    // A fresh view (its layout cache is its own) lays out the IR graph cold:
    // layout on the layout thread, then the first painted frame.
    w.tabs()->setCurrentIndex(MainWindow::ModelTab);
    const GraphData graph = w.irGraph()->graph();
    GraphView fresh;
    fresh.resize(w.irGraph()->size());
    fresh.show();
    QCoreApplication::processEvents();
    timer.restart();
    fresh.setGraph(graph);
    while (fresh.isLayoutPending())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    fresh.viewport()->repaint();
    f.firstDrawSeconds = timer.nsecsElapsed() / 1e9;
    f.graphNodes = fresh.visibleNodeCount();
    f.graphTotalNodes = static_cast<int>(graph.nodes.size());

    w.tabs()->setCurrentIndex(MainWindow::PassesTab);
    PassStepper* stepper = w.passStepper();
    std::vector<double> steps;
    for (int row = 0; row < stepper->model()->rowCount(); ++row) {
        timer.restart();
        stepper->showRow(row);
        stepper->repaint();
        steps.push_back(timer.nsecsElapsed() / 1e9);
    }
    f.passSteps = static_cast<int>(steps.size());
    if (!steps.empty()) {
        std::nth_element(steps.begin(), steps.begin() + static_cast<long>(steps.size() / 2),
                         steps.end());
        f.stepSeconds = steps[steps.size() / 2];
    }
    return f;
}

} // namespace t2n::ui
