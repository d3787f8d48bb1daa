#include "graph/step_layouts.h"

#include "graph/step_placement.h"

namespace t2n::ui {

namespace {
// A placed step without its ghosts and marks: what the next step starts from.
GraphGeometry withoutMarks(GraphGeometry g) {
    g.nodes.removeIf([](const NodeGeometry& n) { return n.mark == DiffMark::Removed; });
    g.edges.removeIf([](const EdgeGeometry& e) { return e.mark == DiffMark::Removed; });
    for (NodeGeometry& n : g.nodes) {
        n.mark = DiffMark::None;
        n.diffSummary.clear();
    }
    for (EdgeGeometry& e : g.edges)
        e.mark = DiffMark::None;
    g.reindex();
    return g;
}
} // namespace

void StepLayouts::reset(int rows, Source source, int splitAbove) {
    source_ = std::move(source);
    splitAbove_ = splitAbove;
    base_ = -1;
    collapsed_.clear();
    graphs_.assign(size_t(std::max(rows, 0)), nullptr);
    trees_.assign(graphs_.size(), nullptr);
    plain_.assign(graphs_.size(), std::nullopt);
}

void StepLayouts::setBase(int row, const GraphGeometry& geometry, const QSet<QString>& collapsed) {
    if (row < 0 || row >= rowCount())
        return;
    plain_.assign(graphs_.size(), std::nullopt);
    plain_[size_t(row)] = withoutMarks(geometry);
    base_ = row;
    collapsed_ = collapsed;
}

std::shared_ptr<const GraphData> StepLayouts::graph(int row) {
    auto& g = graphs_.at(size_t(row));
    if (!g)
        g = std::make_shared<const GraphData>(source_(row));
    return g;
}

std::shared_ptr<const ClusterTree> StepLayouts::tree(int row) {
    auto& t = trees_.at(size_t(row));
    if (!t)
        t = std::make_shared<const ClusterTree>(ClusterTree::build(*graph(row), splitAbove_));
    return t;
}

const GraphGeometry& StepLayouts::plain(int row) {
    Q_ASSERT(base_ >= 0);
    // Walk from the nearest placed row towards `row`, one pass at a time, so
    // that each placement only moves what that pass changed.
    const int dir = row > base_ ? -1 : 1;
    int from = row;
    while (!plain_.at(size_t(from)))
        from += dir;
    for (int r = from - dir; r != row - dir; r -= dir) {
        const int n = r + dir; // the placed neighbour
        const GraphData& prev = *graph(n);
        const GraphData& next = *graph(r);
        plain_[size_t(r)] = withoutMarks(placeStep(*plain_[size_t(n)], prev, next, *tree(r),
                                                   collapsed_, diffGraphs(prev, next)));
    }
    return *plain_[size_t(row)];
}

StepLayouts::Step StepLayouts::step(int row) {
    if (row == 0)
        return {plain(0), {}};
    const GraphGeometry& own = plain(row);
    const GraphData& prev = *graph(row - 1);
    const GraphData& next = *graph(row);
    Step s;
    s.diff = diffGraphs(prev, next);
    s.geometry = placeStep(plain(row - 1), prev, next, *tree(row), collapsed_, s.diff, &own);
    return s;
}

} // namespace t2n::ui
