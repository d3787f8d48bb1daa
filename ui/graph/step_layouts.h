#pragma once
// The pass scrubber's layouts: every row (the graph after one pass) is placed
// from a neighbouring row's boxes, outwards from one Graphviz layout (the
// base), so that moving between any two rows, either way, keeps each node
// that exists in both exactly where it was (iongraph's stable scrubbing).
// A Graphviz layout per row would move everything at every step; chaining
// placeStep from row 0 only would put a freeze's hundreds of inlined nodes
// into free spots. No Graphviz run here: a row costs a few hash passes.
#include "graph/cluster_tree.h"
#include "graph/graph_geometry.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace t2n::ui {

class StepLayouts {
public:
    /// The graph of each row, built when first needed.
    using Source = std::function<GraphData(int row)>;

    /// Forgets every placement; `rows` rows, none laid out yet.
    void reset(int rows, Source source, int splitAbove = 300);
    int rowCount() const { return int(graphs_.size()); }
    /// The row whose Graphviz layout the others are placed from; -1 before one.
    int baseRow() const { return base_; }
    /// A fresh layout of `row` with `collapsed` becomes the base: the rows
    /// placed before are placed again from it.
    void setBase(int row, const GraphGeometry& geometry, const QSet<QString>& collapsed);

    struct Step {
        GraphGeometry geometry; ///< row `row`'s boxes, ghosts of what its pass removed, marks
        GraphDiff diff;         ///< row - 1 to row (empty for row 0)
    };
    /// Row `row` with what its pass did marked; needs a base.
    Step step(int row);

    std::shared_ptr<const GraphData> graph(int row);
    std::shared_ptr<const ClusterTree> tree(int row);
    /// The boxes of row `row`'s own nodes, without ghosts or marks.
    const GraphGeometry& plain(int row);

private:
    Source source_;
    int splitAbove_ = 300;
    int base_ = -1;
    QSet<QString> collapsed_;
    std::vector<std::shared_ptr<const GraphData>> graphs_;
    std::vector<std::shared_ptr<const ClusterTree>> trees_;
    std::vector<std::optional<GraphGeometry>> plain_;
};

} // namespace t2n::ui
