// `t2n-studio --bench MODEL --input ...`: the figures a user feels, measured
// in the real window: engine preparation, graph layout to first paint, and
// one pass step in the stepper (diff computed and shown).
#pragma once

#include "t2n/input_spec.h"

#include <QString>

#include <vector>

namespace t2n::ui {

class MainWindow;

struct StudioBenchFigures {
    double prepareSeconds = 0;   ///< open + harden + trace + translate (engine, worker thread)
    double firstDrawSeconds = 0; ///< IR graph: layout until the first painted frame
    double stepSeconds = 0;      ///< median time of one pass step (diff + both views)
    int graphNodes = 0;          ///< boxes drawn (clusters beyond a size open collapsed)
    int graphTotalNodes = 0;     ///< nodes of the IR graph
    int passSteps = 0;
    QString error;
};

StudioBenchFigures runStudioBench(MainWindow& window, const QString& model,
                                  const std::vector<InputSpec>& inputs);

} // namespace t2n::ui
