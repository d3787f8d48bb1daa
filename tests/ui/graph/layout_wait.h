// Waits for a graph view's layout thread (at most 20 s).
#pragma once

#include "graph/graph_view.h"

#include <QSignalSpy>

namespace t2n::test {

inline bool waitForLayout(ui::GraphView& view) {
    if (!view.isLayoutPending())
        return true;
    QSignalSpy spy(&view, &ui::GraphView::layoutFinished);
    return spy.wait(20000);
}

} // namespace t2n::test
